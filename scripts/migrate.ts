// `npm run db:migrate`: applies pending migrations to DATABASE_URL, or to the embedded database without it.
import { withPgSession } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/migrations";
import { openPGlite, pgliteDataDir } from "@/lib/db/pglite";

export async function migrate(): Promise<string[]> {
  const url = process.env.DATABASE_URL;
  if (url) {
    return withPgSession(url, (session) =>
      applyMigrations({
        query: (sql, params) => session.query(sql, params) as never,
        exec: (sql) => session.query(sql),
      }),
    );
  }
  const pglite = openPGlite();
  try {
    return await applyMigrations(pglite);
  } finally {
    await pglite.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = process.env.DATABASE_URL ? "DATABASE_URL" : `the embedded database in ${pgliteDataDir()}`;
  migrate().then(
    (applied) =>
      console.log(applied.length ? `Applied to ${target}: ${applied.join(", ")}` : `${target} is up to date.`),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
