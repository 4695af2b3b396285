// Read replicas without a standby: which server a request reads from (lib/db/replicas.ts), the store of callers'
// write positions in process and in Redis, a request's reads in one snapshot (a "replica" URL naming the primary's
// own database, on PostgreSQL), and no change at all when no replica is configured. The real standby's tests are
// tests/db/replicas.test.ts.
import { Redis } from "@upstash/redis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as healthGET } from "@/app/api/health/route";
import * as clientsRoute from "@/app/api/v1/clients/route";
import { closeDatabase, database } from "@/lib/db/client";
import { InProcessPositions, type PositionStore, RedisPositions } from "@/lib/db/replica-positions";
import { lsn, lsnText, ReplicaRead, ReplicaSet, readFrom, serverName } from "@/lib/db/replicas";
import { Prisma } from "@/lib/generated/prisma/client";
import { startUpstashEmulator, type UpstashEmulator } from "@/scripts/upstash-emulator";
import { tenantByName, tokenFor } from "../support/api";
import { fakeReplica } from "../support/fake-replica";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

function setUp(names = ["a", "b"]) {
  vi.stubEnv("DATABASE_REPLICA_MAX_LAG_MS", "5000");
  vi.stubEnv("DATABASE_REPLICA_CHECK_MS", "1000");
  const clock = { now: 1_000_000 };
  const primary = { position: "0/100" };
  const replicas = names.map(fakeReplica);
  const set = new ReplicaSet(
    replicas.map((r) => r.server),
    async () => primary.position,
    () => clock.now,
  );
  return { set, replicas, primary, clock, positions: new InProcessPositions(() => clock.now) };
}

describe("the server a request reads from", () => {
  it("is any replica that is current when the caller has not written, and never one not yet checked", async () => {
    const { set, replicas, positions } = setUp();
    expect(await set.choose("1:1", positions)).toBeUndefined(); // nothing checked yet: the primary
    for (const r of replicas) r.replayed = "0/100";
    await set.check();
    const chosen = new Set<string>();
    for (let i = 0; i < 50; i++) chosen.add((await set.choose("1:1", positions))!.name);
    expect([...chosen].sort()).toEqual(["a", "b"]);
  });

  it("after a write, is a replica that has replayed it, asking one replica once, else the primary", async () => {
    const { set, replicas, primary, positions } = setUp(["a"]);
    const [a] = replicas;
    a.replayed = "0/100";
    await set.check();
    primary.position = "0/200"; // the caller's write
    await set.noteWrite("1:1", positions);
    expect(await positions.get("1:1")).toBe(lsn("0/200"));
    const asked = a.asked;
    expect(await set.choose("1:1", positions)).toBeUndefined(); // not replayed: the primary
    expect(a.asked).toBe(asked + 1); // one check of its replay position, no more
    expect((await set.choose("1:2", positions))?.name).toBe("a"); // another caller still reads the replica
    a.replayed = "0/200";
    expect((await set.choose("1:1", positions))?.name).toBe("a"); // asked again: replayed now
    expect(a.asked).toBe(asked + 2);
    expect((await set.choose("1:1", positions))?.name).toBe("a"); // known replayed: nothing asked
    expect(a.asked).toBe(asked + 2);
  });

  it("leaves out a replica that lags past the bound, and reports its lag", async () => {
    const { set, replicas, primary, clock, positions } = setUp(["a"]);
    const [a] = replicas;
    a.replayed = "0/100";
    await set.check();
    primary.position = "0/180";
    clock.now += 1_000;
    await set.check(); // the primary is at 0/180 from now on; the replica stays at 0/100
    expect((await set.choose("1:1", positions))?.name).toBe("a"); // 0 ms behind the first position it lacks
    clock.now += 5_001;
    await set.check();
    expect(await set.choose("1:1", positions)).toBeUndefined();
    expect(await set.health()).toEqual([
      { server: "a", reachable: true, lag_seconds: 5.001, lag_bytes: 0x80, in_use: false },
    ]);
    a.replayed = "0/180";
    await set.check();
    expect((await set.choose("1:1", positions))?.name).toBe("a");
    expect(await set.health()).toEqual([{ server: "a", reachable: true, lag_seconds: 0, lag_bytes: 0, in_use: true }]);
  });

  it("leaves out an unreachable replica until a check finds it again", async () => {
    const { set, replicas, positions } = setUp(["a"]);
    const [a] = replicas;
    a.replayed = "0/100";
    a.down = true;
    await set.check();
    expect(await set.choose("1:1", positions)).toBeUndefined();
    expect(await set.health()).toEqual([
      { server: "a", reachable: false, lag_seconds: null, lag_bytes: null, in_use: false },
    ]);
    a.down = false;
    await set.check();
    expect((await set.choose("1:1", positions))?.name).toBe("a");
  });

  it("is the primary when the caller's last write cannot be looked up (the store is out)", async () => {
    const { set, replicas } = setUp(["a"]);
    replicas[0].replayed = "0/100";
    await set.check();
    const broken: PositionStore = {
      get: async () => {
        throw new Error("Redis did not answer");
      },
      set: async () => {},
    };
    expect(await set.choose("1:1", broken)).toBeUndefined();
  });

  it("keeps a write for longer than a replica in use may lag", () => {
    const { set } = setUp();
    expect(set.stickyMs).toBeGreaterThan(set.maxLagMs + set.checkMs);
  });
});

describe("write positions", () => {
  it("round-trip as WAL positions, and name a replica without its credentials", () => {
    for (const text of ["0/0", "16/B374D848", "FFFFFFFF/FFFFFFFF"]) expect(lsnText(lsn(text))).toBe(text);
    expect(lsn("1/0")).toBeGreaterThan(lsn("0/FFFFFFFF"));
    expect(serverName("postgresql://app:secret@db-replica.internal:6432/cjt?pgbouncer=true")).toBe(
      "db-replica.internal:6432/cjt",
    );
  });

  it("in process: expire after their time, and never move back", async () => {
    const clock = { now: 0 };
    const store = new InProcessPositions(() => clock.now);
    await store.set("1:1", lsn("0/200"), 1_000);
    await store.set("1:1", lsn("0/100"), 1_000); // a slower request's earlier write
    expect(await store.get("1:1")).toBe(lsn("0/200"));
    expect(await store.get("1:2")).toBeUndefined();
    clock.now = 999;
    expect(await store.get("1:1")).toBe(lsn("0/200"));
    clock.now = 1_000;
    expect(await store.get("1:1")).toBeUndefined();
  });

  describe("in Redis (the Upstash emulator), seen by every instance", () => {
    let emulator: UpstashEmulator;
    beforeAll(async () => {
      emulator = await startUpstashEmulator();
    });
    afterAll(() => emulator.close());

    it("are stored with their expiry, and read by another client", async () => {
      const redis = () => new Redis({ url: emulator.url, token: emulator.token, enableTelemetry: false });
      const prefix = `cjt:test-wal:${crypto.randomUUID()}`;
      await new RedisPositions(redis(), prefix).set("7:9", lsn("2A/1F"), 15_000);
      expect(await new RedisPositions(redis(), prefix).get("7:9")).toBe(lsn("2A/1F"));
      expect(await new RedisPositions(redis(), prefix).get("7:10")).toBeUndefined();
      const ttl = await redis().pttl(`${prefix}:7:9`);
      expect(ttl).toBeGreaterThan(10_000);
      expect(ttl).toBeLessThanOrEqual(15_000);
    });
  });
});

describe("with no replica configured", () => {
  it("opens no replica, and /api/health reports none", async () => {
    expect(process.env.DATABASE_REPLICA_URLS ?? "").toBe("");
    expect((await database()).replicas).toBeUndefined();
    const body = await (await healthGET(new Request("http://localhost/api/health"))).json();
    expect(body).not.toHaveProperty("replicas");
  });
});

describe.skipIf(!process.env.DATABASE_URL)("one request's reads on a replica", () => {
  afterAll(async () => {
    await closeDatabase();
    delete process.env.DATABASE_REPLICA_URLS;
  });

  async function withReplica() {
    // The "replica" is the primary's own database: a server not in recovery has replayed all it wrote.
    await closeDatabase();
    process.env.DATABASE_REPLICA_URLS = process.env.DATABASE_URL;
    const db = await database();
    await db.replicas!.check();
    return db;
  }

  it("read one snapshot, however many statements they are and whatever is written meanwhile", async () => {
    const db = await withReplica();
    const acme = (await tenantByName("Acme Accounting")).id;
    const count = Prisma.sql`SELECT count(*)::int AS n FROM clients WHERE tenant_id = ${acme}`;
    const reads = new ReplicaRead(db.replicas!.replicas[0]);
    const counts = () => readFrom(reads, () => db.read<{ n: number }>(count));
    const [{ n: before }] = await counts();
    await db.prisma.client.create({ data: { tenantId: acme, uuid: crypto.randomUUID(), name: "Meanwhile Ltd" } });
    expect(await counts()).toEqual([{ n: before }]);
    await reads.release();
    // A request's reads after its answer (or another request's) see the write; the connection went back to its pool.
    const later = new ReplicaRead(db.replicas!.replicas[0]);
    expect(await readFrom(later, () => db.read<{ n: number }>(count))).toEqual([{ n: before + 1 }]);
    await later.release();
  });

  it("answer a streamed 1,000-row page in full, every chunk from the one replica, holding no connection while unread", async () => {
    const db = await withReplica();
    const acme = (await tenantByName("Acme Accounting")).id;
    const token = await tokenFor("owner@acme.test");
    // The tenant's other clients archived: its list of unarchived clients is these, in this order.
    await db.prisma.client.updateMany({ where: { tenantId: acme }, data: { isArchived: true } });
    const names = Array.from({ length: 1_000 }, (_, i) => `Streamed ${String(i).padStart(4, "0")}`);
    await db.prisma.client.createMany({
      data: names.map((name) => ({ tenantId: acme, uuid: crypto.randomUUID(), name })),
    });
    const reads = vi.spyOn(ReplicaRead.prototype, "read");
    const released = vi.spyOn(ReplicaRead.prototype, "release");
    const response = await clientsRoute.GET!(
      new Request("http://localhost/api/v1/clients?per_page=1000", { headers: { Authorization: `Bearer ${token}` } }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(200);
    // Answered and not yet read: the request's snapshot has ended and its connection is back in the pool (a reader
    // taking its time holds none); the later chunks are read one statement at a time as the body is taken.
    expect(released).toHaveBeenCalledTimes(1);
    expect(await openTransactions()).toBe(0);
    const body = await response.json();
    expect(body.data.map((c: { name: string }) => c.name)).toEqual(names);
    expect(body.meta.total).toBe(1_000);
    // The page's statement and its four later chunks of 200, all through the request's one ReplicaRead.
    expect(reads.mock.calls.length).toBeGreaterThanOrEqual(5);
    expect(new Set(reads.mock.contexts).size).toBe(1);
    // A short page and a search too; then no request's transaction is left open on the replica.
    for (const query of ["per_page=20", "search=streamed"]) {
      const short = await clientsRoute.GET!(
        new Request(`http://localhost/api/v1/clients?${query}`, { headers: { Authorization: `Bearer ${token}` } }),
        { params: Promise.resolve({}) },
      );
      expect(short.status).toBe(200);
      await short.text();
    }
    expect(await openTransactions()).toBe(0);
  });

  async function openTransactions() {
    const [{ open }] = await (await withReplica()).prisma.$queryRaw<{ open: number }[]>`
      SELECT count(*)::int AS open FROM pg_stat_activity
      WHERE datname = current_database() AND state LIKE 'idle in transaction%'`;
    return open;
  }
});
