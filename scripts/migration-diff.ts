// The SQL that takes prisma/migrations to prisma/schema.prisma, from Prisma 6.19's `migrate diff` (package
// `prisma6`), offline against in-memory PGlite (prisma/diff.config.ts): Prisma 7's CLI would need a native schema
// engine, which cannot be downloaded here. Used by db:migration:new and by the test that the two agree.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const EMPTY_MIGRATION = "This is an empty migration.";

export function migrationDiff(): string {
  // Prisma 7 schemas have no datasource url; the 6.19 CLI needs one (prisma/diff.config.ts gives it a value).
  const folder = mkdtempSync(path.join(os.tmpdir(), "schema-"));
  try {
    const schema = path.join(folder, "schema.prisma");
    const source = readFileSync("prisma/schema.prisma", "utf8");
    writeFileSync(schema, source.replace(/^(datasource db \{\n)/m, '$1  url = env("DATABASE_URL")\n'));
    const cli = path.join("node_modules", "prisma6", "build", "index.js");
    const args = [
      "migrate",
      "diff",
      "--config",
      "prisma/diff.config.ts",
      "--from-migrations",
      "prisma/migrations",
      "--to-schema-datamodel",
      schema,
      "--script",
    ];
    return execFileSync(process.execPath, [cli, ...args], {
      encoding: "utf8",
      env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false", PRISMA_QUERY_ENGINE_LIBRARY: "/bin/false" },
      stdio: ["ignore", "pipe", "pipe"],
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
