// With the primary hung (every process of its cluster stopped with SIGSTOP), every API answer is a JSON 503 with
// Retry-After and a request id within 10 s, measured from outside (docs/faults.md, "Database hung"), and the API
// answers 200 again once it resumes. The real parts: a PostgreSQL cluster of the test's own (the shared server is never
// stopped) and the built server (`npm run build` first) with the product's defaults, since the promise is for those.
// Requests meet the hang in each state: mid-statement (a write's UPDATE inside its transaction, with an
// Idempotency-Key, and a list's SELECT, each waiting on a lock the test holds when the cluster stops), on idle pooled
// connections in the hang's first second, past the instance's places (the front door's 503), and later on, when the
// pool must open connections. Only on PostgreSQL (DATABASE_URL set) with its binaries installed; about 25 s.
import { request } from "node:http";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@/lib/db/migrations";
import { seedDemo } from "@/lib/demo/seed";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { createApiToken } from "@/lib/tokens";
import { type BuiltServerDatabase, built, freePort, jsonRequest, kill, startServer } from "../support/built-server";
import { adminQuery } from "../support/postgres";
import { postgresBinaries, type ScratchCluster, startScratchCluster } from "../support/scratch-postgres";

const bin = postgresBinaries();
const runs = !!process.env.DATABASE_URL && !!bin && built;

/** The promise (docs/faults.md); an answer not come this long after is recorded as none (status 0). */
const BOUND_MS = 10_000;
const GIVE_UP_MS = 30_000;

interface Answer {
  label: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  ms: number;
}

describe.skipIf(!runs)("the built server with its primary hung (SIGSTOP)", () => {
  let cluster: ScratchCluster;
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let port: number;
  let token: string;

  beforeAll(async () => {
    cluster = await startScratchCluster(bin!);
    await adminQuery(cluster.url, async (session) => {
      await applyMigrations({
        query: (sql, params) => session.query(sql, params) as never,
        exec: (sql) => session.query(sql),
      });
    });
    const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: cluster.url }) });
    try {
      await seedDemo(client);
      const owner = await client.user.findFirstOrThrow({ where: { email: "owner@acme.test" } });
      token = (await createApiToken(client, { tenantId: owner.tenantId, userId: owner.id }, "hung primary")).token;
    } finally {
      await client.$disconnect();
    }
    port = await freePort();
    const database = { dataDir: "/nonexistent", token } as unknown as BuiltServerDatabase;
    // The product's defaults for every limit: only where the database is.
    server = await startServer(port, database, { DATABASE_URL: cluster.url, DIRECT_DATABASE_URL: cluster.url });
  });

  afterAll(async () => {
    if (server) {
      kill(server.server, "SIGKILL");
      await server.exited;
    }
    await cluster?.stop();
  });

  /** One request on its own connection, timed from before it is sent until its answer has been read. */
  function send(label: string, method: string, pathname: string, body?: unknown, key?: string): Promise<Answer> {
    const payload = body === undefined ? "" : JSON.stringify(body);
    const start = performance.now();
    return new Promise((resolve) => {
      const none = (): Answer => ({ label, status: 0, headers: {}, body: null, ms: performance.now() - start });
      const headers = { Authorization: `Bearer ${token}`, ...(key ? { "Idempotency-Key": key } : {}) };
      const req = request({ ...jsonRequest(port, method, pathname, payload, headers), timeout: GIVE_UP_MS }, (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // kept as text: the assertion names it
          }
          resolve({
            label,
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: parsed,
            ms: performance.now() - start,
          });
        });
        res.on("error", () => resolve(none()));
      });
      req.on("timeout", () => req.destroy());
      req.on("error", () => resolve(none()));
      req.end(payload);
    });
  }

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const pidOf = async (session: pg.Client) => (await session.query("SELECT pg_backend_pid() AS pid")).rows[0].pid;

  it("answers every request a JSON 503 with Retry-After and a request id within 10 s, then 200 again", async () => {
    const page = await send("warm", "GET", "/api/v1/clients?limit=5");
    expect(page.status).toBe(200);
    const [locked, other] = page.body.data as { uuid: string; name: string }[];
    expect((await send("warm", "POST", "/api/v1/clients", { name: "Before the hang" })).status).toBe(201);

    // Locks the test takes, so that requests wait mid-statement: the write inside its transaction (after BEGIN, its
    // claim of the key, its audit entry), the reads in their SELECT.
    const rowLock = new pg.Client({ connectionString: cluster.url });
    const tableLock = new pg.Client({ connectionString: cluster.url });
    const watcher = new pg.Client({ connectionString: cluster.url });
    for (const session of [rowLock, tableLock, watcher]) {
      session.on("error", () => {});
      await session.connect();
    }
    const own = await Promise.all([rowLock, tableLock, watcher].map(pidOf));
    /** The app's backends waiting on a lock, and those idle in its pool (not its authentication cache's listener). */
    const backends = async () =>
      (
        await watcher.query(
          `SELECT count(*) FILTER (WHERE wait_event_type = 'Lock')::int AS waiting,
                  count(*) FILTER (WHERE state = 'idle' AND query NOT LIKE 'LISTEN%')::int AS idle
           FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> ALL($1)`,
          [own],
        )
      ).rows[0] as { waiting: number; idle: number };
    const whenWaiting = async (count: number) => {
      let seen = await backends();
      for (const until = performance.now() + 10_000; seen.waiting < count && performance.now() < until; ) {
        await sleep(50);
        seen = await backends();
      }
      return seen;
    };

    // Warm: four reads held at once on the table lock make the pool open four connections, idle once it is let go.
    await tableLock.query("BEGIN");
    await tableLock.query("LOCK TABLE jobs IN ACCESS EXCLUSIVE MODE");
    const warming = Array.from({ length: 4 }, () => send("warm", "GET", "/api/v1/jobs?limit=5"));
    expect((await whenWaiting(4)).waiting).toBe(4);
    await tableLock.query("ROLLBACK");
    expect((await Promise.all(warming)).map(({ status }) => status)).toEqual([200, 200, 200, 200]);

    await rowLock.query("BEGIN");
    await rowLock.query("SELECT 1 FROM clients WHERE uuid = $1 FOR UPDATE", [locked.uuid]);
    await tableLock.query("BEGIN");
    await tableLock.query("LOCK TABLE jobs IN ACCESS EXCLUSIVE MODE");
    const answers: Promise<Answer>[] = [];
    answers.push(
      send("mid-statement write", "PUT", `/api/v1/clients/${locked.uuid}`, { name: "During hang 1" }, "hung-1"),
    );
    answers.push(send("mid-statement read", "GET", "/api/v1/jobs?limit=5"));
    // Two mid-statement when the cluster stops, and pooled connections idle for the next requests.
    expect(await whenWaiting(2)).toEqual({ waiting: 2, idle: expect.toSatisfy((idle: number) => idle >= 1) });

    cluster.pause();
    const stoppedAt = performance.now();
    // The hang's first second: the pool's idle connections, then more requests than the instance has places.
    answers.push(send("idle pool: me", "GET", "/api/v1/me"));
    answers.push(send("idle pool: create", "POST", "/api/v1/clients", { name: "During hang 2" }, "hung-2"));
    answers.push(send("idle pool: list", "GET", "/api/v1/clients?limit=5"));
    await sleep(300);
    for (let i = 0; i < 12; i++) {
      answers.push(
        i % 3 === 0
          ? send(`burst ${i}: create`, "POST", "/api/v1/clients", { name: `During hang, burst ${i}` })
          : send(`burst ${i}: read`, "GET", i % 3 === 1 ? "/api/v1/me" : `/api/v1/clients/${other.uuid}`),
      );
    }
    // Later in the hang, once the first ones have been answered: connections given up on, places free again.
    await sleep(Math.max(0, stoppedAt + 10_500 - performance.now()));
    answers.push(send("later: me", "GET", "/api/v1/me"));
    answers.push(send("later: create", "POST", "/api/v1/clients", { name: "During hang 3" }, "hung-3"));
    answers.push(send("later: update", "PUT", `/api/v1/clients/${other.uuid}`, { name: "During hang 4" }));
    answers.push(send("later: read", "GET", `/api/v1/clients/${locked.uuid}`));
    const answered = await Promise.all(answers);
    cluster.resume();

    expect(answered.length).toBeGreaterThanOrEqual(20);
    const seen = answered.map(({ label, status, ms, headers, body }) => ({
      label,
      status,
      ms: Math.round(ms),
      retryAfter: headers["retry-after"],
      json: String(headers["content-type"]).startsWith("application/json"),
      requestId: typeof body === "object" && body !== null && body.request_id === headers["x-request-id"],
    }));
    // Each answer as promised; its time is shown beside it.
    const promised = seen.map(({ label, ms }) => ({
      label,
      status: 503,
      ms: ms < BOUND_MS ? ms : `under ${BOUND_MS}`,
      retryAfter: expect.stringMatching(/^[1-9]\d*$/),
      json: true,
      requestId: true,
    }));
    expect(seen).toEqual(promised);
    for (const { body } of answered) expect(body).toMatchObject({ message: expect.stringMatching(/try again/i) });

    // Resumed: the locks go, and the API answers again.
    await Promise.all([rowLock.query("ROLLBACK"), tableLock.query("ROLLBACK")]);
    await Promise.all([rowLock.end(), tableLock.end()]);
    let me = await send("after", "GET", "/api/v1/me");
    for (let i = 0; i < 30 && me.status !== 200; i++) {
      await sleep(500);
      me = await send("after", "GET", "/api/v1/me");
    }
    expect(me.status).toBe(200);
    expect((await send("after", "GET", "/api/v1/jobs?limit=5")).status).toBe(200);
    expect((await send("after", "GET", `/api/v1/clients/${locked.uuid}`)).body).toMatchObject({ name: locked.name });
    expect((await send("after", "PUT", `/api/v1/clients/${locked.uuid}`, { name: "After the hang" })).status).toBe(200);
    expect((await send("after", "POST", "/api/v1/clients", { name: "After the hang too" })).status).toBe(201);
    // No write answered 503 was stored: its transaction never committed.
    const { rows } = await watcher.query("SELECT name FROM clients WHERE name LIKE 'During hang%'");
    await watcher.end();
    expect(rows).toEqual([]);
  });
});
