// Admission at the HTTP server, before Next: over API_MAX_IN_FLIGHT API requests in flight (default the size of the
// database pool), the next waits, in order, for a place, and is a 503 once it has waited API_MAX_QUEUE_MS (default
// 500 ms), before Next's router, authentication or the database; the ones in flight finish normally, and a request
// that ends in any way (answered, aborted, in flight or waiting) leaves the count. A stand-in for Next holds
// the admitted requests in most tests here; the last runs the built server (`npm run build` first).

import { createHash } from "node:crypto";
import http from "node:http";
import { type AddressInfo, connect } from "node:net";
import { availableParallelism } from "node:os";
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  admitOrQueue,
  inFlightLimit,
  queueWaitLimitMs,
  rememberTokenTenant,
  requestsDrained,
} from "@/lib/api/in-flight";
import { apiRoute } from "@/lib/api/route";
import { poolConfig } from "@/lib/db/client";
import { installBeforeNext } from "@/lib/http/before-next";
import { call, tokenFor } from "../support/api";
import { BuiltServerDatabase, built, client, freePort, kill, startServer } from "../support/built-server";
import { captureLog } from "../support/log";

let server: http.Server;
let base: string;
/** The requests the stand-in for Next was handed, and how to let the held ones answer. */
let reachedNext: string[] = [];
let releaseHeld = () => {};
/** Told when the stand-in's big answer's connection closes. */
let bigAnswerClosed: (() => void) | undefined;
let held = Promise.resolve();
/** How many chunks the stand-in's streamed answer has made (a page's statements, in the app). */
let streamChunks = 0;
/** The responses of the requests to /api/v1/weak-*, to see whether any is kept once answered. */
const weakResponses: WeakRef<object>[] = [];
/** As a pooled connection opened while answering: something long-lived made within a request's work (its context). */
const openLongLived = () => setTimeout(Boolean, 60_000).unref();
const STREAM_CHUNKS = 16;
/** How long the stand-in holds /api/v1/slow-*: a heavy request's place time. */
const SLOW_MS = 400;
/** How many chunks the stream had made when each request reached the stand-in. */
const chunksWhenReached = new Map<string, number>();

/** Holds /api/v1/linger apart from the held requests, until released. */
let lingering = Promise.resolve();
let releaseLingering = () => {};

function holdRequests() {
  held = new Promise((resolve) => {
    releaseHeld = resolve;
  });
}

beforeAll(async () => {
  installBeforeNext(admitOrQueue);
  server = http.createServer(async (request, response) => {
    reachedNext.push(request.url!);
    chunksWhenReached.set(request.url!, streamChunks);
    if (request.url === "/api/v1/linger") await lingering;
    if (request.url!.startsWith("/api/v1/hold")) await held;
    // As a 1,000-row page: holds its place a while.
    if (request.url!.startsWith("/api/v1/slow")) await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    if (request.url!.startsWith("/api/v1/weak-")) {
      weakResponses.push(new WeakRef(response));
      openLongLived();
    }
    if (request.url!.startsWith("/api/v1/stream")) {
      // As Next pipes a streamed page: the next chunk is made once the last was taken ('drain').
      response.writeHead(200, { "Content-Type": "application/json" });
      for (streamChunks = 0; streamChunks < STREAM_CHUNKS && !response.destroyed; ) {
        streamChunks++;
        if (!response.write(Buffer.alloc(1024 * 1024, "x")))
          await new Promise((resolve) => {
            response.once("drain", resolve);
            response.once("close", resolve);
          });
      }
      return response.end();
    }
    if (request.url!.startsWith("/api/v1/big")) {
      response.once("close", () => bigAnswerClosed?.());
      return response.end(Buffer.alloc(32 * 1024 * 1024, "x"));
    }
    response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
afterEach(async () => {
  releaseHeld();
  releaseLingering();
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

/** Sends `/api/v1/next-<name>` for each name, each 50 ms after the one before, while the instance is full. */
async function queueInTurn(names: string[]) {
  const sent = [];
  for (const name of names) {
    sent.push(send(`/api/v1/next-${name}`));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(reachedNext.filter((url) => url.startsWith("/api/v1/next-"))).toEqual([]);
  return sent;
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
/** How many of the held requests have reached the stand-in for Next. */
const holds = () => reachedNext.filter((url) => url === "/api/v1/hold").length;

/** Four places and long waits; each token remembered as its firm's, as authentication does once it is known. */
function fourPlaces(firmOfToken: Record<string, number>) {
  vi.stubEnv("API_MAX_IN_FLIGHT", "4");
  vi.stubEnv("API_MAX_QUEUE_MS", "10000");
  for (const [token, firm] of Object.entries(firmOfToken))
    rememberTokenTenant(createHash("sha256").update(token).digest("hex"), firm);
}

describe("the limit of API requests in flight, at the server", () => {
  it("holds a request past the limit until a place frees, then hands it to Next", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "2");
    vi.stubEnv("API_MAX_QUEUE_MS", "10000");
    const inFlight = await fill(2);
    const waiting = send("/api/v1/me");
    // Waiting, not refused: it has not reached Next and has no answer.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reachedNext).not.toContain("/api/v1/me");
    let answered = false;
    void waiting.answer.then(() => (answered = true));
    expect(answered).toBe(false);

    releaseHeld();
    for (const { answer } of inFlight) expect((await answer).status).toBe(200);
    expect((await waiting.answer).status).toBe(200);
    expect(reachedNext).toContain("/api/v1/me");
  });

  it.each([
    // The oldest has waited ~150 ms of 10 s when places free: a short-lived queue, served in order of arrival.
    ["in the order they arrived while the queue is short-lived", "10000", 0, ["a", "b", "c"]],
    // ...and ~400 ms of 1 s, past a fifth of it: a standing queue, served newest first.
    [
      "newest first once the queue is standing (its oldest has waited a fifth of API_MAX_QUEUE_MS)",
      "1000",
      250,
      ["c", "b", "a"],
    ],
  ] as const)("admits waiting requests %s", async (_, maxQueueMs, pause, order) => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "1");
    vi.stubEnv("API_MAX_QUEUE_MS", maxQueueMs);
    const [first] = await fill(1);
    const waiting = await queueInTurn(["a", "b", "c"]);
    await new Promise((resolve) => setTimeout(resolve, pause));
    releaseHeld();
    expect((await first.answer).status).toBe(200);
    for (const { answer } of waiting) expect((await answer).status).toBe(200);
    expect(reachedNext.filter((url) => url.startsWith("/api/v1/next-"))).toEqual(order.map((n) => `/api/v1/next-${n}`));
  });

  it("refuses the oldest waiting request when more than 1,024 wait", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "1");
    vi.stubEnv("API_MAX_QUEUE_MS", "30000");
    const [first] = await fill(1);
    const [oldest] = await queueInTurn(["oldest"]);
    const more = Array.from({ length: 1024 }, (_, i) => send(`/api/v1/more-${i}`));
    expect((await oldest.answer).status).toBe(503);
    releaseHeld();
    expect((await first.answer).status).toBe(200);
    for (const { answer } of more) expect((await answer).status).toBe(200);
    expect(reachedNext).not.toContain("/api/v1/next-oldest");
  });

  it("answers 503 JSON with Retry-After once a request has waited API_MAX_QUEUE_MS, before Next", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "3");
    vi.stubEnv("API_MAX_QUEUE_MS", "300");
    const inFlight = await fill(3);

    const start = performance.now();
    // No token: still a 503, since nothing (authentication included) ran.
    const shed = await send("/api/v1/me").answer;
    const waited = performance.now() - start;
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(5_000);
    expect(shed.status).toBe(503);
    expect(shed.headers["content-type"]).toBe("application/json");
    // Refused at the front door, and still with its request id, in the body as in the header.
    expect(JSON.parse(shed.text)).toEqual({
      message: expect.stringMatching(/too many requests/i),
      request_id: shed.headers["x-request-id"],
    });
    expect(shed.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(shed.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(shed.headers["cache-control"]).toBe("no-store");
    expect(shed.headers["x-content-type-options"]).toBe("nosniff");
    expect(reachedNext).not.toContain("/api/v1/me");

    releaseHeld();
    for (const { answer } of inFlight) expect((await answer).status).toBe(200);
    expect((await send("/api/v1/me").answer).status).toBe(200);
  });

  it("logs whom each 503 refused and why: the firm of a known token, the hash prefix of any other", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "1");
    vi.stubEnv("API_MAX_QUEUE_MS", "200");
    rememberTokenTenant(createHash("sha256").update("token-of-refused").digest("hex"), 41);
    const log = captureLog();
    try {
      const inFlight = await fill(1);
      const refused = await Promise.all([
        send("/api/v1/me", bearer("token-of-refused")).answer,
        send("/api/v1/me", bearer("token-of-a-stranger")).answer,
        send("/api/v1/me").answer,
      ]);
      expect(refused.map(({ status }) => status)).toEqual([503, 503, 503]);
      releaseHeld();
      for (const { answer } of inFlight) expect((await answer).status).toBe(200);
      // (Lines are summarised per party for 30 s: the request without a token may have been counted, not logged, if
      // an earlier test's was.)
      const lines = log.lines.filter((line) => line.kind === "refusal" && line.status === 503);
      const prefix = (token: string) => createHash("sha256").update(token).digest("hex").slice(0, 12);
      expect(lines).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            reason: "queue-wait",
            tenant_id: 41,
            token_hash_prefix: prefix("token-of-refused"),
          }),
          expect.objectContaining({
            reason: "queue-wait",
            tenant_id: null,
            token_hash_prefix: prefix("token-of-a-stranger"),
          }),
        ]),
      );
    } finally {
      log.restore();
    }
  });

  it("refuses at once with API_MAX_QUEUE_MS=0", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "1");
    vi.stubEnv("API_MAX_QUEUE_MS", "0");
    await fill(1);
    const start = performance.now();
    expect((await send("/api/v1/me").answer).status).toBe(503);
    expect(performance.now() - start).toBeLessThan(1_000);
    expect(reachedNext).not.toContain("/api/v1/me");
  });

  it("counts /api/v1 and /api/mcp only: health, liveness, sign-in and pages go through when the API is full", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "1");
    vi.stubEnv("API_MAX_QUEUE_MS", "0");
    await fill(1);
    for (const path of ["/api/live", "/api/health", "/api/auth/session", "/api/v10/x", "/api/mcpx", "/clients", "/"]) {
      expect((await send(path).answer).status, path).toBe(200);
    }
    // An MCP tool call runs an endpoint: it waits for a place like the endpoint's own request.
    for (const path of ["/api/v1?x=1", "/api/mcp", "/api/mcp?x=1"])
      expect((await send(path).answer).status, path).toBe(503);
  });

  it("leaves no count behind when callers abort their requests, in flight or waiting", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "2");
    vi.stubEnv("API_MAX_QUEUE_MS", "10000");
    const aborted = await fill(2);
    const abortedWhileWaiting = send("/api/v1/gone");
    await new Promise((resolve) => setTimeout(resolve, 100));
    abortedWhileWaiting.abort();
    await expect(abortedWhileWaiting.answer).rejects.toThrow();
    for (const { abort, answer } of aborted) {
      abort();
      await expect(answer).rejects.toThrow();
    }
    expect(await requestsDrained(5_000)).toBe(true);
    // The request whose caller left while it waited never reached Next.
    expect(reachedNext).not.toContain("/api/v1/gone");

    vi.stubEnv("API_MAX_QUEUE_MS", "0");
    const again = await fill(2);
    expect((await send("/api/v1/me").answer).status).toBe(503);
    releaseHeld();
    for (const { answer } of again) expect((await answer).status).toBe(200);
  });

  it("defaults to 2 per CPU, at most the size of the database pool, and to a wait of half a second", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "");
    vi.stubEnv("API_MAX_QUEUE_MS", "");
    vi.stubEnv("DATABASE_POOL_SIZE", "");
    expect(inFlightLimit()).toBe(Math.min(poolConfig("postgresql://localhost").max!, 2 * availableParallelism()));
    expect(queueWaitLimitMs()).toBe(500);
    vi.stubEnv("DATABASE_POOL_SIZE", "2");
    expect(inFlightLimit()).toBe(2);
    const inFlight = await fill(2);
    const start = performance.now();
    expect((await send("/api/v1/me").answer).status).toBe(503);
    expect(performance.now() - start).toBeGreaterThanOrEqual(450);
    releaseHeld();
    for (const { answer } of inFlight) expect((await answer).status).toBe(200);
  });

  it("serves tenants by place time: a free place goes to the tenant whose requests held least, not to the first waiting", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "2");
    vi.stubEnv("API_MAX_QUEUE_MS", "10000");
    // As authentication does once each token is known: the door then queues them with their tenants.
    rememberTokenTenant(createHash("sha256").update("token-of-a").digest("hex"), 1);
    rememberTokenTenant(createHash("sha256").update("token-of-b").digest("hex"), 2);
    holdRequests();
    const holding = [0, 1].map(() => send("/api/v1/hold", bearer("token-of-a")));
    await vi.waitFor(() => expect(reachedNext.filter((url) => url === "/api/v1/hold")).toHaveLength(2));
    const waiting = [];
    for (const name of ["a1", "a2", "a3", "b1"]) {
      waiting.push(send(`/api/v1/next-${name}`, bearer(name.startsWith("a") ? "token-of-a" : "token-of-b")));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // A forged token is no tenant's: it waits in the anonymous queue, behind nobody's share but its own.
    waiting.push(send("/api/v1/next-forged", bearer("token-of-nobody")));
    await new Promise((resolve) => setTimeout(resolve, 50));
    releaseHeld();
    for (const { answer } of [...holding, ...waiting]) expect((await answer).status).toBe(200);
    const order = reachedNext.filter((url) => url.startsWith("/api/v1/next-")).map((url) => url.slice(13));
    // A held both places and B none: B's one request goes first, though it came after three of A's.
    expect(order[0]).toBe("b1");
    expect(order.filter((name) => name.startsWith("a"))).toEqual(["a1", "a2", "a3"]);
    expect(order.indexOf("forged")).toBeLessThan(order.indexOf("a2"));
  });

  it("gives a busy firm at most its fair share while another firm is active, and every place when it is alone", async () => {
    fourPlaces({ "token-of-busy": 3, "token-of-quiet": 4 });
    // Whatever firms an earlier test left active lapse (the one before had two): then the busy firm is alone.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    reachedNext = [];
    // Alone, the busy firm uses every place.
    holdRequests();
    const alone = Array.from({ length: 4 }, () => send("/api/v1/hold", bearer("token-of-busy")));
    await vi.waitFor(() => expect(holds()).toBe(4));
    releaseHeld();
    for (const { answer } of alone) expect((await answer).status).toBe(200);
    reachedNext = [];
    // The quiet firm sends one request: for a while it is active, and the places are shared between two.
    expect((await send("/api/v1/quiet-1", bearer("token-of-quiet")).answer).status).toBe(200);
    const quietAt = performance.now();
    holdRequests();
    const busy = Array.from({ length: 4 }, () => send("/api/v1/hold", bearer("token-of-busy")));
    await vi.waitFor(() => expect(holds()).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(holds()).toBe(2);
    // Two places are free, and the quiet firm's next request takes one at once.
    const quiet = await send("/api/v1/quiet-2", bearer("token-of-quiet")).answer;
    expect(quiet.status).toBe(200);
    expect(holds()).toBe(2);
    // Once the quiet firm has sent nothing for a second, the busy firm is alone again and takes the free places.
    await vi.waitFor(() => expect(holds()).toBe(4), { timeout: 3_000 });
    expect(performance.now() - quietAt).toBeGreaterThanOrEqual(1_000);
    releaseHeld();
    for (const { answer } of busy) expect((await answer).status).toBe(200);
  });

  it("holds a firm whose requests wait to API_WAITING_SHARE of its share while another firm's find places at once", async () => {
    fourPlaces({ "token-of-busy": 3, "token-of-quiet": 4 });
    vi.stubEnv("API_WAITING_SHARE", "0.5");
    expect((await send("/api/v1/quiet-1", bearer("token-of-quiet")).answer).status).toBe(200);
    const quietAt = performance.now();
    // Two of the busy firm's six take its share of the places; four wait.
    holdRequests();
    const busy = Array.from({ length: 6 }, () => send("/api/v1/hold", bearer("token-of-busy")));
    await vi.waitFor(() => expect(holds()).toBe(2));
    // Its two answered: of those waiting, one gets a place (half its share of two), and three places stay free.
    releaseHeld();
    holdRequests();
    await vi.waitFor(() => expect(holds()).toBe(3));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(holds()).toBe(3);
    const quiet = await send("/api/v1/quiet-2", bearer("token-of-quiet")).answer;
    expect(quiet.status).toBe(200);
    // Once the quiet firm has lapsed, the busy firm is alone and takes every place.
    await vi.waitFor(() => expect(holds()).toBe(6), { timeout: 3_000 });
    expect(performance.now() - quietAt).toBeGreaterThanOrEqual(1_000);
    releaseHeld();
    for (const { answer } of busy) expect((await answer).status).toBe(200);
  });

  it("paces a waiting firm whose share is under one place to that share of a place's time once it has used a second of it", async () => {
    // The default: an eighth of a share of two places is a quarter of a place, a place busy a quarter of the time.
    fourPlaces({ "token-of-busy": 3, "token-of-quiet": 4 });
    expect((await send("/api/v1/quiet-1", bearer("token-of-quiet")).answer).status).toBe(200);
    // Two of the busy firm's three find places at once (its share of two); the third waits.
    holdRequests();
    const busy = Array.from({ length: 3 }, () => send("/api/v1/hold", bearer("token-of-busy")));
    await vi.waitFor(() => expect(holds()).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await send("/api/v1/quiet-2", bearer("token-of-quiet")).answer).status).toBe(200);
    const releasedAt = performance.now();
    releaseHeld();
    holdRequests();
    // 1.2 s of place time used, 0.2 s past its second's credit: at a quarter of a place it rests 0.8 s, while the
    // quiet firm's requests find places at once.
    expect((await send("/api/v1/quiet-3", bearer("token-of-quiet")).answer).status).toBe(200);
    expect(holds()).toBe(2);
    await vi.waitFor(() => expect(holds()).toBe(3), { timeout: 2_000 });
    expect(performance.now() - releasedAt).toBeGreaterThanOrEqual(790);
    releaseHeld();
    for (const { answer } of busy) expect((await answer).status).toBe(200);
  });

  it("does not pace a waiting firm's ordinary burst beside a quiet firm (under a second of place time)", async () => {
    fourPlaces({ "token-of-busy": 3, "token-of-quiet": 4 });
    // Whatever credit an earlier test spent grows back.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await send("/api/v1/quiet-1", bearer("token-of-quiet")).answer).status).toBe(200);
    reachedNext = [];
    holdRequests();
    const busy = Array.from({ length: 3 }, () => send("/api/v1/hold", bearer("token-of-busy")));
    await vi.waitFor(() => expect(holds()).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const releasedAt = performance.now();
    releaseHeld();
    holdRequests();
    // 0.2 s of place time: the third takes the freed place at once.
    await vi.waitFor(() => expect(holds()).toBe(3));
    expect(performance.now() - releasedAt).toBeLessThan(150);
    releaseHeld();
    for (const { answer } of busy) expect((await answer).status).toBe(200);
  });

  it("keeps a waiting firm's whole share beside requests of no known firm (a new token's first are among them)", async () => {
    fourPlaces({ "token-of-busy": 3 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    reachedNext = [];
    lingering = new Promise((resolve) => {
      releaseLingering = resolve;
    });
    const stranger = send("/api/v1/linger", bearer("token-of-nobody"));
    await vi.waitFor(() => expect(reachedNext).toContain("/api/v1/linger"));
    // Two active (the firm and the anonymous queue): the firm's share is two, and three of its five wait.
    holdRequests();
    const busy = Array.from({ length: 5 }, () => send("/api/v1/hold", bearer("token-of-busy")));
    await vi.waitFor(() => expect(holds()).toBe(2));
    // Its two answered, two of those waiting take their places: the stranger in flight is no quiet firm.
    releaseHeld();
    holdRequests();
    await vi.waitFor(() => expect(holds()).toBe(4));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(holds()).toBe(4);
    releaseLingering();
    releaseHeld();
    for (const { answer } of [stranger, ...busy]) expect((await answer).status).toBe(200);
  });

  it("gives each firm its whole share when every active firm's requests wait", async () => {
    fourPlaces({ "token-of-busy": 3, "token-of-other-busy": 5 });
    // Whatever firm an earlier test left active lapses: the busy firm is alone, takes every place and queues two.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    reachedNext = [];
    holdRequests();
    const first = Array.from({ length: 6 }, () => send("/api/v1/hold", bearer("token-of-busy")));
    await vi.waitFor(() => expect(holds()).toBe(4));
    // The other firm's three wait too: nobody finds a place at once, so no place is kept back.
    const second = Array.from({ length: 3 }, () => send("/api/v1/hold", bearer("token-of-other-busy")));
    await new Promise((resolve) => setTimeout(resolve, 100));
    releaseHeld();
    holdRequests();
    await vi.waitFor(() => expect(holds()).toBe(8));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(holds()).toBe(8);
    releaseHeld();
    for (const { answer } of [...first, ...second]) expect((await answer).status).toBe(200);
  });

  it("counts requests of no known firm as a firm only while they are in flight: after one, a firm alone keeps every place", async () => {
    fourPlaces({ "token-of-busy": 3 });
    // Whatever firm an earlier test left active lapses.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    reachedNext = [];
    // A stranger's request (a token no firm holds: a new token's first request looks the same at the door), answered.
    expect((await send("/api/v1/stranger", bearer("token-of-nobody")).answer).status).toBe(200);
    // Within the second after it, the firm alone takes every place (with the stranger counted, two of the four).
    holdRequests();
    const alone = Array.from({ length: 4 }, () => send("/api/v1/hold", bearer("token-of-busy")));
    await vi.waitFor(() => expect(holds()).toBe(4), { timeout: 500 });
    releaseHeld();
    for (const { answer } of alone) expect((await answer).status).toBe(200);
    reachedNext = [];
    // A stranger's request in flight still counts: the firm then holds its share, two, and one place stays free.
    holdRequests();
    const stranger = send("/api/v1/hold", bearer("token-of-nobody"));
    await vi.waitFor(() => expect(holds()).toBe(1));
    const shared = Array.from({ length: 4 }, () => send("/api/v1/hold", bearer("token-of-busy")));
    await vi.waitFor(() => expect(holds()).toBe(3));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(holds()).toBe(3);
    releaseHeld();
    for (const { answer } of [stranger, ...shared]) expect((await answer).status).toBe(200);
  });

  it("counts a token sent with the scheme in any case (`bearer`, as authentication reads it) as its firm's", async () => {
    fourPlaces({ "token-of-busy": 3 });
    // Whatever firm an earlier test left active lapses.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    reachedNext = [];
    // One firm's four requests, the scheme written three ways: the firm alone, it takes every place. Were the
    // lower-case ones read as no firm's, they would count as a second tenant and one of the four would wait.
    holdRequests();
    const alone = ["Bearer", "bearer", "BEARER", "bearer"].map((scheme) =>
      send("/api/v1/hold", { Authorization: `${scheme} token-of-busy` }),
    );
    await vi.waitFor(() => expect(holds()).toBe(4), { timeout: 1_000 });
    releaseHeld();
    for (const { answer } of alone) expect((await answer).status).toBe(200);
  });

  it("answers a quiet firm's light requests (≥ 99%) beside more busy firms than places: shares by place time", async () => {
    // Seven firms, each running six loops of heavy requests (400 ms of place time each), on four places with the
    // default wait; beside them a quiet firm sends light requests one after another. Turns per request would give
    // each busy firm as many turns as the quiet one, and its requests would wait behind theirs past the wait's limit.
    vi.stubEnv("API_MAX_IN_FLIGHT", "4");
    vi.stubEnv("API_MAX_QUEUE_MS", "500");
    const busyFirms = Array.from({ length: 7 }, (_, i) => `token-of-busy-${i}`);
    busyFirms.forEach((token, i) => rememberTokenTenant(createHash("sha256").update(token).digest("hex"), 20 + i));
    rememberTokenTenant(createHash("sha256").update("token-of-quiet").digest("hex"), 30);
    let quietDone = false;
    const busyAnswers: number[] = [];
    const loops = busyFirms.flatMap((token) =>
      Array.from({ length: 6 }, async (_, loop) => {
        for (let i = 0; !quietDone; i++)
          busyAnswers.push((await send(`/api/v1/slow-${token}-${loop}-${i}`, bearer(token)).answer).status);
      }),
    );
    // Let the busy firms fill the places and their queues first.
    await vi.waitFor(() => expect(busyAnswers.length).toBeGreaterThan(20), { timeout: 10_000 });
    const quietAnswers: number[] = [];
    for (let i = 0; i < 100; i++) {
      quietAnswers.push((await send(`/api/v1/quiet-${i}`, bearer("token-of-quiet")).answer).status);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    quietDone = true;
    await Promise.all(loops);
    const answered = quietAnswers.filter((status) => status === 200).length;
    expect(answered, `quiet firm: ${answered} of 100 answered`).toBeGreaterThanOrEqual(99);
    // The busy firms were served meanwhile, on the places the quiet firm did not need.
    expect(busyAnswers.filter((status) => status === 200).length).toBeGreaterThan(10);
  }, 60_000);

  it("frees the place of an answer its reader does not take, and cuts it at API_ANSWER_DEADLINE_MS", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "1");
    vi.stubEnv("API_MAX_QUEUE_MS", "2000");
    vi.stubEnv("API_ANSWER_DEADLINE_MS", "1000");
    const { port } = server.address() as AddressInfo;
    const closed = new Promise<{ after: number }>((resolve) => {
      const started = performance.now();
      bigAnswerClosed = () => resolve({ after: performance.now() - started });
    });
    const reader = connect(port, "127.0.0.1");
    reader.on("error", () => {});
    reader.write("GET /api/v1/big HTTP/1.1\r\nHost: x\r\n\r\n");
    reader.pause(); // never read: the 32 MB wait in the sockets' buffers
    await vi.waitFor(() => expect(reachedNext).toContain("/api/v1/big"));
    // The only place is free again: the handler ended its answer, and the rest is the network's.
    const start = performance.now();
    expect((await send("/api/v1/me").answer).status).toBe(200);
    expect(performance.now() - start).toBeLessThan(1_000);
    // Cut at the deadline (with no cut it would stay open as long as the reader does).
    const { after } = await Promise.race([
      closed,
      new Promise<never>((_, fail) => setTimeout(() => fail(new Error("not cut")), 5_000)),
    ]);
    expect(after).toBeGreaterThanOrEqual(800);
    expect(after).toBeLessThan(5_000);
    reader.destroy();
  });

  it("makes a streamed answer whose reader took what was written wait for a place before it makes the rest", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "1");
    vi.stubEnv("API_MAX_QUEUE_MS", "300");
    vi.stubEnv("API_READER_GRACE_MS", "50");
    const { port } = server.address() as AddressInfo;
    const reader = connect(port, "127.0.0.1");
    let received = 0;
    const ended = new Promise((resolve) => reader.on("end", resolve));
    reader.on("data", (chunk) => (received += chunk.length));
    reader.write("GET /api/v1/stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    reader.pause();
    await vi.waitFor(() => expect(reachedNext).toContain("/api/v1/stream"));
    // Waiting for its reader past API_READER_GRACE_MS, the stream holds no place: another request takes the only one,
    // and keeps it.
    const holder = (await fill(1))[0];
    const made = streamChunks;
    expect(made).toBeLessThan(STREAM_CHUNKS);
    reader.resume();
    // The reader takes what was written, but the rest is not made while the place is taken, though it waited
    // past API_MAX_QUEUE_MS: its head is sent, so it is never a 503.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(streamChunks).toBe(made);
    releaseHeld();
    expect((await holder.answer).status).toBe(200);
    await ended;
    expect(streamChunks).toBe(STREAM_CHUNKS);
    expect(received).toBeGreaterThan(STREAM_CHUNKS * 1024 * 1024);
  });

  it("keeps a streamed answer's place while its reader takes it within API_READER_GRACE_MS", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "1");
    vi.stubEnv("API_MAX_QUEUE_MS", "10000");
    vi.stubEnv("API_READER_GRACE_MS", "5000");
    const { port } = server.address() as AddressInfo;
    const reader = connect(port, "127.0.0.1");
    let received = 0;
    const ended = new Promise((resolve) => reader.on("end", resolve));
    // A reader that takes a pause after each piece, well within the grace.
    reader.on("data", (chunk) => {
      received += chunk.length;
      reader.pause();
      setTimeout(() => reader.resume(), 5);
    });
    reader.write("GET /api/v1/stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    await vi.waitFor(() => expect(reachedNext).toContain("/api/v1/stream"));
    const next = send("/api/v1/next-after-stream");
    // The page's work is done in its place; the request waiting gets it after.
    await ended;
    expect(received).toBeGreaterThan(STREAM_CHUNKS * 1024 * 1024);
    expect((await next.answer).status).toBe(200);
    expect(chunksWhenReached.get("/api/v1/next-after-stream")).toBe(STREAM_CHUNKS);
  });

  it("keeps nothing of an answered request, when requests are admitted one after another's end", async () => {
    vi.stubEnv("API_MAX_IN_FLIGHT", "1");
    vi.stubEnv("API_MAX_QUEUE_MS", "10000");
    // Each admitted as the one before ends: whatever its admission makes (timers) is made within that one's context.
    const sent = Array.from({ length: 30 }, (_, i) => send(`/api/v1/weak-${i}`));
    for (const { answer } of sent) expect((await answer).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    gc();
    gc();
    expect(weakResponses).toHaveLength(30);
    expect(weakResponses.filter((ref) => ref.deref() !== undefined).length).toBeLessThanOrEqual(2);
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
  const slow = apiRoute({
    method: "get",
    path: "/me",
    resource: null,
    handler: async () => {
      started++;
      await gate;
      return { done: true };
    },
  });
  const calls = Array.from({ length: 3 }, () => call(slow, "GET", "probe", { token }));
  await vi.waitFor(() => expect(started).toBe(3), { timeout: 30_000 });
  release();
  for (const res of await Promise.all(calls)) expect(res.status).toBe(200);
});

describe.skipIf(!built || process.env.DATABASE_URL)("the built server", () => {
  let PORT: number;
  let database: BuiltServerDatabase;
  beforeAll(async () => {
    PORT = await freePort();
    database = await BuiltServerDatabase.create();
  });
  afterAll(() => database.remove());

  // A request holds its place only while its handler works (tests/faults/capacity.test.ts): nothing a client does can
  // hold one open here, so refusals past the limit are shown by the stand-in above, and the server's queue here.
  /** Long pages sent together: more work than one place can take at once. */
  const burst = (send: ReturnType<typeof client>, count: number) =>
    Array.from({ length: count }, (_, i) => send("GET", `/api/v1/time-logs?per_page=1000&n=${i}`));

  it("holds requests past API_MAX_IN_FLIGHT until a place frees, and answers them then", async () => {
    const { server, exited } = await startServer(PORT, database, { API_MAX_IN_FLIGHT: "1", API_MAX_QUEUE_MS: "10000" });
    const send = client(PORT, database);
    try {
      for (const res of await Promise.all(burst(send, 8))) expect(res.status).toBe(200);
    } finally {
      kill(server, "SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
