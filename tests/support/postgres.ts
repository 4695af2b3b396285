import pg from "pg";

export function databaseUrlFor(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Runs SQL (or a function) on its own short connection: CREATE/DROP DATABASE cannot run inside a pool's transaction. */
export async function adminQuery(url: string, work: string | ((session: pg.Client) => Promise<unknown>)) {
  const session = new pg.Client({ connectionString: url });
  await session.connect();
  try {
    return typeof work === "string" ? await session.query(work) : await work(session);
  } finally {
    await session.end();
  }
}
