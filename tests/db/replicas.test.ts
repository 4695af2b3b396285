// Read replicas against a real hot standby (CJT_REPLICA_URL: its host and port; .ci/standby makes one): every read
// kind is served by the replica when it is current, read-your-writes after each kind of write, replication paused
// (pg_wal_replay_pause) moves reads to the primary and shows in /api/health, and a stopped replica leaves the
// primary answering (CJT_REPLICA_DIR: the standby's data directory, which .ci/standby halts and restarts).
// Which server answered is read from the standby's pg_stat_statements (loaded by .ci/standby's postgresql.conf).
import { execFileSync } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as healthGET } from "@/app/api/health/route";
import * as auditRoute from "@/app/api/v1/audit-events/route";
import * as clientRoute from "@/app/api/v1/clients/[uuid]/route";
import * as clientsRoute from "@/app/api/v1/clients/route";
import * as searchRoute from "@/app/api/v1/clients/search/route";
import * as timeLogsRoute from "@/app/api/v1/time-logs/route";
import * as userRoute from "@/app/api/v1/users/[id]/route";
import * as usersRoute from "@/app/api/v1/users/route";
import * as webhookRoute from "@/app/api/v1/webhooks/[uuid]/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import { closeDatabase, prisma } from "@/lib/db/client";
import { call, tenantByName, tokenFor } from "../support/api";
import { databaseUrlFor } from "../support/postgres";

const replicaBase = process.env.CJT_REPLICA_URL;
const standbyDir = process.env.CJT_REPLICA_DIR;
const MAX_LAG_MS = 5_000;

let standby: pg.Client;
let owner: string;
let reader: string;
let acmeId: number;

/** Statements this test's database ran on the standby, but the app's own checks of it and this test's counting. */
async function replicaStatements(): Promise<number> {
  const { rows } = await standby.query(
    `SELECT COALESCE(sum(calls), 0)::int AS calls FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND query NOT LIKE '%pg_is_in_recovery%' AND query NOT LIKE '%pg_stat_statements%'`,
  );
  return rows[0].calls;
}

/** What `work` reads on the standby (statements counted there), and its answer. */
async function onStandby<T>(work: () => Promise<T>): Promise<[number, T]> {
  const before = await replicaStatements();
  const result = await work();
  return [(await replicaStatements()) - before, result];
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 20_000) {
  for (const start = Date.now(); !(await check()); ) {
    if (Date.now() - start > ms) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function health() {
  const response = await healthGET(new Request("http://localhost/api/health"));
  return { status: response.status, body: await response.json() };
}

const replicaInUse = async () => (await health()).body.replicas?.[0]?.in_use === true;

/** Waits for the standby to replay everything the primary has written so far. */
async function caughtUp() {
  const [{ position }] = await (await prisma()).$queryRaw<
    { position: string }[]
  >`SELECT pg_current_wal_insert_lsn()::text AS position`;
  await waitFor("the standby to catch up", async () => {
    const { rows } = await standby.query("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done", [position]);
    return rows[0].done;
  });
  await waitFor("the replica in use", replicaInUse);
}

const get = (route: any, path: string, token = reader, params: Record<string, string> = {}) =>
  call(route, "GET", path, { token, params });

describe.skipIf(!replicaBase || !process.env.DATABASE_URL)("read replicas (a real hot standby)", () => {
  beforeAll(async () => {
    const copy = new URL(process.env.DATABASE_URL!).pathname.slice(1);
    const replicaUrl = databaseUrlFor(replicaBase!, copy);
    // The view's objects come with the database; the standby's library (shared_preload_libraries) fills it.
    await (await prisma()).$executeRawUnsafe("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    owner = await tokenFor("owner@acme.test");
    reader = await tokenFor("admin@acme.test");
    acmeId = (await tenantByName("Acme Accounting")).id;
    // A 1,000-row page is streamed in chunks past its first 200 rows: enough clients for one.
    await (await prisma()).client.createMany({
      data: Array.from({ length: 1_000 }, (_, i) => ({
        tenantId: acmeId,
        uuid: crypto.randomUUID(),
        name: `Replica client ${String(i).padStart(4, "0")}`,
      })),
    });
    // The app opens the database again, now with the replica (the per-file database is on the standby too).
    await closeDatabase();
    process.env.DATABASE_REPLICA_URLS = replicaUrl;
    process.env.DATABASE_REPLICA_MAX_LAG_MS = String(MAX_LAG_MS);
    process.env.DATABASE_REPLICA_CHECK_MS = "200";
    await waitFor("the database on the standby", async () => {
      try {
        standby = new pg.Client({ connectionString: replicaUrl });
        await standby.connect();
        return true;
      } catch {
        return false;
      }
    });
    await standby.query("SELECT pg_stat_statements_reset()");
    await caughtUp();
  });

  afterAll(async () => {
    await standby?.query("SELECT pg_wal_replay_resume()").catch(() => undefined);
    await standby?.end();
    await closeDatabase(); // the database with its replica, before its settings go
    delete process.env.DATABASE_REPLICA_URLS;
  });

  it("serves every read kind from the replica when it is current", async () => {
    const clients = await get(clientsRoute, "clients?per_page=1000");
    expect(clients.status).toBe(200);
    const some = clients.body.data[0];
    const userId = String((await get(usersRoute, "users")).body.data[0].id);
    const reads: [string, () => Promise<{ status: number; body: any }>][] = [
      ["a list page", () => get(clientsRoute, "clients?per_page=20&page=2")],
      ["a record", () => get(clientRoute, `clients/${some.uuid}`, reader, { uuid: some.uuid })],
      ["a search", () => get(searchRoute, "clients/search?q=replica")],
      ["a search of a list", () => get(clientsRoute, "clients?search=replica%20client")],
      ["/users", () => get(usersRoute, "users")],
      ["a user", () => get(userRoute, `users/${userId}`, reader, { id: userId })],
      ["time logs", () => get(timeLogsRoute, "time-logs?per_page=50")],
      ["audit events (through Prisma)", () => get(auditRoute, "audit-events", owner)],
      ["a streamed 1,000-row page", () => get(clientsRoute, "clients?per_page=1000&page=1")],
    ];
    for (const [what, read] of reads) {
      const [statements, res] = await onStandby(read);
      expect(res.status, what).toBe(200);
      expect(statements, `${what}: statements on the standby`).toBeGreaterThan(0);
    }
    // Every chunk of the streamed page came from the standby: the primary holds these rows too, the counts tell.
    const [chunks, page] = await onStandby(() => get(clientsRoute, "clients?per_page=1000&page=1"));
    expect(page.body.data).toHaveLength(1000);
    expect(chunks).toBeGreaterThanOrEqual(1 + 4); // the page's statement and its four later chunks of 200
  });

  it("reads a caller's writes back at once while the replica is behind, then from the replica once it has them", async () => {
    await standby.query("SELECT pg_wal_replay_pause()");
    try {
      // Create: read back at once, from the primary (the standby has not replayed it).
      const [createdOnStandby, created] = await onStandby(async () => {
        const res = await call(clientsRoute, "POST", "clients", { token: owner, body: { name: "Sticky Ltd" } });
        expect(res.status).toBe(201);
        const uuid = res.body.uuid;
        const read = await get(clientRoute, `clients/${uuid}`, owner, { uuid });
        expect(read.status).toBe(200);
        expect(read.body.name).toBe("Sticky Ltd");
        return res.body;
      });
      expect(createdOnStandby).toBe(0);
      // Another caller, who wrote nothing, still reads the replica, which lacks it: the stickiness is per caller.
      const [otherOnStandby, other] = await onStandby(() =>
        get(clientRoute, `clients/${created.uuid}`, reader, { uuid: created.uuid }),
      );
      expect(otherOnStandby).toBeGreaterThan(0);
      expect(other.status).toBe(404);
      // Update: the new value at once, never the old one.
      const uuid = created.uuid;
      const put = await call(clientRoute, "PUT", `clients/${uuid}`, {
        token: owner,
        body: { name: "Sticky Two Ltd" },
        params: { uuid },
      });
      expect(put.status).toBe(200);
      expect((await get(clientRoute, `clients/${uuid}`, owner, { uuid })).body.name).toBe("Sticky Two Ltd");
      const listed = await get(clientsRoute, "clients?search=sticky", owner);
      expect(listed.body.data.map((c: { name: string }) => c.name)).toEqual(["Sticky Two Ltd"]);
      // Delete (a webhook endpoint): gone at once, read through Prisma.
      const hook = await call(webhooksRoute, "POST", "webhooks", {
        token: owner,
        body: { url: "https://hooks.example.com/replicas", events: ["client.created"] },
      });
      expect(hook.status).toBe(201);
      const hookUuid = hook.body.uuid;
      expect((await get(webhookRoute, `webhooks/${hookUuid}`, owner, { uuid: hookUuid })).status).toBe(200);
      const deleted = await call(webhookRoute, "DELETE", `webhooks/${hookUuid}`, {
        token: owner,
        params: { uuid: hookUuid },
      });
      expect(deleted.status).toBe(204);
      expect((await get(webhookRoute, `webhooks/${hookUuid}`, owner, { uuid: hookUuid })).status).toBe(404);
    } finally {
      await standby.query("SELECT pg_wal_replay_resume()");
    }
    await caughtUp();
    const [onReplica, read] = await onStandby(() => get(clientsRoute, "clients?search=sticky", owner));
    expect(onReplica).toBeGreaterThan(0);
    expect(read.body.data.map((c: { name: string }) => c.name)).toEqual(["Sticky Two Ltd"]);
  });

  it("moves reads to the primary while the replica lags past the bound, and says so in /api/health", async () => {
    await standby.query("SELECT pg_wal_replay_pause()");
    try {
      await (await prisma()).client.create({
        data: { tenantId: acmeId, uuid: crypto.randomUUID(), name: "Lagged Ltd" },
      });
      await waitFor("the replica out of use", async () => !(await replicaInUse()));
      const { status, body } = await health();
      expect(status).toBe(200); // a lagging replica is reported, not a reason to hold traffic back
      const [replica] = body.replicas;
      expect(replica).toMatchObject({ reachable: true, in_use: false });
      expect(replica.lag_seconds).toBeGreaterThan(MAX_LAG_MS / 1000);
      expect(replica.lag_bytes).toBeGreaterThan(0);
      expect(replica.server).toBe(new URL(replicaBase!).host + new URL(process.env.DATABASE_URL!).pathname);
      // The reader, who wrote nothing, now reads the primary: it sees the new client.
      const [statements, res] = await onStandby(() => get(clientsRoute, "clients?search=lagged"));
      expect(statements).toBe(0);
      expect(res.body.data.map((c: { name: string }) => c.name)).toEqual(["Lagged Ltd"]);
    } finally {
      await standby.query("SELECT pg_wal_replay_resume()");
    }
    await caughtUp();
    // In use again (its lag in bytes need not be 0: the cluster's other databases write WAL too).
    const [after] = (await health()).body.replicas;
    expect(after).toMatchObject({ reachable: true, in_use: true });
    expect(after.lag_seconds).toBeLessThanOrEqual(MAX_LAG_MS / 1000);
  });

  it.skipIf(!standbyDir)(
    "keeps answering from the primary when the replica stops, and uses it again once back",
    async () => {
      await standby.end();
      execFileSync(".ci/standby", ["halt", standbyDir!], { stdio: "inherit" });
      try {
        for (const read of [
          () => get(clientsRoute, "clients?per_page=20"),
          () => get(usersRoute, "users"),
          () => get(auditRoute, "audit-events", owner),
          () => get(clientsRoute, "clients?per_page=1000"),
        ]) {
          expect((await read()).status).toBe(200);
        }
        const { status, body } = await health();
        expect(status).toBe(200);
        expect(body.replicas[0]).toMatchObject({ reachable: false, in_use: false, lag_seconds: null });
      } finally {
        execFileSync(".ci/standby", ["resume", standbyDir!], { stdio: "inherit" });
      }
      standby = new pg.Client({
        connectionString: databaseUrlFor(replicaBase!, new URL(process.env.DATABASE_URL!).pathname.slice(1)),
      });
      await standby.connect();
      await caughtUp();
      const [statements, res] = await onStandby(() => get(clientsRoute, "clients?per_page=20"));
      expect(res.status).toBe(200);
      expect(statements).toBeGreaterThan(0);
    },
  );
});
