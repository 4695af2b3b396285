// Demo data (published password, an Owner token) exists only where someone asked for it, and its token is random,
// kept in a file (DEMO_TOKEN_FILE) and never printed.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { register } from "@/instrumentation";
import { closeDatabase, prisma } from "@/lib/db/client";
import { hashToken } from "@/lib/tokens";

const tokenDir = mkdtempSync(path.join(tmpdir(), "cjt-demo-"));
afterAll(() => rmSync(tokenDir, { recursive: true, force: true }));
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** Starts a server instance (instrumentation) on a new, empty embedded database; what it then holds and kept. */
async function startOnEmptyDatabase(env: Record<string, string>) {
  vi.stubEnv("DATABASE_URL", "");
  vi.stubEnv("VERCEL", "");
  vi.stubEnv("DEMO_SEED", "");
  vi.stubEnv("NEXT_RUNTIME", "nodejs");
  vi.stubEnv("NEXTAUTH_SECRET", "a production start needs one");
  vi.stubEnv("PGLITE_DATA_DIR", `memory://start-${Math.random().toString(36).slice(2)}`);
  const tokenFile = path.join(tokenDir, `demo-token-${Math.random().toString(36).slice(2)}`);
  vi.stubEnv("DEMO_TOKEN_FILE", tokenFile);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  try {
    await register();
    const client = await prisma();
    const printed = log.mock.calls.flat().join("\n");
    const token = existsSync(tokenFile) ? readFileSync(tokenFile, "utf8").trim() : undefined;
    if (token) expect(printed).not.toContain(token);
    return {
      tenants: await client.tenant.count(),
      users: await client.user.count(),
      tokenHashes: (await client.apiToken.findMany({ select: { tokenHash: true } })).map((t) => t.tokenHash),
      token,
    };
  } finally {
    log.mockRestore();
    await closeDatabase();
  }
}

describe("demo data", () => {
  it("is not created by a production start on an empty database: no demo firm, no accounts, no token", async () => {
    expect(await startOnEmptyDatabase({ NODE_ENV: "production" })).toEqual({
      tenants: 0,
      users: 0,
      tokenHashes: [],
      token: undefined,
    });
  });

  it("is not created under `next dev` when DEMO_SEED=off", async () => {
    expect((await startOnEmptyDatabase({ NODE_ENV: "development", DEMO_SEED: "off" })).tenants).toBe(0);
  });

  it("is created on request (DEMO_SEED=on), with a random demo token that the start keeps in its file, unprinted", async () => {
    const first = await startOnEmptyDatabase({ NODE_ENV: "production", DEMO_SEED: "on" });
    const second = await startOnEmptyDatabase({ NODE_ENV: "development" });
    for (const start of [first, second]) {
      expect(start.tenants).toBe(2);
      expect(start.token).toMatch(/^cjt_/);
      expect(start.tokenHashes).toEqual([hashToken(start.token as string)]);
      // The token the demo used to have, computable from a constant in the source, is not among them.
      expect(start.tokenHashes).not.toContain(hashToken("cjt_EPvNIMdojqCS0krbwfcXcwD9fMgaD45ZJ04nSuKixI0"));
    }
    expect(first.token).not.toBe(second.token);
  });
});
