// The operator's commands as a person runs them: settings from the env files (as `next start` reads them), which
// database they use said first, plain errors and exit codes. Run in a scratch folder with its own .env.local.
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "../support/operator";

const repo = path.resolve(import.meta.dirname, "../..");
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "cjt-commands-"));
  await symlink(path.join(repo, "prisma"), path.join(folder, "prisma"));
  await writeFile(path.join(folder, ".env.local"), "PGLITE_DATA_DIR=from-env-file/db\nPORT=3456\n");
});
afterAll(() => rm(folder, { recursive: true, force: true }));

const run = (script: string, ...args: string[]) => runScript(folder, {}, script, ...args);
const runWith = (extraEnv: Record<string, string>, script: string, ...args: string[]) =>
  runScript(folder, extraEnv, script, ...args);

describe("the operator's commands", () => {
  it("use the database the env files name, say which, and print a sign-in link on the configured port", async () => {
    const embedded = `Database: the embedded database in ${path.join(folder, "from-env-file", "db")}`;
    const migrated = await run("migrate.ts");
    expect(migrated).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Applied: \d{14}_init/) });
    expect(migrated.stderr).toContain(embedded);

    const args = ["--name", "Harper & Co", "--owner-email", "jane@harper.test", "--owner-name", "Jane Harper"];
    const created = await run("tenant-create.ts", ...args);
    expect(created.code).toBe(0);
    expect(created.stderr).toContain(embedded);
    expect(created.stdout).toContain('Created the firm "Harper & Co"');
    expect(created.stdout).toMatch(/signs in at http:\/\/localhost:3456\/signin with\n.*\n {2}[A-Za-z0-9_-]{20}\n/);

    const again = await run("tenant-create.ts", ...args);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^--name: A firm named "Harper & Co" already exists \(id 1\)\.$/m);
    expect(again.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  });

  // On the firm the test above made. Three runs of the command: on a busy machine each takes a while to start.
  it("user:create names every option at fault, a line each (README, Onboarding a firm), and writes nothing", {
    timeout: 300_000,
  }, async () => {
    const firm = ["--tenant", "Harper & Co", "--name", "Sam Lee"];
    const bad = await run(
      "user-create.ts",
      ...firm,
      "--email",
      "JANE@harper.test",
      "--role",
      "Owner",
      "--timezone",
      "Mars/Base",
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr.split("\n").filter((line) => line.startsWith("--"))).toEqual([
      "--timezone: Must be an IANA time zone name, such as Europe/London.",
      "--role: A firm has one Owner, made with the firm. Choose one of: Admin, Standard, Viewer.",
      "--email: Harper & Co already has a user with the email JANE@harper.test.",
    ]);
    const unknown = await run("user-create.ts", ...firm, "--email", "sam@harper.test", "--nickname", "S", "--role");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^--nickname: Unknown option\.\n--role: Needs a value\.$/m);
    const added = await run("user-create.ts", ...firm, "--email", "sam@harper.test", "--role", "admin");
    expect(added).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("Added Sam Lee <sam@harper.test> to Harper & Co as Admin."),
    });
  });

  it("fail the build on Vercel without DATABASE_URL, so that such a deployment never takes traffic", async () => {
    const refused = await runWith({ VERCEL: "1" }, "preflight.ts");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Refusing to run: DATABASE_URL is not set\./m);
    expect(
      await runWith({ VERCEL: "1", DATABASE_URL: "postgresql://app@db.example/app" }, "preflight.ts"),
    ).toMatchObject({ code: 0 });
  });
});
