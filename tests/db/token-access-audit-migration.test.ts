// Migration 20261128000100_token_access_audit: the presets keep meaning what they meant (Full access and Read-only
// now include `audit: read`), while a custom token, whose access someone chose without the audit log, gets `none`.
import { cp, mkdtemp } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyMigrations, listMigrations, migrationsDir, type SqlSession } from "@/lib/db/migrations";
import { openPGlite } from "@/lib/db/pglite";
import { FULL_ACCESS, READ_ONLY } from "@/lib/tokens/access";
import { adminQuery, databaseUrlFor } from "../support/postgres";

const MIGRATION = "20261128000100_token_access_audit";
const pgUrl = process.env.CJT_BASE_DATABASE_URL;

async function migrateTokens(session: SqlSession) {
  const dir = await mkdtemp("/tmp/cjt-migrations-before-");
  for (const { name } of await listMigrations())
    if (name < MIGRATION) await cp(path.join(migrationsDir(), name), path.join(dir, name), { recursive: true });
  await applyMigrations(session, dir);
  /** An access as stored before the audit resource existed. */
  const before = (access: object) => Object.fromEntries(Object.entries(access).filter(([r]) => r !== "audit"));
  const oldFull = before(FULL_ACCESS);
  const oldRead = before(READ_ONLY);
  const custom = { ...oldRead, webhooks: "none" };
  await session.exec(`
    INSERT INTO tenants (id, name) VALUES (1, 'Firm');
    INSERT INTO roles (tenant_id, id, name, permissions) VALUES (1, 1, 'Admin', '{}');
    INSERT INTO users (tenant_id, id, firstname, lastname, email, role_id) VALUES (1, 1, 'A', 'B', 'a@firm.test', 1);
    INSERT INTO api_tokens (tenant_id, id, user_id, name, token_hash, last_four, access) VALUES
      (1, 1, 1, 'full', repeat('a', 64), 'aaaa', '${JSON.stringify(oldFull)}'),
      (1, 2, 1, 'read', repeat('b', 64), 'bbbb', '${JSON.stringify(oldRead)}'),
      (1, 3, 1, 'custom', repeat('c', 64), 'cccc', '${JSON.stringify(custom)}');`);
  expect(await applyMigrations(session)).toContain(MIGRATION);
  const { rows } = await session.query<{ name: string; access: unknown }>(
    "SELECT name, access FROM api_tokens ORDER BY id",
  );
  expect(rows).toEqual([
    { name: "full", access: FULL_ACCESS },
    { name: "read", access: READ_ONLY },
    { name: "custom", access: { ...custom, audit: "none" } },
  ]);
  // A stored access without the audit resource is refused from now on.
  await expect(session.exec(`UPDATE api_tokens SET access = '${JSON.stringify(oldFull)}'`)).rejects.toThrow(
    /api_tokens_access_check/,
  );
}

describe("the audit token resource migration", () => {
  it("gives Full access and Read-only tokens audit: read, and custom tokens none (embedded database)", async () => {
    const db = openPGlite("memory://");
    try {
      await migrateTokens(db);
    } finally {
      await db.close();
    }
  });

  it.runIf(pgUrl)("does the same on PostgreSQL", async () => {
    const name = `cjt_audit_token_migration_${process.pid}`;
    await adminQuery(pgUrl!, `DROP DATABASE IF EXISTS "${name}"`);
    await adminQuery(pgUrl!, `CREATE DATABASE "${name}"`);
    try {
      await adminQuery(databaseUrlFor(pgUrl!, name), (session) =>
        migrateTokens({
          query: (sql, params) => session.query(sql, params) as never,
          exec: (sql) => session.query(sql),
        }),
      );
    } finally {
      await adminQuery(pgUrl!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
});
