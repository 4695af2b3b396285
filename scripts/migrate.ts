// `npm run db:migrate`: applies pending migrations to MIGRATION_DATABASE_URL (the owner's login, when the app runs as
// another role), else DIRECT_DATABASE_URL, else DATABASE_URL; or to the embedded database without any. The direct URL
// bypasses a transaction-mode pooler, which cannot hold the advisory lock. With DATABASE_APP_ROLE, that role (the
// app's login) is then given what the app uses and nothing more (cjt_grant_app_role, docs/deploy.md).
import "./env";
import { withPgSession } from "@/lib/db/client";
import { directDatabaseUrl } from "@/lib/db/describe";
import { applyMigrations } from "@/lib/db/migrations";
import { embeddedDatabaseReady, openPGlite } from "@/lib/db/pglite";
import { announceDatabase } from "./env";

export async function migrate(): Promise<string[]> {
  const url = process.env.MIGRATION_DATABASE_URL || directDatabaseUrl();
  if (url) {
    return withPgSession(url, async (session) => {
      const applied = await applyMigrations({
        query: (sql, params) => session.query(sql, params) as never,
        exec: (sql) => session.query(sql),
      });
      const appRole = process.env.DATABASE_APP_ROLE;
      if (appRole) await session.query("SELECT cjt_grant_app_role($1)", [appRole]);
      return applied;
    });
  }
  const pglite = openPGlite();
  await embeddedDatabaseReady(pglite);
  try {
    return await applyMigrations(pglite);
  } finally {
    await pglite.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  announceDatabase(process.env.MIGRATION_DATABASE_URL || directDatabaseUrl());
  migrate().then(
    (applied) => console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Migrations are up to date."),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
