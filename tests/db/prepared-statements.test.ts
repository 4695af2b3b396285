// Every distinct SQL text used to become a named statement kept by each pooled connection: 1,500 /jobs requests with
// different filters grew PostgreSQL's backends from 10 MB to 388 MB. A text is now named only from its
// DATABASE_PREPARE_THRESHOLD-th use, and a connection keeps at most DATABASE_PREPARED_STATEMENTS_MAX prepared, the least
// recently used deallocated first (lib/db/client.ts).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as jobsRoute from "@/app/api/v1/jobs/route";
import { closeDatabase, database, preparedStatementsMax, prepareThreshold, readRows } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { call, tokenFor } from "../support/api";

const BOUND = 20;

/** The statements the one pooled connection holds prepared, as PostgreSQL counts them. */
async function preparedOnConnection(): Promise<number> {
  const [row] = await readRows<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM pg_prepared_statements`);
  return row.n;
}

describe.runIf(!!process.env.DATABASE_URL)("prepared statements per pooled connection (PostgreSQL)", () => {
  beforeAll(async () => {
    // One connection, so that every request's statements land on the one whose count is read.
    await closeDatabase();
    vi.stubEnv("DATABASE_POOL_SIZE", "1");
    vi.stubEnv("DATABASE_PREPARED_STATEMENTS_MAX", String(BOUND));
  });
  afterAll(async () => {
    await closeDatabase();
    vi.unstubAllEnvs();
  });

  it("defaults to 64 per connection, each named from its third use", () => {
    vi.stubEnv("DATABASE_PREPARED_STATEMENTS_MAX", "");
    expect(preparedStatementsMax()).toBe(64);
    vi.stubEnv("DATABASE_PREPARED_STATEMENTS_MAX", String(BOUND));
    expect(prepareThreshold()).toBe(3);
  });

  it("leave a text used once or twice unprepared (no backend memory after it); from its third use it is kept", async () => {
    const marker = `once_${crypto.randomUUID().replaceAll("-", "")}`;
    const statement = Prisma.sql`SELECT 1 AS ${Prisma.raw(marker)}`;
    const prepared = async () =>
      (await readRows<{ statement: string }>(Prisma.sql`SELECT statement FROM pg_prepared_statements`)).some((row) =>
        row.statement.includes(marker),
      );
    await readRows(statement);
    await readRows(statement);
    expect(await prepared()).toBe(false);
    await readRows(statement);
    expect(await prepared()).toBe(true);
  });

  it("stay within the bound over 300 /jobs filter combinations, and the hot ones stay named", async () => {
    const token = await tokenFor("owner@acme.test");
    const sorts = ["due_date", "name", "start_date", "created_at", "updated_at"];
    let highest = 0;
    for (let i = 0; i < 300; i++) {
      const query = new URLSearchParams({
        sort_by: sorts[i % sorts.length],
        sort_direction: i % 2 ? "asc" : "desc",
      });
      for (let id = 1; id <= 1 + (i % 30); id++) query.append("users[]", String(id));
      if (i % 3 === 0) for (let id = 1; id <= 1 + (i % 7); id++) query.append("tags[]", String(id));
      if (i % 5 === 0) query.set("search", "tax");
      if (i % 4 === 0) query.set("exclude_subtasks", "true");
      if (i % 7 === 0) query.set("exclude_client_requests", "true");
      if (i % 11 === 0) query.set("due_date_range", "2026-01-01,");
      const res = await call(jobsRoute, "GET", `jobs?${query}`, { token });
      expect(res.status, query.toString()).toBe(200);
      if (i % 50 === 49) highest = Math.max(highest, await preparedOnConnection());
    }
    expect(highest).toBeGreaterThan(0);
    expect(highest).toBeLessThanOrEqual(BOUND);
    // What was used last is still prepared: named statements keep their gain for what is used again (authentication
    // answers from its cache, lib/auth/token-cache.ts, so the page's own statement is the one to look for).
    const db = await database();
    const read = db.read;
    let last = "";
    db.read = (statement, options) => {
      last = statement.text;
      return read(statement, options);
    };
    try {
      // Used often enough to be named (DATABASE_PREPARE_THRESHOLD).
      for (let i = 0; i < prepareThreshold(); i++)
        expect((await call(jobsRoute, "GET", "jobs", { token })).status).toBe(200);
    } finally {
      db.read = read;
    }
    const texts = await readRows<{ statement: string }>(Prisma.sql`SELECT statement FROM pg_prepared_statements`);
    expect(last).toContain("jobs");
    expect(texts.map(({ statement }) => statement)).toContain(last);
  }, 300_000);
});
