// `npm run db:migration:new -- --name <what>`: writes the SQL that takes the migrations to prisma/schema.prisma
// into prisma/migrations/<UTC timestamp>_<what>/migration.sql, for review and hand edits (triggers, backfills).
// Prisma 6.19's `migrate diff` (package `prisma6`) does the work offline against in-memory PGlite
// (prisma/diff.config.ts): Prisma 7's CLI would need a native schema engine, which cannot be downloaded here.
// `migrate dev` would also evaluate data loss, which needs a shadow database this setup cannot hand it.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { name: { type: "string" } } });
if (!values.name || !/^[a-z0-9_]+$/.test(values.name)) throw new Error("Give the migration a name: --name lower_case_words");

/** The SQL from the migrations to the schema; "This is an empty migration." when they agree. */
function migrationDiff(): string {
  // Prisma 7 schemas have no datasource url; the 6.19 CLI needs one (prisma/diff.config.ts gives it a value).
  const folder = mkdtempSync(path.join(os.tmpdir(), "schema-"));
  try {
    const schema = path.join(folder, "schema.prisma");
    const source = readFileSync("prisma/schema.prisma", "utf8");
    writeFileSync(schema, source.replace(/^(datasource db \{\n)/m, '$1  url = env("DATABASE_URL")\n'));
    const cli = path.join("node_modules", "prisma6", "build", "index.js");
    const args = ["migrate", "diff", "--config", "prisma/diff.config.ts", "--from-migrations", "prisma/migrations", "--to-schema-datamodel", schema, "--script"];
    return execFileSync(process.execPath, [cli, ...args], {
      encoding: "utf8",
      env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false", PRISMA_QUERY_ENGINE_LIBRARY: "/bin/false" },
      stdio: ["ignore", "pipe", "inherit"],
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const sql = migrationDiff();
if (sql.includes("This is an empty migration.")) {
  console.log("prisma/schema.prisma matches the migrations: nothing to write.");
} else {
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = path.join("prisma", "migrations", `${stamp}_${values.name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "migration.sql"), sql);
  console.log(`Wrote ${dir}/migration.sql`);
}
