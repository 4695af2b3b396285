// /api/health answers within its own bound (2 s) whatever the database does: with the primary hung (every packet
// blackholed by a fault proxy, as a SIGSTOPped server behaves) each probe is a 503 saying the database is not
// reachable, probes that arrive during the hang do not each take one more pooled connection into it, and the
// instance is healthy again once the database answers.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET } from "@/app/api/health/route";
import { closeDatabase } from "@/lib/db/client";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy";
import { spyOnLog } from "../support/log";

const postgres = !!process.env.DATABASE_URL;
let proxy: FaultProxy;

beforeAll(async () => {
  if (!postgres) return;
  const directUrl = process.env.DATABASE_URL as string;
  await closeDatabase();
  proxy = await startFaultProxy({ host: "127.0.0.1", port: Number(new URL(directUrl).port || 5432) });
  vi.stubEnv("DATABASE_URL", proxy.via(directUrl));
});
afterAll(async () => {
  await proxy?.set("pass");
  await closeDatabase();
  vi.unstubAllEnvs();
  await proxy?.close();
});

async function timedHealth() {
  const start = performance.now();
  const response = await GET(new Request("http://localhost/api/health"));
  return { status: response.status, body: await response.json(), ms: performance.now() - start };
}

describe.skipIf(!postgres)("GET /api/health with the primary hung", () => {
  it("answers 503 within its bound on every probe, and 200 again once the database answers", async () => {
    expect((await timedHealth()).status).toBe(200);
    const errors = spyOnLog("error");
    await proxy.set("blackhole");
    const probes = [];
    // A balancer probing every half second, then five at once.
    for (let i = 0; i < 4; i++) {
      probes.push(await timedHealth());
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    probes.push(...(await Promise.all(Array.from({ length: 5 }, timedHealth))));
    for (const probe of probes) {
      expect(probe.status).toBe(503);
      expect(probe.body).toMatchObject({ status: "unavailable", database: { reachable: false } });
      // The bound is 2 s; a little over it for a loaded machine, far under the 10 s an API answer may take.
      expect(probe.ms).toBeLessThan(3_000);
    }
    // Probes joined the check under way: at most the one connection of the first probe's pool is held in the hang.
    expect(proxy.connections).toBeLessThanOrEqual(2);
    expect(errors.mock.calls.filter(([message]) => /Health check: the database/.test(message))).toHaveLength(1);

    await proxy.set("pass");
    proxy.drop();
    let recovered = await timedHealth();
    for (let i = 0; i < 20 && recovered.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      recovered = await timedHealth();
    }
    expect(recovered.status).toBe(200);
  });
});
