import { describe, expect, it } from "vitest";
import { applyMigrations, listMigrations } from "@/lib/db/migrations";
import { openPGlite } from "@/lib/db/pglite";
import { EMPTY_MIGRATION, migrationDiff } from "../../scripts/migration-diff";
import { adminQuery, databaseUrlFor } from "../support/postgres";

const pgUrl = process.env.CJT_BASE_DATABASE_URL;

// Independent of the database the suite runs on (it diffs on an in-memory PGlite), so it runs once: in the PGlite run.
describe.skipIf(process.env.DATABASE_URL)("the migrations and prisma/schema.prisma", () => {
  // The client is generated from the schema and databases are built from the migrations: a schema change without
  // its migration would type-check and then fail at run time.
  it("describe the same database", () => {
    const diff = migrationDiff();
    expect(diff).toContain(EMPTY_MIGRATION);
    // Prisma's CLI migrates a fresh in-memory database through every migration: about 20 s alone, 90 s on a busy CPU.
  }, 180_000);
});

describe("migrations on an empty embedded database", () => {
  it("apply in order, are recorded like Prisma's, and a second run changes nothing", async () => {
    const db = openPGlite("memory://");
    try {
      const names = (await listMigrations()).map((m) => m.name);
      expect(await applyMigrations(db)).toEqual(names);
      const tables = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'",
      );
      const before = await db.query(
        "SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name",
      );
      expect(before.rows.map((r: any) => r.migration_name)).toEqual(names);

      expect(await applyMigrations(db)).toEqual([]);
      const after = await db.query(
        "SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name",
      );
      expect(after.rows).toEqual(before.rows);
      expect(
        (
          await db.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'",
          )
        ).rows,
      ).toEqual(tables.rows);
      expect((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM countries")).rows[0].n).toBeGreaterThan(
        240,
      );
    } finally {
      await db.close();
    }
  });
});

describe.runIf(pgUrl)("migrations on an empty PostgreSQL database", () => {
  it("apply once when two processes run them at the same time, and again changes nothing", async () => {
    const name = `cjt_migrations_${process.pid}`;
    await adminQuery(pgUrl!, `DROP DATABASE IF EXISTS "${name}"`);
    await adminQuery(pgUrl!, `CREATE DATABASE "${name}"`);
    const url = databaseUrlFor(pgUrl!, name);
    const run = () =>
      adminQuery(url, (session) =>
        applyMigrations({
          query: (sql, params) => session.query(sql, params) as never,
          exec: (sql) => session.query(sql),
        }),
      ) as Promise<string[]>;
    try {
      const names = (await listMigrations()).map((m) => m.name);
      const [first, second] = await Promise.all([run(), run()]);
      expect([...first, ...second].sort()).toEqual(names);
      expect(await run()).toEqual([]);
      const recorded = (await adminQuery(url, "SELECT count(*)::int AS n FROM _prisma_migrations")) as {
        rows: { n: number }[];
      };
      expect(recorded.rows[0].n).toBe(names.length);
    } finally {
      await adminQuery(pgUrl!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
});

describe("a failing migration", () => {
  it("is rolled back whole and not recorded", async () => {
    const { mkdtemp, mkdir, writeFile } = await import("node:fs/promises");
    const dir = await mkdtemp("/tmp/cjt-migrations-");
    await mkdir(`${dir}/001_ok`);
    await writeFile(`${dir}/001_ok/migration.sql`, "CREATE TABLE a (id int);");
    await mkdir(`${dir}/002_bad`);
    await writeFile(`${dir}/002_bad/migration.sql`, "CREATE TABLE b (id int); SELECT no_such_function();");
    const db = openPGlite("memory://");
    try {
      await expect(applyMigrations(db, dir)).rejects.toThrow(/002_bad failed/);
      const tables = await db.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
      );
      expect(tables.rows.map((r) => r.table_name)).toEqual(["_prisma_migrations", "a"]);
      const recorded = await db.query<{ migration_name: string }>("SELECT migration_name FROM _prisma_migrations");
      expect(recorded.rows.map((r) => r.migration_name)).toEqual(["001_ok"]);
    } finally {
      await db.close();
    }
  });
});
