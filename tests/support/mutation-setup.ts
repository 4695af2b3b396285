// Global setup of the mutation run's tests (vitest.mutation.config.ts): on PostgreSQL, the database DATABASE_URL
// names is migrated once (safe to run twice and from two processes at once: each mutation worker runs this). The
// tests add tenants of their own to it, so it is never reset between mutants.
import { applyMigrations } from "@/lib/db/migrations";
import { adminQuery } from "./postgres";

export default async function setup() {
  const url = process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL;
  if (!url) return;
  await adminQuery(url, (session) =>
    applyMigrations({
      query: (sql, params) => session.query(sql, params) as never,
      exec: (sql) => session.query(sql),
    }),
  );
}
