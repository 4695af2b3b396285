// A server setting that cannot work stops `next start` with a sentence naming it, rather than a server that answers
// every request 500 (what Next does when its instrumentation hook throws). Needs `npm run build` first.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { built, freePort, startExpectingExit } from "../support/built-server";

const PORT = await freePort();

/** `next start` with these settings on an empty embedded database: its exit code and what it printed. */
async function start(settings: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), "cjt-start-settings-"));
  const env: NodeJS.ProcessEnv = { ...process.env, ...settings, PGLITE_DATA_DIR: dataDir, NODE_ENV: "production" };
  delete env.DATABASE_URL;
  env.NEXTAUTH_SECRET = "start-settings-test-secret-of-enough-length";
  try {
    return await startExpectingExit(PORT, env, 30_000);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe.skipIf(!built)("a server start with SERVER_HEAP_GROWTH_PERCENT that is not a percentage", () => {
  it("is refused at once, naming the setting", { timeout: 60_000 }, async () => {
    const refused = await start({ SERVER_HEAP_GROWTH_PERCENT: "lots" });
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(
      /^Refusing to run: SERVER_HEAP_GROWTH_PERCENT must be a whole number from 0 to 400\.$/m,
    );
  });
});
