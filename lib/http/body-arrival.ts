// An API request's body is read at the front door, before the request is counted among those in flight
// (lib/api/in-flight.ts): a place is for work, not for waiting on a client's network. The bytes that arrived are put
// back at the front of the request's own stream (Readable.unshift, before its end is emitted), so that Next reads the
// same IncomingMessage, now from memory (the built server's tests send POST and PUT bodies through it). A body that
// has not arrived within API_BODY_DEADLINE_MS is a JSON 408.
// Strangers cost little (decisions.md, Capacity): the token is not known yet, so a body is read ahead only for a
// request whose `Authorization` carries a well-formed token of this product (lib/tokens/format.ts: its shape and
// checksum, no database); any other request goes on at once, unread, and authentication refuses it without reading
// its body. And the bytes read ahead are bounded across the instance (API_READ_AHEAD_BYTES): a request whose body
// would take more is answered 503 and its connection closed; they count until the request is handed to Next (its
// token then looked at) or its connection closes (issue 54: 600 token-less sockets of 1 MB raised the server
// from 341 to 793 MB, still 830 MB 15 minutes later).
import type { IncomingMessage, ServerResponse } from "node:http";
import { logRefusalOf } from "@/lib/core/log";
import { errorBodyAtFrontDoor } from "@/lib/observability/request-id";
import { hashToken, isWellFormedToken, tokenOfAuthorization } from "@/lib/tokens/format";
import { API_HEADERS } from "./security-headers";

/** The largest body read ahead (lib/api/request.ts refuses larger ones with a 413 as it reads). */
const READ_AHEAD_BYTES = 1024 * 1024;

/** API_BODY_DEADLINE_MS: how long a request's body may take to arrive (default 10 s). */
export function bodyDeadlineMs(): number {
  return Number(process.env.API_BODY_DEADLINE_MS || 10_000);
}

/**
 * API_READ_AHEAD_BYTES: the bytes of unread bodies the instance holds at once before their tokens are known (default
 * 32 MB: 32 bodies of the largest size, eight times the default places in flight on 2 CPUs, so ordinary uploads never
 * meet it while a flood of forged tokens costs at most that).
 */
export function readAheadBudgetBytes(): number {
  return Number(process.env.API_READ_AHEAD_BYTES || 32 * 1024 * 1024);
}

/** The bytes held for bodies read ahead, across the instance (on globalThis: the built server may load this twice). */
const readAhead: { held: number; byRequest: WeakMap<IncomingMessage, number> } = ((
  globalThis as { __cjtReadAhead?: { held: number; byRequest: WeakMap<IncomingMessage, number> } }
).__cjtReadAhead ??= { held: 0, byRequest: new WeakMap() });

/** Takes `bytes` more of the budget for `request`'s body, or returns false when the instance holds too much already. */
function reserve(request: IncomingMessage, bytes: number): boolean {
  if (bytes <= 0) return true;
  if (readAhead.held + bytes > readAheadBudgetBytes()) return false;
  readAhead.held += bytes;
  readAhead.byRequest.set(request, (readAhead.byRequest.get(request) ?? 0) + bytes);
  return true;
}

/** Gives back the budget `request`'s body took: it is handed to Next (its token is looked at now) or gone. */
export function releaseReadAhead(request: IncomingMessage) {
  const bytes = readAhead.byRequest.get(request);
  if (bytes === undefined) return;
  readAhead.byRequest.delete(request);
  readAhead.held -= bytes;
}

/** The bytes the instance holds for bodies read ahead now (for tests and the operator). */
export const readAheadHeld = () => readAhead.held;

const TIMED_OUT = "The request body did not arrive in time: send it at once after the headers.";
const OVER_BUDGET = "The server is receiving too many request bodies at once. Try again shortly.";

/** Whether the request announces a body that has not been read yet. */
function bodyPending(request: IncomingMessage): boolean {
  if (request.complete) return false;
  if (request.headers["transfer-encoding"] !== undefined) return true;
  const declared = Number(request.headers["content-length"] ?? 0);
  // A declared size over the limit is refused by the route before it reads anything: nothing to wait for.
  return declared > 0 && declared <= READ_AHEAD_BYTES;
}

/**
 * Calls `arrived` once the request's body is in memory (at once when it has none), or answers 408 and closes the
 * connection when it has not arrived within the deadline. A caller that goes away meanwhile is simply dropped.
 */
export function whenBodyArrived(request: IncomingMessage, response: ServerResponse, arrived: () => void) {
  if (!bodyPending(request)) return arrived();
  const token = tokenOfAuthorization(request.headers.authorization);
  // No token of this product: nothing to wait for, authentication refuses it without reading its body, and the
  // connection closes with the answer (the rest of the body is not read either, however slowly it comes).
  if (!token || !isWellFormedToken(token)) {
    response.shouldKeepAlive = false;
    return arrived();
  }
  response.once("close", () => releaseReadAhead(request));
  const declared = Number(request.headers["content-length"] ?? 0);
  if (!reserve(request, declared)) return refuseOverBudget(request, response, token);
  let chunks: Buffer[] = [];
  let size = 0;
  const done = () => {
    clearTimeout(timer);
    request.off("readable", read).off("close", done);
  };
  const timer = setTimeout(() => {
    done();
    closeWith(request, response, 408, TIMED_OUT);
  }, bodyDeadlineMs());
  timer.unref();
  function read() {
    // read(n) with the exact buffered length: a bare read() at the end would emit 'end' before the bytes are put back.
    while (request.readableLength > 0) {
      const chunk = request.read(request.readableLength) as Buffer | null;
      if (!chunk) break;
      chunks.push(chunk);
      size += chunk.length;
    }
    // A body sent in chunks (no Content-Length) takes the budget as it arrives.
    const reserved = readAhead.byRequest.get(request) ?? 0;
    if (size > reserved && !reserve(request, size - reserved)) {
      done();
      chunks = [];
      return refuseOverBudget(request, response, token!);
    }
    if (!request.complete && size <= READ_AHEAD_BYTES) return;
    done();
    if (size > 0) request.unshift(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    undisturb(request);
    arrived();
  }
  request.on("readable", read).once("close", done);
}

/**
 * Answers a JSON `status` and closes the connection (the rest of the body is not read): the bytes held are given back
 * as it closes.
 */
function closeWith(request: IncomingMessage, response: ServerResponse, status: number, message: string) {
  if (response.headersSent || response.destroyed) return request.destroy();
  response.shouldKeepAlive = false;
  const body = errorBodyAtFrontDoor(response, message);
  response
    .writeHead(status, {
      ...API_HEADERS,
      "Content-Type": "application/json",
      "Content-Length": String(Buffer.byteLength(body)),
      Connection: "close",
      ...(status === 503 ? { "Retry-After": "1" } : {}),
    })
    .end(body, () => request.destroy());
}

/** The 503 of a body the budget cannot hold, logged with the token's hash prefix (who, as far as the door knows). */
function refuseOverBudget(request: IncomingMessage, response: ServerResponse, token: string) {
  logRefusalOf("read-ahead-budget", "Answering 503: request bodies read ahead would pass API_READ_AHEAD_BYTES.", {
    token_hash_prefix: hashToken(token).slice(0, 12),
    status: 503,
  });
  closeWith(request, response, 503, OVER_BUDGET);
}

/**
 * Next wraps the request in a web Request, which refuses a body stream already read from (stream.isDisturbed: "Response
 * body object should not be disturbed or locked"). Every byte read was put back, so the stream is as good as unread:
 * Node keeps that mark as a flag of the stream's state (Node 22 and 24), cleared here.
 */
function undisturb(request: IncomingMessage) {
  (request as unknown as { _readableState: { dataEmitted: boolean } })._readableState.dataEmitted = false;
}
