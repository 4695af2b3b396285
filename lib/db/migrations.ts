// Applies prisma/migrations/*/migration.sql in order, each in its own transaction, recorded in Prisma's own
// `_prisma_migrations` table (same columns and checksums), so `prisma migrate deploy` stays usable where it works.
// A session-level advisory lock makes two processes starting at once take turns; the second finds nothing to do.
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** The two things the runner needs from a connection: PGlite and a pg.Client both provide them. */
export interface SqlSession {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
}

const LOCK_ID = 727_274_001; // arbitrary, fixed: identifies "schema migration" among advisory locks

export const migrationsDir = () => path.join(/*turbopackIgnore: true*/ process.cwd(), "prisma", "migrations");

export async function listMigrations(dir = migrationsDir()) {
  const entries = await readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/** Applies the pending migrations and returns their names (empty when the database is up to date). */
export async function applyMigrations(session: SqlSession, dir = migrationsDir()): Promise<string[]> {
  const migrations = await listMigrations(dir);
  await session.query(`SELECT pg_advisory_lock(${LOCK_ID})`);
  try {
    await session.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const { rows } = await session.query<{ migration_name: string }>(
      `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Set(rows.map((r) => r.migration_name));
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.name)) continue;
      await session.exec("BEGIN");
      try {
        await session.exec(migration.sql);
        await session.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), now(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await session.exec("COMMIT");
      } catch (error) {
        await session.exec("ROLLBACK");
        throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      done.push(migration.name);
    }
    return done;
  } finally {
    await session.query(`SELECT pg_advisory_unlock(${LOCK_ID})`);
  }
}
