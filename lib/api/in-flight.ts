// The API requests (/api/v1) this instance is answering, admitted at the HTTP server before Next routes them
// (lib/http/before-next.ts, installed by instrumentation.ts). At most API_MAX_IN_FLIGHT are handed to Next at once;
// the next ones wait for a place, and one that has waited API_MAX_QUEUE_MS (or is the oldest of more than
// MAX_WAITING) is answered 503 with Retry-After. Waiting requests are served in order of arrival, unless the queue is
// standing (its oldest has waited a fifth of the limit): then newest first, so that what is answered is answered
// soon and the requests refused are the ones that would have waited longest (adaptive LIFO, as in Facebook's "Fail
// at scale"). A request leaves when its answer is sent or its connection closes, so an aborted request does not stay
// counted, nor waiting. A shutdown waits for the count and the queue to empty. Only a server admits: route handlers
// called without one (the in-process tests) are not limited.
// Measured at 4x the peak (bench/RESULTS.md, Overload): refusing at once let refused callers retry at once, and the
// server spent its time refusing (58-71% of the peak answered); a bounded wait keeps the database busy with admitted
// work. The default limit is 2 per CPU, at most the database pool's size: each admitted request needs a pooled
// connection, and past that they only share the CPUs with PostgreSQL's busy backends and slow the event loop's own
// accepting of new connections (2 CPUs, open loop at 1,056 requests/s: with 6 in flight the listen queue overflowed
// and answered requests waited 2.4-5.6 s for their SYN to be retried, with 4 it did not, p99 0.45-0.7 s).
import type { IncomingMessage, ServerResponse } from "node:http";
import { availableParallelism } from "node:os";
import { poolConfig } from "@/lib/db/client";
import { underApiV1 } from "@/lib/http/api-path";
import { API_HEADERS } from "@/lib/http/security-headers";
import { errorBodyAtFrontDoor } from "@/lib/observability/request-id";
import { logThrottled, serviceUnavailable } from "./unavailable";

/** A request waiting for a place: handed to Next by `admit`. */
interface Waiting {
  response: ServerResponse;
  since: number;
  admit: () => void;
}

// On globalThis: the built server may load this module more than once (each bundle its own copy), and both the front
// door and the shutdown must see the one count and the one queue.
interface InFlight {
  count: number;
  queue: Waiting[];
  /** The timer that refuses the oldest waiting request when its wait runs out. */
  deadline?: NodeJS.Timeout;
  onIdle: Set<() => void>;
}
const state = ((globalThis as { __cjtInFlight?: InFlight }).__cjtInFlight ??= {
  count: 0,
  queue: [],
  onIdle: new Set(),
});

/** API_MAX_IN_FLIGHT, else 2 per CPU and at most the size of the database pool; 0 for no limit. */
export function inFlightLimit(): number {
  const setting = process.env.API_MAX_IN_FLIGHT;
  if (setting) return Number(setting);
  const pool = Number(poolConfig(process.env.DATABASE_URL || "postgresql://localhost").max);
  return Math.min(pool, 2 * availableParallelism());
}

/** API_MAX_QUEUE_MS: how long a request past the limit may wait for a place (0: refused at once). */
export function queueWaitLimitMs(): number {
  return Number(process.env.API_MAX_QUEUE_MS || 500);
}

/** At most this many requests wait; past it, the oldest is refused. */
const MAX_WAITING = 1024;
/** A queue whose oldest request has waited this share of API_MAX_QUEUE_MS is standing (see admitWaiting). */
const STANDING_SHARE = 0.2;

const overloaded = serviceUnavailable("overloaded");
const OVERLOADED_HEADERS = { ...API_HEADERS, ...overloaded.headers, "Content-Type": "application/json" };

function refuse(response: ServerResponse) {
  logThrottled(
    "overloaded",
    "Answering 503: API requests waited past API_MAX_QUEUE_MS for one of API_MAX_IN_FLIGHT places.",
  );
  if (response.destroyed) return;
  const body = errorBodyAtFrontDoor(response, overloaded.message);
  response.writeHead(503, { ...OVERLOADED_HEADERS, "Content-Length": String(Buffer.byteLength(body)) }).end(body);
}

/** A request still worth answering: its caller has not gone away. */
const waiting = (entry: Waiting) => !entry.response.destroyed && !entry.response.writableEnded;

/**
 * The front door's admission (lib/http/before-next.ts): an API request goes to Next (`pass`) at once while fewer than
 * the limit are in flight, else waits its turn; past its wait, or when the queue is standing, it is answered 503 here.
 */
export function admitOrQueue(request: IncomingMessage, response: ServerResponse, pass: () => void) {
  if (!underApiV1(request.url ?? "/")) return pass();
  const limit = inFlightLimit();
  if (limit <= 0) return enter(response, pass);
  dropDeparted();
  if (state.count < limit && state.queue.length === 0) return enter(response, pass);
  if (queueWaitLimitMs() <= 0) return refuse(response);
  const now = performance.now();
  state.queue.push({ response, since: now, admit: () => enter(response, pass) });
  if (state.queue.length > MAX_WAITING) refuse(state.queue.shift()!.response);
  armDeadline();
}

/** Counts the request in until its answer is sent or its connection closes, and hands it to Next. */
function enter(response: ServerResponse, pass: () => void) {
  state.count++;
  let counted = true;
  const leave = () => {
    if (!counted) return;
    counted = false;
    state.count--;
    admitWaiting();
  };
  response.once("finish", leave).once("close", leave);
  pass();
}

/** Fills the free places from the queue, oldest first; requests whose wait has run out are refused instead. */
function admitWaiting() {
  const limit = inFlightLimit();
  const maxWait = queueWaitLimitMs();
  while (state.queue.length > 0 && (limit <= 0 || state.count < limit)) {
    const now = performance.now();
    const oldest = state.queue[0];
    if (!waiting(oldest) || now - oldest.since >= maxWait) {
      state.queue.shift();
      if (waiting(oldest)) refuse(oldest.response);
      continue;
    }
    // A queue that keeps requests waiting is standing: the newest is then served first, so that what is answered is
    // answered soon, and the oldest, least likely to be served, are the ones refused when their wait runs out.
    const standing = now - oldest.since >= maxWait * STANDING_SHARE;
    const entry = standing ? state.queue.pop()! : state.queue.shift()!;
    if (waiting(entry)) entry.admit();
  }
  armDeadline();
}

function notifyIfIdle() {
  if (state.count === 0 && state.queue.length === 0) for (const resolve of state.onIdle) resolve();
}

/** Drops the requests at the head of the queue whose callers have gone. */
function dropDeparted() {
  while (state.queue.length > 0 && !waiting(state.queue[0])) state.queue.shift();
}

/** Refuses the waiting requests whose wait has run out, then waits for the next one's. */
function armDeadline() {
  clearTimeout(state.deadline);
  state.deadline = undefined;
  dropDeparted();
  const oldest = state.queue[0];
  if (!oldest) return notifyIfIdle();
  const maxWait = queueWaitLimitMs();
  state.deadline = setTimeout(
    () => {
      const now = performance.now();
      while (state.queue.length > 0 && now - state.queue[0].since >= maxWait) {
        const entry = state.queue.shift()!;
        if (waiting(entry)) refuse(entry.response);
      }
      armDeadline();
    },
    Math.max(0, oldest.since + maxWait - performance.now()),
  );
  state.deadline.unref();
}

/** Resolves true once no API request is in flight or waiting, or false after `timeoutMs`. */
export function requestsDrained(timeoutMs: number): Promise<boolean> {
  dropDeparted();
  if (state.count === 0 && state.queue.length === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (drained: boolean) => {
      clearTimeout(timer);
      state.onIdle.delete(idle);
      resolve(drained);
    };
    const idle = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    state.onIdle.add(idle);
  });
}
