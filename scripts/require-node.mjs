// Run first by `npm run build`, `npm start` and `npm run dev`: a Node outside package.json's "engines" is refused
// with the reason, as `npm install` refuses it (engine-strict in .npmrc), instead of building or serving silently.
// Plain JavaScript that any Node runs.
import { readFileSync } from "node:fs";
import semver from "semver";

const { engines } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
if (!semver.satisfies(process.versions.node, engines.node)) {
  console.error(
    `This app needs Node.js ${engines.node} (package.json "engines"); this is Node.js ${process.versions.node}. ` +
      "Install a supported version (for example with nvm: nvm install 22 && nvm use 22), then run this again.",
  );
  process.exit(1);
}
