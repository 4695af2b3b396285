import { pgliteDataDir } from "./pglite";

/**
 * Which database a connection string names, in words for the person running a command: host, port, database and
 * user of a PostgreSQL URL (never its password), or the embedded database's folder when there is no URL.
 */
export function describeDatabase(url = process.env.DATABASE_URL): string {
  if (!url) return `the embedded database in ${pgliteDataDir()}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "a PostgreSQL database whose URL cannot be read (check DATABASE_URL)";
  }
  const name = decodeURIComponent(parsed.pathname.slice(1)) || "(default database)";
  const user = parsed.username ? ` as ${decodeURIComponent(parsed.username)}` : "";
  return `PostgreSQL database "${name}" on ${parsed.hostname}:${parsed.port || "5432"}${user}`;
}

/** The URL for migrations and other session-level work: a pooler in transaction mode cannot carry them. */
export const directDatabaseUrl = () => process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL;
