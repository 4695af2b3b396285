// A request cut by a database restart gives its Idempotency-Key back (issue 55 item 5): its retry, sent once the
// database is back, runs, rather than meeting 409 "still being processed" for the rest of the dead claim's 6 s lease.
// The restart is played by a fault proxy: every connection cut mid-statement, then new ones refused for 1.5 s.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiRoute } from "@/lib/api/route";
import { closeDatabase, prisma } from "@/lib/db/client";
import { call, tokenFor } from "../support/api";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy";

const postgres = !!process.env.DATABASE_URL;
let proxy: FaultProxy;
let token: string;

beforeAll(async () => {
  if (!postgres) return;
  const directUrl = process.env.DATABASE_URL as string;
  token = await tokenFor("owner@acme.test");
  await closeDatabase();
  proxy = await startFaultProxy({ host: "127.0.0.1", port: Number(new URL(directUrl).port || 5432) });
  vi.stubEnv("DATABASE_URL", proxy.via(directUrl));
});
afterAll(async () => {
  await closeDatabase();
  vi.unstubAllEnvs();
  await proxy?.close();
});

let runs = 0;
/** A POST whose handler holds a pooled connection in a statement for a second. */
const slowWrite = apiRoute({
  method: "post",
  path: "/me",
  resource: null,
  handler: async () => {
    runs++;
    await (await prisma()).$executeRawUnsafe("SELECT pg_sleep(1)");
    return { ran: runs };
  },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!postgres)("an Idempotency-Key across a database restart", () => {
  it("is given back by the request the restart cut: the retry runs once the database is back", async () => {
    const headers = { "Idempotency-Key": `restart-${crypto.randomUUID()}` };
    const first = call(slowWrite, "POST", "probe", { token, headers, body: {} });
    // Cut while its handler holds the key, in its statement.
    await vi.waitFor(() => expect(runs).toBe(1), { timeout: 5_000, interval: 20 });
    await sleep(100);
    await proxy.set("refuse");
    proxy.drop();
    const cut = await first;
    expect(cut.status).toBe(503);
    expect(Number(cut.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await sleep(1_500);
    await proxy.set("pass");
    await sleep(500);

    const retry = await call(slowWrite, "POST", "probe", { token, headers, body: {} });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(runs).toBe(2);
    // And it is the key's answer from now on.
    const replay = await call(slowWrite, "POST", "probe", { token, headers, body: {} });
    expect([replay.status, replay.headers.get("idempotent-replayed"), replay.body]).toEqual([200, "true", { ran: 2 }]);
  });
});
