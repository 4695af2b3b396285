// Prisma CLI configuration. The CLI runs engine-free here: its schema engine is WebAssembly and talks to an
// in-memory PGlite, so `prisma migrate dev/diff` work offline. Real databases are migrated by scripts/migrate.ts.
import { PGlite } from "@electric-sql/pglite";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { defineConfig } from "prisma/config";

// The schema's `url = env("DATABASE_URL")` must resolve or the CLI looks for a native engine; never used with an adapter.
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
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  async adapter() {
    // pglite-prisma-adapter pins an older driver-adapter-utils: the types differ, the runtime protocol does not.
    return new PGliteForCli(newPGlite()) as never;
  },
});
