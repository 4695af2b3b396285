// Read-your-writes on replicas when Redis fails (issue 55 items 1 and 2), with a real redis-server of the test's own
// (behind the Upstash emulator, and a fault proxy to hang it) and replicas whose replay the test sets:
// - Redis away: known away after one failed call, so that no request waits on it again for the window (as the rate
//   limiter does); reads go to the primary meanwhile (a caller's last write may be on another instance), logged once.
// - Redis losing its data (FLUSHALL): the writer's own reads still see its writes, from the position kept in process.
import { type ChildProcess, spawn } from "node:child_process";
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as clientsRoute from "@/app/api/v1/clients/route";
import { writePositions } from "@/lib/api/write-positions";
import { closeDatabase } from "@/lib/db/client";
import { ReplicaSet } from "@/lib/db/replicas";
import { startUpstashEmulator, type UpstashEmulator } from "@/scripts/upstash-emulator";
import { call, tokenFor } from "../support/api";
import { freePort } from "../support/built-server";
import { fakeReplica } from "../support/fake-replica";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy";
import { spyOnLog } from "../support/log";

let redisServer: ChildProcess;
let redisUrl: string;
let emulator: UpstashEmulator;
let proxy: FaultProxy;

beforeAll(async () => {
  const port = await freePort();
  redisServer = spawn("redis-server", ["--port", String(port), "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  redisUrl = `redis://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const probe = createClient({ url: redisUrl });
    probe.on("error", () => {});
    try {
      await probe.connect();
      await probe.quit();
      break;
    } catch {
      if (i > 50) throw new Error("redis-server did not start");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  emulator = await startUpstashEmulator({ redisUrl });
  proxy = await startFaultProxy({ host: "127.0.0.1", port: Number(new URL(emulator.url).port) });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await proxy.set("pass");
});
afterAll(async () => {
  await proxy?.close();
  await emulator?.close();
  redisServer?.kill("SIGTERM");
});

/** One replica lagging behind the primary's writes; each instance of the app is a fresh import. */
async function lagging() {
  vi.stubEnv("DATABASE_REPLICA_MAX_LAG_MS", "60000");
  const primary = { position: "0/100" };
  const replica = fakeReplica("standby");
  replica.replayed = "0/100";
  const set = new ReplicaSet([replica.server], async () => primary.position);
  await set.check();
  return { set, primary, replica };
}

function useRedis(url = emulator.url) {
  vi.stubEnv("UPSTASH_REDIS_REST_URL", url);
  vi.stubEnv("UPSTASH_REDIS_REST_TOKEN", emulator.token);
}

describe("write positions when Redis fails", () => {
  it("after Redis lost its data, a writer's own reads still go where its write is", async () => {
    useRedis();
    const { set, primary } = await lagging();
    primary.position = "0/200"; // the write; the standby has replayed 0/100 only
    await set.noteWrite("1:1", writePositions());
    expect(await set.choose("1:1", writePositions())).toBeUndefined(); // the primary

    const admin = createClient({ url: redisUrl });
    await admin.connect();
    await admin.flushAll();
    await admin.quit();
    for (let i = 0; i < 15; i++) expect(await set.choose("1:1", writePositions())).toBeUndefined();
  });

  it("once Redis is known away, no request waits on it: reads go to the primary, and it is logged once", async () => {
    useRedis(proxy.via(emulator.url));
    const { set, primary } = await lagging();
    const errors = spyOnLog("error");
    await proxy.set("blackhole");
    // 20 writes and 20 reads by other callers than the writer: one waits out Redis's deadline (1 s), then none.
    const start = performance.now();
    for (let i = 0; i < 20; i++) {
      primary.position = `0/${(0x200 + i).toString(16)}`;
      await set.noteWrite(`1:${i}`, writePositions());
      expect(await set.choose(`2:${i}`, writePositions())).toBeUndefined();
    }
    expect(performance.now() - start).toBeLessThan(5_000);
    expect(errors.mock.calls.filter(([message]) => /Redis did not answer/.test(message))).toHaveLength(1);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("the API with a replica configured while Redis hangs", () => {
  afterAll(async () => {
    await closeDatabase();
  });

  it("answers every write and read, waiting on Redis once, and logs the outage once", async () => {
    // The "replica" is the primary's own database: a server not in recovery has replayed all it wrote.
    await closeDatabase();
    vi.stubEnv("DATABASE_REPLICA_URLS", process.env.DATABASE_URL as string);
    vi.stubEnv("RATE_LIMIT_KEY_PREFIX", `test:faults:${Date.now().toString(36)}`);
    // A proxy of its own: a Redis URL no earlier test has found away.
    const own = await startFaultProxy({ host: "127.0.0.1", port: Number(new URL(emulator.url).port) });
    useRedis(own.via(emulator.url));
    const token = await tokenFor("owner@acme.test");
    expect((await call(clientsRoute, "GET", "clients", { token })).status).toBe(200);

    const errors = spyOnLog("error");
    await own.set("blackhole");
    const statuses: number[] = [];
    const start = performance.now();
    for (let i = 0; i < 10; i++) {
      const created = await call(clientsRoute, "POST", "clients", { token, body: { name: `Outage ${i}` } });
      const listed = await call(clientsRoute, "GET", "clients", { token });
      statuses.push(created.status, listed.status);
    }
    // Each of the 20 waited Redis's 1 s deadline twice (rate limit, then position) before the fix.
    expect(performance.now() - start).toBeLessThan(8_000);
    expect(statuses).toEqual(Array(10).fill([201, 200]).flat());
    expect(errors.mock.calls.filter(([message]) => /Redis/.test(message)).length).toBeLessThanOrEqual(1);
    await own.close();
  });
});
