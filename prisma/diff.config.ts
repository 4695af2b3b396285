// Configuration of the Prisma 6.19 CLI (package `prisma6`) that scripts/migration-new.ts runs for `migrate diff`.
// Prisma 7's CLI needs a native schema engine for migrate commands, which cannot be downloaded here; 6.19's runs as
// WebAssembly against an in-memory PGlite, offline. Real databases are migrated by scripts/migrate.ts.
import { PGlite } from "@electric-sql/pglite";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { defineConfig } from "prisma6/config";

// The 6.19 CLI wants the schema's `url = env("DATABASE_URL")` (migration-new.ts adds it to a copy) to resolve, or it
// looks for a native engine; with an adapter the value is never used.
process.env.DATABASE_URL ??= "postgresql://unused@localhost:5432/unused";

const newPGlite = () => new PGlite({ extensions: { citext, pg_trgm } });

type Connection = Awaited<ReturnType<PrismaPGlite["connect"]>>;
type RawQuery = { sql: string; args: unknown[] };

// The schema engine sends whole migration scripts through executeRaw; PGlite's extended protocol takes one
// statement at a time, so parameterless scripts go through exec (the simple protocol) instead.
function acceptScripts(connection: Connection): Connection {
  const pglite = (connection as unknown as { client: PGlite }).client;
  const executeRaw = connection.executeRaw.bind(connection);
  connection.executeRaw = async (query: RawQuery) => {
    if (query.args.length > 0) return executeRaw(query as never);
    await pglite.exec(query.sql);
    return 0;
  };
  return connection;
}

class PGliteForCli extends PrismaPGlite {
  override async connect() {
    return acceptScripts(await super.connect());
  }
  // The adapter's own shadow database would lack the extensions our migrations create.
  override async connectToShadowDb() {
    return new PGliteForCli(newPGlite()).connect();
  }
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  async adapter() {
    // pglite-prisma-adapter 0.7 speaks Prisma 7's adapter types; the 6.19 CLI's differ only in types.
    return new PGliteForCli(newPGlite()) as never;
  },
});
