// Readiness is not liveness: a starting instance answers /api/live at once but /api/health 503 "starting" until it
// has warmed up (database open, a pooled connection made, the authentication cache's listener proven or known
// not to be), so that a balancer sends it no traffic it would refuse. Here the listener's own connection hangs
// (blackholed by a fault proxy), which holds the warm-up for its 3 s connect limit.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET } from "@/app/api/health/route";
import { GET as liveGET } from "@/app/api/live/route";
import { closeDatabase } from "@/lib/db/client";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy";

const postgres = !!process.env.DATABASE_URL;
let proxy: FaultProxy;

beforeAll(async () => {
  if (!postgres) return;
  const direct = process.env.DIRECT_DATABASE_URL as string;
  proxy = await startFaultProxy({ host: "127.0.0.1", port: Number(new URL(direct).port || 5432) });
  await proxy.set("blackhole");
  vi.stubEnv("DIRECT_DATABASE_URL", proxy.via(direct));
});
afterAll(async () => {
  await closeDatabase();
  vi.unstubAllEnvs();
  await proxy?.close();
});

async function health() {
  const response = await GET(new Request("http://localhost/api/health"));
  return { status: response.status, body: await response.json() };
}

describe.skipIf(!postgres)("a starting instance", () => {
  it("is alive at once, not ready until warm, then ready", async () => {
    const starting = await health();
    expect(liveGET().status).toBe(200);
    expect(starting.status).toBe(503);
    // The database itself answers: it is the warm-up that is not done.
    expect(starting.body).toMatchObject({ status: "starting", database: { reachable: true } });

    let ready = starting;
    for (let i = 0; i < 20 && ready.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      ready = await health();
    }
    expect(ready).toMatchObject({ status: 200, body: { status: "ok" } });
  });
});
