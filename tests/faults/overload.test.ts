// Load shedding: over API_MAX_IN_FLIGHT requests in flight, the next is a 503 at once (before authentication), and
// the ones already in flight finish normally.
import { afterEach, expect, it, vi } from "vitest";
import * as meRoute from "@/app/api/v1/me/route";
import { apiRoute, endpoint } from "@/lib/api/route";
import { call, tokenFor } from "../support/api";

afterEach(() => {
  vi.unstubAllEnvs();
});

it("answers 503 with Retry-After at once beyond API_MAX_IN_FLIGHT, and serves again when requests finish", async () => {
  vi.stubEnv("API_MAX_IN_FLIGHT", "3");
  const token = await tokenFor("owner@acme.test");
  expect((await call(meRoute, "GET", "me", { token })).status).toBe(200); // loads what the first call loads
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started = 0;
  const slow = apiRoute(null, {
    GET: endpoint({
      handler: async () => {
        started++;
        await gate;
        return { done: true };
      },
    }),
  });

  const inFlight = Array.from({ length: 3 }, () => call(slow, "GET", "probe", { token }));
  await vi.waitFor(() => expect(started).toBe(3));

  const start = performance.now();
  const shed = await call(meRoute, "GET", "me", { token: null });
  expect(performance.now() - start).toBeLessThan(1_000);
  expect(shed.status).toBe(503); // not 401: refused before authentication
  expect(shed.body).toEqual({ message: expect.stringMatching(/too many requests/i) });
  expect(Number(shed.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

  release();
  for (const res of await Promise.all(inFlight)) expect(res.status).toBe(200);
  expect((await call(meRoute, "GET", "me", { token })).status).toBe(200);
});
