// The audit log is append-only in fact (decisions.md, Audit log; migration 20261128000200_audit_owner_role): the table
// belongs to cjt_audit_owner, not to the app's role; no setting a connection can make lets a DELETE through; and on
// PostgreSQL, an app role that is not a superuser, having applied every migration itself, holds no UPDATE, DELETE or
// TRUNCATE on it, while writing entries and pruning through prune_audit_events still work. On the embedded database
// the app's only user is a superuser, which privileges do not bind: there the owner and the trigger are what holds.
import { randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { prisma } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/migrations";
import { migrate } from "@/scripts/migrate";
import { adminQuery, databaseUrlFor } from "../support/postgres";

describe("the audit log's table", () => {
  it("belongs to its own role, and its retention function runs as that role", async () => {
    const db = await prisma();
    const [owner] = await db.$queryRaw<{ owner: string; app: string }[]>`
      SELECT tableowner AS owner, current_user AS app FROM pg_tables WHERE tablename = 'audit_events'`;
    expect(owner.owner).toBe("cjt_audit_owner");
    expect(owner.app).not.toBe("cjt_audit_owner");
    const [prune] = await db.$queryRaw<{ definer: boolean; owner: string }[]>`
      SELECT p.prosecdef AS definer, pg_get_userbyid(p.proowner) AS owner FROM pg_proc p WHERE proname = 'prune_audit_events'`;
    expect(prune).toEqual({ definer: true, owner: "cjt_audit_owner" });
  });

  it("refuses a DELETE whatever a connection sets (audit.prune_before let one through)", async () => {
    const db = await prisma();
    const [tenant] = await db.$queryRaw<{ id: number }[]>`SELECT min(id) AS id FROM tenants`;
    await db.$executeRaw`INSERT INTO audit_events (tenant_id, action, via, target_type, target_name, created_at)
      VALUES (${tenant.id}, 'client.updated', 'cli', 'client', 'Old', now() - interval '30 days')`;
    const [{ count }] = await db.$queryRaw<{ count: bigint }[]>`SELECT count(*) AS count FROM audit_events`;
    await expect(
      db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT set_config('audit.prune_before', (now() + interval '1 day')::text, true)`;
        await tx.$executeRaw`DELETE FROM audit_events`;
      }),
    ).rejects.toThrow(/append-only/);
    const [after] = await db.$queryRaw<{ count: bigint }[]>`SELECT count(*) AS count FROM audit_events`;
    expect(after.count).toBe(count);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("an app role that is not a superuser, on PostgreSQL", () => {
  it("migrates a database it owns, then may insert, read and prune entries, but not update, delete or truncate", async () => {
    const admin = process.env.DIRECT_DATABASE_URL || (process.env.DATABASE_URL as string);
    const suffix = randomBytes(4).toString("hex");
    const role = `cjt_app_${suffix}`;
    const database = `cjt_app_${suffix}`;
    await adminQuery(admin, `CREATE ROLE ${role} LOGIN CREATEROLE`);
    await adminQuery(admin, `CREATE DATABASE ${database} OWNER ${role}`);
    const asApp = new URL(databaseUrlFor(admin, database));
    asApp.username = role;
    try {
      await adminQuery(asApp.href, (session) =>
        applyMigrations({
          query: (sql, params) => session.query(sql, params) as never,
          exec: (sql) => session.query(sql),
        }),
      );
      // Making roles was needed to migrate; at run time the app's role must not keep it (README, Deployment).
      await adminQuery(admin, `ALTER ROLE ${role} NOCREATEROLE`);
      await adminQuery(asApp.href, async (session) => {
        const { rows } = await session.query<{ id: number }>(
          `INSERT INTO tenants (name) VALUES ('Roles Ltd') RETURNING id`,
        );
        const tenant = rows[0].id;
        // Back-dated entries only a superuser may write (the database sets created_at for anyone else).
        const insert = (days: number) =>
          adminQuery(databaseUrlFor(admin, database), (superuser) =>
            superuser.query(
              `INSERT INTO audit_events (tenant_id, action, via, target_type, target_name, created_at)
               VALUES ($1, 'client.updated', 'cli', 'client', 'x', now() - make_interval(days => $2::int))`,
              [tenant, days],
            ),
          );
        await insert(500);
        await insert(1);
        for (const statement of [
          "UPDATE audit_events SET target_name = 'forged'",
          "DELETE FROM audit_events",
          "TRUNCATE audit_events",
          "ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_or_delete",
          "DROP TRIGGER audit_events_no_update_or_delete ON audit_events",
          "SET ROLE cjt_audit_owner",
        ]) {
          await expect(session.query(statement), statement).rejects.toMatchObject({ code: "42501" });
        }
        const pruned = await session.query<{ pruned: number }>("SELECT prune_audit_events(400) AS pruned");
        expect(pruned.rows[0].pruned).toBe(1);
        const left = await session.query<{ count: string }>("SELECT count(*) FROM audit_events");
        expect(left.rows[0].count).toBe("1");
      });
    } finally {
      await adminQuery(admin, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await adminQuery(admin, `DROP ROLE IF EXISTS ${role}`);
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)("the app's own role, apart from the role that migrates", () => {
  it("owns nothing: DROP, TRUNCATE, DELETE, a short prune and a back-dated insert are each refused", async () => {
    const admin = process.env.DIRECT_DATABASE_URL || (process.env.DATABASE_URL as string);
    const suffix = randomBytes(4).toString("hex");
    const owner = `cjt_owner_${suffix}`;
    const app = `cjt_app_${suffix}`;
    const database = `cjt_split_${suffix}`;
    await adminQuery(admin, `CREATE ROLE ${owner} LOGIN CREATEROLE`);
    await adminQuery(admin, `CREATE ROLE ${app} LOGIN`);
    await adminQuery(admin, `CREATE DATABASE ${database} OWNER ${owner}`);
    const as = (role: string) => {
      const url = new URL(databaseUrlFor(admin, database));
      url.username = role;
      return url.href;
    };
    try {
      // As an operator deploys: db:migrate with the owner's login, naming the app's role.
      vi.stubEnv("MIGRATION_DATABASE_URL", as(owner));
      vi.stubEnv("DATABASE_APP_ROLE", app);
      await migrate();
      await adminQuery(as(app), async (session) => {
        const owned = await session.query<{ n: string }>(
          `SELECT (SELECT count(*) FROM pg_class WHERE relowner = r.oid)
                + (SELECT count(*) FROM pg_namespace WHERE nspowner = r.oid)
                + (SELECT count(*) FROM pg_proc WHERE proowner = r.oid) AS n
           FROM pg_roles r WHERE rolname = current_user`,
        );
        expect(owned.rows[0].n).toBe("0");
        // What the app does works.
        const { rows } = await session.query<{ id: number }>(
          "INSERT INTO tenants (name) VALUES ('Split Ltd') RETURNING id",
        );
        const tenant = rows[0].id;
        const entry = await session.query<{ age: number }>(
          `INSERT INTO audit_events (tenant_id, action, via, target_type, target_name)
           VALUES ($1, 'client.updated', 'cli', 'client', 'x') RETURNING extract(epoch FROM now() - created_at) AS age`,
          [tenant],
        );
        // The insert's transaction time, as the column keeps it (to the millisecond).
        expect(Math.abs(Number(entry.rows[0].age))).toBeLessThan(0.001);
        expect((await session.query("SELECT prune_audit_events(400) AS pruned")).rows[0].pruned).toBe(0);
        for (const statement of [
          "DROP TABLE audit_events CASCADE",
          "DROP TABLE clients CASCADE",
          "CREATE TABLE audit_events_copy (id int)",
          "TRUNCATE audit_events",
          "DELETE FROM audit_events",
          "SELECT prune_audit_events(1)",
          "CREATE OR REPLACE FUNCTION audit_retention_floor_days() RETURNS INTEGER LANGUAGE sql AS 'SELECT 1'",
          `INSERT INTO audit_events (tenant_id, action, via, target_type, target_name, actor_name, created_at)
           VALUES (${tenant}, 'client.updated', 'cli', 'client', 'x', 'Someone Else', now() - interval '100 days')`,
          "INSERT INTO _prisma_migrations (id, checksum, migration_name) VALUES ('x', 'x', 'x')",
        ]) {
          await expect(session.query(statement), statement).rejects.toMatchObject({ code: "42501" });
        }
      });
    } finally {
      vi.unstubAllEnvs();
      await adminQuery(admin, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await adminQuery(admin, `DROP OWNED BY ${app}`).catch(() => {});
      await adminQuery(admin, `DROP ROLE IF EXISTS ${app}`);
      await adminQuery(admin, `DROP ROLE IF EXISTS ${owner}`);
    }
  });
});
