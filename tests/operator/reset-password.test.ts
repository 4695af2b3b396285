// The operator's reset link (npm run user:reset-password) as a person at a terminal runs it, for a firm's Owner, on
// an embedded database in a scratch folder; every command's --help; and the checks `npm start` runs before Next
// says "Ready".
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { lookupResetLink } from "@/lib/team/queries";
import { withDatabase } from "../support/built-server";
import { runScript } from "../support/operator";

const repo = path.resolve(import.meta.dirname, "../..");
let folder: string;
const run = (script: string, ...args: string[]) => runScript(folder, {}, script, ...args);

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "cjt-reset-"));
  await symlink(path.join(repo, "prisma"), path.join(folder, "prisma"));
  await writeFile(path.join(folder, ".env.local"), "PGLITE_DATA_DIR=db\nPORT=3457\n");
});
afterAll(() => rm(folder, { recursive: true, force: true }));

/** Work on the scratch folder's embedded database while no command has it open. */
const withScratchDatabase = <T>(work: (client: PrismaClient) => Promise<T>) =>
  withDatabase(path.join(folder, "db"), work);

describe("npm run user:reset-password", () => {
  it("prints a one-time link for the Owner, stored as its hash and recorded as the command line's", {
    timeout: 300_000,
  }, async () => {
    expect(await run("migrate.ts")).toMatchObject({ code: 0 });
    const firm = ["--name", "Harper & Co", "--owner-email", "jane@harper.test", "--owner-name", "Jane Harper"];
    expect(await run("tenant-create.ts", ...firm)).toMatchObject({ code: 0 });

    const made = await run("user-reset-password.ts", "--email", "JANE@harper.test");
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^A link for Jane Harper <jane@harper\.test> \(Harper & Co\) to set a new password/);
    const link = /http:\/\/localhost:3457\/reset\/([A-Za-z0-9_-]{43})\n/.exec(made.stdout);
    expect(link).not.toBeNull();
    const token = link![1];

    await withScratchDatabase(async (client) => {
      const owner = await client.user.findFirstOrThrow({ where: { email: "jane@harper.test" } });
      expect(owner.isOwner).toBe(true);
      const row = await client.userInvite.findFirstOrThrow({ where: { userId: owner.id, usedAt: null } });
      expect(row).toMatchObject({
        purpose: "password_reset",
        tokenHash: createHash("sha256").update(token).digest("hex"),
      });
      expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
      expect(await lookupResetLink(token, client)).toMatchObject({
        status: "valid",
        person: { email: "jane@harper.test", firm: "Harper & Co" },
      });
      const entry = await client.auditEvent.findFirstOrThrow({ where: { action: "member.reset_link_created" } });
      expect(entry).toMatchObject({ via: "cli", actorId: null, targetId: owner.id, targetName: "Jane Harper" });
    });

    // Refused with the option at fault and exit code 1, nothing written.
    const unknown = await run("user-reset-password.ts", "--email", "nobody@harper.test");
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.stderr).toMatch(/^--email: No firm has a person with the email nobody@harper\.test\.$/m);
    const missing = await run("user-reset-password.ts");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^--email: /m);
  });
});

describe("every command's --help", () => {
  const commands = [
    "fuzz.ts",
    "mcp-conformance.ts",
    "migration-new.ts",
    "openapi.ts",
    "sdk-types.ts",
    "seed.ts",
    "tenant-create.ts",
    "token-create.ts",
    "upstash-emulator.ts",
    "user-archive.ts",
    "user-create.ts",
    "user-reset-password.ts",
  ];

  it("names every command that scripts/ holds for a person to run (migrate.ts has its own)", async () => {
    const scripts = (await readdir(path.join(repo, "scripts"))).filter((name) => name.endsWith(".ts"));
    // Not commands: modules the commands import, and the build's and start's own steps.
    const modules = ["command.ts", "env.ts", "migration-diff.ts", "usage.ts", "preflight.ts", "start-checks.ts"];
    expect(scripts.filter((name) => !modules.includes(name) && name !== "migrate.ts").sort()).toEqual(commands);
  });

  it("prints the usage and exits 0, doing nothing; an unknown option is named above it, exit 1", {
    timeout: 300_000,
  }, async () => {
    const answers = await Promise.all(commands.map((script) => run(script, "--help")));
    expect(answers.map((help, i) => ({ script: commands[i], code: help.code, stdout: help.stdout }))).toEqual(
      commands.map((script) => ({
        script,
        code: 0,
        stdout: expect.stringMatching(/^Usage: npm run [a-z:-]+\b[\s\S]*\n\n\S/),
      })),
    );
    expect(existsSync(path.join(folder, "openapi.json"))).toBe(false);
    const wrong = await run("user-archive.ts", "--tennant", "Harper & Co", "--email");
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^--tennant: Unknown option\.\n--email: Needs a value\.\nUnexpected: Harper & Co\n\nUsage: npm run user:archive/m,
    );
  });
});

describe("npm start's checks before Next starts", () => {
  it("refuse a missing session secret or a bad setting with the reason, before anything listens", async () => {
    const check = (env: Record<string, string>) => runScript(folder, env, "start-checks.ts");
    const noSecret = await check({ NEXTAUTH_SECRET: "" });
    expect(noSecret.code).toBe(1);
    expect(noSecret.stderr).toMatch(/^Refusing to run: NEXTAUTH_SECRET is not set\./m);
    const badHeap = await check({ NEXTAUTH_SECRET: "s", SERVER_HEAP_GROWTH_PERCENT: "900" });
    expect(badHeap.stderr).toMatch(/^Refusing to run: SERVER_HEAP_GROWTH_PERCENT must be/m);
    expect(await check({ NEXTAUTH_SECRET: "s" })).toMatchObject({ code: 0 });
  });

  // The machine's own Node where it is older than package.json's engines (Debian's 20 on ours): otherwise skipped.
  const oldNode = ["/usr/bin/node", "/usr/local/bin/node"].find((candidate) => existsSync(candidate));
  const version = oldNode ? execFileSync(oldNode, ["--version"], { encoding: "utf8" }).trim() : "";
  it.skipIf(!/^v(1\d|20|21|22\.(\d|1[0-2])\.)/.test(version))(
    `refuse to build or start on an unsupported Node (${version || "none here"}) with the reason`,
    async () => {
      const refused = await promisify(execFile)(oldNode!, [path.join(repo, "scripts", "require-node.mjs")]).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(refused?.code).toBe(1);
      const { engines } = JSON.parse(await readFile(path.join(repo, "package.json"), "utf8"));
      expect(refused?.stderr).toContain(`This app needs Node.js ${engines.node} (package.json "engines"); this is`);
    },
  );
});
