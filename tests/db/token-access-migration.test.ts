// Migration 20261127000030_token_access_h30: tokens made under the old scopes keep exactly what they could do
// (read_write → Full access, read → Read-only), on a database that held them before the migration.
import { cp, mkdtemp } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyMigrations, listMigrations, migrationsDir, type SqlSession } from "@/lib/db/migrations";
import { openPGlite } from "@/lib/db/pglite";
import { FULL_ACCESS, READ_ONLY } from "@/lib/tokens/access";
import { adminQuery, databaseUrlFor } from "../support/postgres";

const MIGRATION = "20261127000030_token_access_h30";
const pgUrl = process.env.CJT_BASE_DATABASE_URL;

/** A migrations folder holding every migration before this one. */
async function migrationsBefore() {
  const dir = await mkdtemp("/tmp/cjt-migrations-before-");
  for (const { name } of await listMigrations())
    if (name < MIGRATION) await cp(path.join(migrationsDir(), name), path.join(dir, name), { recursive: true });
  return dir;
}

async function migrateOldTokens(session: SqlSession) {
  await applyMigrations(session, await migrationsBefore());
  await session.exec(`
    INSERT INTO tenants (id, name) VALUES (1, 'Old firm');
    INSERT INTO roles (tenant_id, id, name, permissions) VALUES (1, 1, 'Admin', '{}');
    INSERT INTO users (tenant_id, id, firstname, lastname, email, role_id) VALUES (1, 1, 'Old', 'User', 'old@firm.test', 1);
    INSERT INTO api_tokens (tenant_id, id, user_id, name, token_hash, last_four, scope) VALUES
      (1, 1, 1, 'writer', repeat('a', 64), 'aaaa', 'read_write'),
      (1, 2, 1, 'reader', repeat('b', 64), 'bbbb', 'read');`);
  expect(await applyMigrations(session)).toContain(MIGRATION);
  const { rows } = await session.query<{ name: string; access: unknown }>(
    "SELECT name, access FROM api_tokens ORDER BY id",
  );
  expect(rows).toEqual([
    { name: "writer", access: FULL_ACCESS },
    { name: "reader", access: READ_ONLY },
  ]);
  const scope = await session.query(
    "SELECT 1 FROM information_schema.columns WHERE table_name = 'api_tokens' AND column_name = 'scope'",
  );
  expect(scope.rows).toEqual([]);
}

describe("the token access migration", () => {
  it("gives read_write tokens Full access and read tokens Read-only (embedded database)", async () => {
    const db = openPGlite("memory://");
    try {
      await migrateOldTokens(db);
    } finally {
      await db.close();
    }
  });

  it.runIf(pgUrl)("does the same on PostgreSQL", async () => {
    const name = `cjt_h30_token_migration_${process.pid}`;
    await adminQuery(pgUrl!, `DROP DATABASE IF EXISTS "${name}"`);
    await adminQuery(pgUrl!, `CREATE DATABASE "${name}"`);
    try {
      await adminQuery(databaseUrlFor(pgUrl!, name), (session) =>
        migrateOldTokens({
          query: (sql, params) => session.query(sql, params) as never,
          exec: (sql) => session.query(sql),
        }),
      );
    } finally {
      await adminQuery(pgUrl!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
});
