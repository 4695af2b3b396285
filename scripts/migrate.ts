// `npm run db:migrate`: applies pending migrations to DIRECT_DATABASE_URL (else DATABASE_URL), or to the embedded
// database without either. The direct URL bypasses a transaction-mode pooler, which cannot hold the advisory lock.
import "./env";
import { withPgSession } from "@/lib/db/client";
import { directDatabaseUrl } from "@/lib/db/describe";
import { applyMigrations } from "@/lib/db/migrations";
import { embeddedDatabaseReady, openPGlite } from "@/lib/db/pglite";
import { announceDatabase } from "./env";

export async function migrate(): Promise<string[]> {
  const url = directDatabaseUrl();
  if (url) {
    return withPgSession(url, (session) =>
      applyMigrations({
        query: (sql, params) => session.query(sql, params) as never,
        exec: (sql) => session.query(sql),
      }),
    );
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
  announceDatabase(directDatabaseUrl());
  migrate().then(
    (applied) => console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Migrations are up to date."),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
