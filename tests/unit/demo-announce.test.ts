// What the demo seed prints (`npm run demo`, `npm run db:seed`, a start that seeds): how to sign in and a call that
// works, but neither the demo password nor the token, which it keeps in a file of its owner's (issue #40: no token
// value or password in any log line).
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { announceDemo, DEMO_PASSWORD, demoSummary } from "@/lib/demo/seed";
import { generateTokenValue } from "@/lib/tokens";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "cjt-demo-token-"));
  file = path.join(dir, "demo-token");
  vi.stubEnv("DEMO_TOKEN_FILE", file);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const printed = (summary: ReturnType<typeof demoSummary>) => {
  const out = vi.spyOn(console, "log").mockImplementation(() => undefined);
  try {
    announceDemo(summary, "http://localhost:3000");
    return out.mock.calls.map((args) => args.join(" ")).join("\n");
  } finally {
    out.mockRestore();
  }
};

describe("the demo seed's announcement", () => {
  it("keeps a new seed's token in a file only its owner reads, and prints a call that reads it, not the token", async () => {
    const token = generateTokenValue();
    const text = printed(demoSummary(token));
    expect(await readFile(file, "utf8")).toBe(`${token}\n`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(text).not.toContain(token);
    expect(text).not.toContain(DEMO_PASSWORD);
    const shown = path.relative(process.cwd(), file);
    expect(text).toContain(
      `curl -H "Authorization: Bearer $(cat ${shown})" -H "Accept: application/json" http://localhost:3000/api/v1/me`,
    );
    expect(text).toContain("owner@acme.test");
  });

  it("points to the kept token when the data was already seeded, and to the tokens page when there is none", async () => {
    const token = generateTokenValue();
    printed(demoSummary(token));
    const again = printed(demoSummary());
    expect(again).toContain(`Bearer $(cat ${path.relative(process.cwd(), file)})`);
    expect(again).not.toContain(token);
    await rm(file);
    const none = printed(demoSummary());
    expect(none).toContain("/settings/api-tokens");
    expect(none).not.toContain("Bearer");
  });
});
