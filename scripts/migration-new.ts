// `npm run db:migration:new -- --name <what>`: writes the SQL that takes the migrations to prisma/schema.prisma
// into prisma/migrations/<UTC timestamp>_<what>/migration.sql, for review and hand edits (triggers, backfills).
// Prisma's `migrate diff` does the work offline against in-memory PGlite (prisma.config.ts); `migrate dev` would
// also evaluate data loss, which needs a shadow database this engine-free setup cannot hand it.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { name: { type: "string" } } });
if (!values.name || !/^[a-z0-9_]+$/.test(values.name)) throw new Error("Give the migration a name: --name lower_case_words");

const sql = execFileSync(
  "npx",
  ["prisma", "migrate", "diff", "--from-migrations", "prisma/migrations", "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
  { encoding: "utf8", env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false", PRISMA_QUERY_ENGINE_LIBRARY: "/bin/false" }, stdio: ["ignore", "pipe", "inherit"] },
);
if (sql.includes("This is an empty migration.")) {
  console.log("prisma/schema.prisma matches the migrations: nothing to write.");
} else {
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = path.join("prisma", "migrations", `${stamp}_${values.name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "migration.sql"), sql);
  console.log(`Wrote ${dir}/migration.sql`);
}
