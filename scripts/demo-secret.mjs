// `npm run demo`'s session secret (NEXTAUTH_SECRET): made once, kept in .data/nextauth-secret (git-ignored, readable
// only by its owner, like .data/demo-token) and printed for the demo's command line, so that stopping and starting
// the demo keeps everyone signed in. Deleting the file signs everyone out at the next start. Plain JavaScript.
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";

const file = ".data/nextauth-secret";
let secret;
try {
  secret = readFileSync(file, "utf8").trim();
} catch {}
if (!secret) {
  mkdirSync(".data", { recursive: true });
  secret = randomBytes(32).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
}
chmodSync(file, 0o600); // also a file made by hand
process.stdout.write(secret);
