// The API requests (/api/v1) this instance is answering, counted at the HTTP server before Next routes them
// (lib/http/before-next.ts, installed by instrumentation.ts): in on the server's 'request' event, out when the answer
// is sent or the connection closes, so an aborted request does not stay counted. Over API_MAX_IN_FLIGHT the next is
// refused at once with a 503 written on the socket, before authentication or any database work; the ones in flight
// finish normally. A shutdown waits for the count to reach zero. Only a server counts: route handlers called without
// one (the in-process tests) are not limited.
// The default is the database pool's size (DATABASE_POOL_SIZE): every admitted request needs a pooled connection, and
// more in flight only wait for one while sharing the event loop. Measured on `clients?limit=50` at 4× the peak, closed
// and open loop: the pool's size answered more, and faster, than twice it or 64.
import type { IncomingMessage, ServerResponse } from "node:http";
import { poolConfig } from "@/lib/db/client";
import { underApiV1 } from "@/lib/http/api-path";
import { API_HEADERS } from "@/lib/http/security-headers";
import { logThrottled, serviceUnavailable } from "./unavailable";

// On globalThis: the built server may load this module more than once (each bundle its own copy), and both the front
// door and the shutdown must see the one count.
interface InFlight {
  count: number;
  onIdle: Set<() => void>;
}
const state = ((globalThis as { __cjtInFlight?: InFlight }).__cjtInFlight ??= { count: 0, onIdle: new Set() });

/** API_MAX_IN_FLIGHT, else the size of the database pool; 0 for no limit. */
export function inFlightLimit(): number {
  const setting = process.env.API_MAX_IN_FLIGHT;
  if (setting) return Number(setting);
  return Number(poolConfig(process.env.DATABASE_URL || "postgresql://localhost").max);
}

const overloaded = serviceUnavailable("overloaded");
const OVERLOADED_BODY = JSON.stringify({ message: overloaded.message });
const OVERLOADED_HEADERS = {
  ...API_HEADERS,
  ...overloaded.headers,
  "Content-Type": "application/json",
  "Content-Length": String(Buffer.byteLength(OVERLOADED_BODY)),
};

/**
 * The front door's count (lib/http/before-next.ts): an API request is counted in until its answer is sent or its
 * connection closes, or, with the instance at its limit, answered with the 503 here (true).
 */
export function shedOrCount(request: IncomingMessage, response: ServerResponse): boolean {
  if (!underApiV1(request.url ?? "/")) return false;
  const limit = inFlightLimit();
  if (limit > 0 && state.count >= limit) {
    logThrottled("overloaded", "Answering 503: over API_MAX_IN_FLIGHT requests in flight.");
    response.writeHead(503, OVERLOADED_HEADERS).end(OVERLOADED_BODY);
    return true;
  }
  state.count++;
  let counted = true;
  const leave = () => {
    if (!counted) return;
    counted = false;
    state.count--;
    if (state.count === 0) for (const resolve of state.onIdle) resolve();
  };
  response.once("finish", leave).once("close", leave);
  return false;
}

/** Resolves true once no API request is in flight, or false after `timeoutMs`. */
export function requestsDrained(timeoutMs: number): Promise<boolean> {
  if (state.count === 0) return Promise.resolve(true);
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
