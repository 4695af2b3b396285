// Upstash Redis out of reach (blackholed behind a fault proxy): the API keeps answering within about a second and
// logs the outage once, not once per request.
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { startUpstashEmulator, type UpstashEmulator } from "@/scripts/upstash-emulator";
import { call, tokenFor } from "../support/api";
import { startAppInstance } from "../support/app-instance";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy";
import { spyOnLog } from "../support/log";

let emulator: UpstashEmulator;
let proxy: FaultProxy;
beforeAll(async () => {
  emulator = await startUpstashEmulator();
  proxy = await startFaultProxy({ host: "127.0.0.1", port: Number(new URL(emulator.url).port) });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await proxy.close();
  await emulator.close();
});

it("fails open within about a second when Redis does not answer, and logs the outage once", async () => {
  const app = await startAppInstance({
    UPSTASH_REDIS_REST_URL: proxy.via(emulator.url),
    UPSTASH_REDIS_REST_TOKEN: emulator.token,
    RATE_LIMIT_KEY_PREFIX: `test:faults:${Date.now().toString(36)}`,
    RATE_LIMIT_PER_MINUTE: "100",
  });
  const token = await tokenFor("owner@acme.test");
  const counted = await call(app.me, "GET", "me", { token });
  expect(counted.headers.get("x-ratelimit-remaining")).toBe("99");

  const logged = spyOnLog("error");
  await proxy.set("blackhole");
  const start = performance.now();
  const answers = await Promise.all(Array.from({ length: 10 }, () => call(app.me, "GET", "me", { token })));
  const later = await call(app.me, "GET", "me", { token });
  expect(performance.now() - start).toBeLessThan(2_500);
  for (const res of [...answers, later]) expect(res.status).toBe(200);
  expect(logged.mock.calls.filter(([line]) => /Upstash Redis did not answer/.test(String(line)))).toHaveLength(1);
});
