// `npm run db:migration:new -- --name <what>`: writes the SQL that takes the migrations to prisma/schema.prisma
// into prisma/migrations/<UTC timestamp>_<what>/migration.sql, for review and hand edits (triggers, backfills).
// `migrate dev` would also evaluate data loss, which needs a shadow database this offline setup cannot hand it.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { EMPTY_MIGRATION, migrationDiff } from "./migration-diff";
import { readCommandLine } from "./usage";

const { values } = readCommandLine(
  `Usage: npm run db:migration:new -- --name <lower_case_words>

Writes the SQL that takes prisma/migrations to prisma/schema.prisma into a new migration folder, for review.`,
  { name: { type: "string" } },
);
if (!values.name || !/^[a-z0-9_]+$/.test(values.name))
  throw new Error("Give the migration a name: --name lower_case_words");

const sql = migrationDiff();
if (sql.includes(EMPTY_MIGRATION)) {
  console.log("prisma/schema.prisma matches the migrations: nothing to write.");
} else {
  // Migrations apply in name order, so a new one must sort after every existing one, even one stamped ahead of
  // this machine's clock.
  const latest = readdirSync(path.join("prisma", "migrations"))
    .filter((name) => /^\d{14}_/.test(name))
    .sort()
    .at(-1);
  const now = BigInt(new Date().toISOString().replace(/\D/g, "").slice(0, 14));
  const after = latest ? BigInt(latest.slice(0, 14)) + 1n : 0n;
  const stamp = String(now > after ? now : after);
  const dir = path.join("prisma", "migrations", `${stamp}_${values.name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "migration.sql"), sql);
  console.log(`Wrote ${dir}/migration.sql`);
}
