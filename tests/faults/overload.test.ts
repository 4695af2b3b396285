// Load shedding at the HTTP server, before Next: over API_MAX_IN_FLIGHT API requests in flight (default the size of
// the database pool), the next is a 503 at once, before Next's router, authentication or the database; the ones in flight
// finish normally, and a request that ends in any way (answered, aborted) leaves the count. A stand-in for Next holds
// the admitted requests in most tests here; the last runs the built server (`npm run build` first).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { inFlightLimit, requestsDrained, shedOrCount } from "@/lib/api/in-flight";
import { apiRoute, endpoint } from "@/lib/api/route";
import { poolConfig } from "@/lib/db/client";
import { installBeforeNext } from "@/lib/http/before-next";
import { call, tokenFor } from "../support/api";
import { BuiltServerDatabase, built, client, kill, startServer } from "../support/built-server";

let server: http.Server;
let base: string;
/** The requests the stand-in for Next was handed, and how to let the held ones answer. */
let reachedNext: string[] = [];
let releaseHeld = () => {};
let held = Promise.resolve();

function holdRequests() {
  held = new Promise((resolve) => {
    releaseHeld = resolve;
  });
}

beforeAll(async () => {
  installBeforeNext(shedOrCount);
  server = http.createServer(async (request, response) => {
    reachedNext.push(request.url!);
    if (request.url!.startsWith("/api/v1/hold")) await held;
    response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
afterEach(async () => {
  releaseHeld();
  vi.unstubAllEnvs();
  expect(await requestsDrained(5_000)).toBe(true);
  reachedNext = [];
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A request on its own connection; `abort` destroys it before any answer. */
function send(path: string, headers: Record<string, string> = {}) {
  const request = http.request(`${base}${path}`, { headers, agent: false });
  const answer = new Promise<Answer>((resolve, reject) => {
    request.on("response", (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, text }));
    });
    request.on("error", reject);
  });
  request.end();
  return { answer, abort: () => request.destroy() };
}

/** Fills the instance with `count` API requests that the stand-in holds until released. */
async function fill(count: number) {
  holdRequests();
  const sent = Array.from({ length: count }, () => send("/api/v1/hold"));
  await vi.waitFor(() => expect(reachedNext.filter((url) => url === "/api/v1/hold")).toHaveLength(count));
  return sent;
}

describe("the limit of API requests in flight, at the server", () => {
  it("answers 503 JSON with Retry-After at once, before Next, and serves again when requests finish", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "3");
    const inFlight = await fill(3);

    const start = performance.now();
    // No token: still a 503, since nothing (authentication included) ran.
    const shed = await send("/api/v1/me").answer;
    expect(performance.now() - start).toBeLessThan(1_000);
    expect(shed.status).toBe(503);
    expect(shed.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(shed.text)).toEqual({ message: expect.stringMatching(/too many requests/i) });
    expect(Number(shed.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(shed.headers["cache-control"]).toBe("no-store");
    expect(shed.headers["x-content-type-options"]).toBe("nosniff");
    expect(reachedNext).not.toContain("/api/v1/me");

    releaseHeld();
    for (const { answer } of inFlight) expect((await answer).status).toBe(200);
    expect((await send("/api/v1/me").answer).status).toBe(200);
  });

  it("counts only /api/v1: health, liveness, sign-in and pages go through when the API is full", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "1");
    await fill(1);
    for (const path of ["/api/live", "/api/health", "/api/auth/session", "/api/v10/x", "/clients", "/"]) {
      expect((await send(path).answer).status, path).toBe(200);
    }
    expect((await send("/api/v1?x=1").answer).status).toBe(503);
  });

  it("leaves no count behind when callers abort their requests", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "2");
    const aborted = await fill(2);
    for (const { abort, answer } of aborted) {
      abort();
      await expect(answer).rejects.toThrow();
    }
    expect(await requestsDrained(5_000)).toBe(true);

    const again = await fill(2);
    expect((await send("/api/v1/me").answer).status).toBe(503);
    releaseHeld();
    for (const { answer } of again) expect((await answer).status).toBe(200);
  });

  it("defaults to the size of the database pool", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "");
    vi.stubEnv("DATABASE_POOL_SIZE", "");
    expect(inFlightLimit()).toBe(poolConfig("postgresql://localhost").max);
    vi.stubEnv("DATABASE_POOL_SIZE", "3");
    const inFlight = await fill(3);
    expect((await send("/api/v1/me").answer).status).toBe(503);
    releaseHeld();
    for (const { answer } of inFlight) expect((await answer).status).toBe(200);
  });

  it("is off at API_MAX_IN_FLIGHT=0", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "0");
    await fill(50);
    expect((await send("/api/v1/me").answer).status).toBe(200);
  });
});

it("does not limit route handlers called without a server in front (the count is the server's)", async () => {
  vi.stubEnv("API_MAX_IN_FLIGHT", "1");
  const token = await tokenFor("owner@acme.test");
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
  const calls = Array.from({ length: 3 }, () => call(slow, "GET", "probe", { token }));
  await vi.waitFor(() => expect(started).toBe(3));
  release();
  for (const res of await Promise.all(calls)) expect(res.status).toBe(200);
});

describe.skipIf(!built || process.env.DATABASE_URL)("the built server", () => {
  const PORT = 3282;
  let database: BuiltServerDatabase;
  beforeAll(async () => {
    database = await BuiltServerDatabase.create();
  });
  afterAll(() => database.remove());

  it("refuses past API_MAX_IN_FLIGHT before authentication, and counts aborted requests out", async () => {
    const { server, exited } = await startServer(PORT, database, { API_MAX_IN_FLIGHT: "2" });
    const send = client(PORT, database);
    const anonymousStatus = async () => (await send("GET", "/api/v1/me", { token: null })).status;
    try {
      let resume = () => {};
      const held = new Promise<void>((resolve) => {
        resume = resolve;
      });
      // Creates whose bodies are still arriving: in flight until resumed.
      const creates = [0, 1].map((i) => send("POST", "/api/v1/clients", { body: { name: `Held ${i}` }, pause: held }));
      // A 503 rather than the 401 it gets otherwise: refused before its token was looked at.
      await vi.waitFor(async () => expect(await anonymousStatus()).toBe(503), { timeout: 10_000 });
      const shed = await send("GET", "/api/v1/clients");
      expect(shed.status).toBe(503);
      expect(shed.body).toEqual({ message: expect.stringMatching(/too many requests/i) });
      expect(Number(shed.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(shed.headers["cache-control"]).toBe("no-store");
      expect((await send("GET", "/api/live")).status).toBe(200);
      resume();
      for (const res of await Promise.all(creates)) expect(res.status).toBe(201);
      expect(await anonymousStatus()).toBe(401);

      const aborts = [0, 1].map(() => new AbortController());
      const aborted = aborts.map(({ signal }, i) =>
        send("POST", "/api/v1/clients", { body: { name: `Aborted ${i}` }, pause: new Promise(() => {}), signal }),
      );
      await vi.waitFor(async () => expect(await anonymousStatus()).toBe(503), { timeout: 10_000 });
      for (const controller of aborts) controller.abort();
      for (const request of aborted) await expect(request).rejects.toThrow();
      await vi.waitFor(async () => expect(await anonymousStatus()).toBe(401), { timeout: 5_000 });
    } finally {
      kill(server, "SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
