// One process at a time opens an embedded database (two corrupted it: after a SIGINT the next start aborted in
// WebAssembly and every row was gone). While the built server (what `npm run demo` starts) runs, token:create,
// migrate, a second server and a second demo's build are refused with a sentence naming the holder, and leave the
// files alone; a lock left by a process that died does not block anyone. Needs `npm run build` first.
import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockPath } from "@/lib/db/pglite";
import {
  BuiltServerDatabase,
  built,
  client,
  freePort,
  kill,
  startExpectingExit,
  startServer,
} from "../support/built-server";

const PORT = await freePort();
const SECOND_PORT = await freePort();
const repo = path.resolve(import.meta.dirname, "../..");
let database: BuiltServerDatabase;

beforeAll(async () => {
  if (!built || process.env.DATABASE_URL) return;
  database = await BuiltServerDatabase.create();
});
afterAll(async () => {
  await database?.remove();
});

/** A script as `npm run <script>` runs it, on the test's embedded database. */
function script(file: string, args: string[] = [], dataDir = database.dataDir) {
  // What a shell would have: not the test run's NODE_ENV or database.
  const env: Record<string, string | undefined> = { ...process.env, PGLITE_DATA_DIR: dataDir };
  for (const name of ["NODE_ENV", "DATABASE_URL"]) delete env[name];
  const tsx = path.join(repo, "node_modules", "tsx", "dist", "cli.mjs");
  return promisify(execFile)(process.execPath, [tsx, path.join(repo, "scripts", file), ...args], {
    cwd: repo,
    env: env as NodeJS.ProcessEnv,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

/** A second `next start` on the same folder: its exit code and what it printed. */
function secondServer() {
  const env: NodeJS.ProcessEnv = { ...process.env, PGLITE_DATA_DIR: database.dataDir, NODE_ENV: "production" };
  delete env.DATABASE_URL;
  env.NEXTAUTH_SECRET = randomBytes(32).toString("base64url");
  return startExpectingExit(SECOND_PORT, env);
}

const token = ["--email", "owner@acme.test", "--name", "From the terminal"];

describe.skipIf(!built || process.env.DATABASE_URL)("the embedded database while the server runs", () => {
  it("refuses every other process with a sentence naming the server, and keeps the data through a SIGINT", {
    timeout: 300_000,
  }, async () => {
    const send = client(PORT, database);
    const first = await startServer(PORT, database);
    let clients: number;
    try {
      clients = (await send("GET", "/api/v1/clients?limit=1")).body.meta.total;
      const holder = new RegExp(
        `^The embedded database in ${database.dataDir} is in use by process \\d+ \\(.+\\), and only one process may open it\\. Stop that process first`,
        "m",
      );

      const minted = await script("token-create.ts", token);
      expect(minted.code).toBe(1);
      expect(minted.stderr).toMatch(holder);
      expect(minted.stdout).not.toContain("cjt_");

      const migrated = await script("migrate.ts");
      expect(migrated.code).toBe(1);
      expect(migrated.stderr).toMatch(holder);

      // A second `npm run demo` stops at the build's preflight, before .next is touched.
      const built = await script("preflight.ts");
      expect(built.code).toBe(1);
      expect(built.stderr).toMatch(
        /^Refusing to run: Process \d+ \(.+\) has the embedded database .* open; building now/m,
      );

      const second = await secondServer();
      expect(second.code).toBe(1);
      expect(second.output).toMatch(/Refusing to run: The embedded database in .* is in use by process \d+/);
      expect(second.output.length).toBeLessThan(4000);

      // The first server still answers, and its database was not touched.
      expect((await send("GET", "/api/v1/me")).status).toBe(200);
    } finally {
      kill(first.server, "SIGINT");
    }
    await first.exited;

    const again = await startServer(PORT, database);
    try {
      expect((await send("GET", "/api/v1/me")).status).toBe(200);
      expect((await send("GET", "/api/v1/clients?limit=1")).body.meta.total).toBe(clients);
    } finally {
      kill(again.server, "SIGINT");
    }
    await again.exited;
    // With the server stopped, the command works.
    const minted = await script("token-create.ts", token);
    expect(minted).toMatchObject({ code: 0, stdout: expect.stringContaining("cjt_") });
  });

  it("says in one sentence that a damaged folder is damaged, and how to start afresh", async () => {
    const damaged = await BuiltServerDatabase.create();
    try {
      await writeFile(path.join(damaged.dataDir, "global", "pg_control"), randomBytes(100));
      const seeded = await script("seed.ts", [], damaged.dataDir);
      expect(seeded.code).toBe(1);
      const said = seeded.stderr.split("\n").filter((line) => line && !line.startsWith("Database:"));
      expect(said).toEqual([
        expect.stringMatching(
          `^The embedded database in ${damaged.dataDir} cannot be opened \\(.*\\): its files are damaged\\. .*rm -rf`,
        ),
      ]);
    } finally {
      await damaged.remove();
    }
  });

  it("takes over a lock left by a process that died", { timeout: 300_000 }, async () => {
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    const since = new Date().toISOString();
    await writeFile(lockPath(database.dataDir), JSON.stringify({ pid: gone, command: "npm run start", since }));
    const minted = await script("token-create.ts", ["--email", "owner@acme.test", "--name", "After a crash"]);
    expect(minted).toMatchObject({ code: 0, stdout: expect.stringContaining("cjt_") });

    await writeFile(lockPath(database.dataDir), JSON.stringify({ pid: gone, command: "npm run start", since }));
    const server = await startServer(PORT, database);
    try {
      expect((await client(PORT, database)("GET", "/api/v1/me")).status).toBe(200);
    } finally {
      kill(server.server, "SIGINT");
    }
    await server.exited;
  });
});
