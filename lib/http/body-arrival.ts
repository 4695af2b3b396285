// An API request's body is read at the front door, before the request is counted among those in flight
// (lib/api/in-flight.ts): a place is for work, not for waiting on a client's network. The bytes that arrived are put
// back at the front of the request's own stream (Readable.unshift, before its end is emitted), so that Next reads the
// same IncomingMessage, now from memory (the built server's tests send POST and PUT bodies through it). A body that has not arrived within API_BODY_DEADLINE_MS is a JSON 408.
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorBodyAtFrontDoor } from "@/lib/observability/request-id";
import { API_HEADERS } from "./security-headers";

/** The largest body read ahead (lib/api/request.ts refuses larger ones with a 413 as it reads). */
const READ_AHEAD_BYTES = 1024 * 1024;

/** API_BODY_DEADLINE_MS: how long a request's body may take to arrive (default 10 s). */
export function bodyDeadlineMs(): number {
  return Number(process.env.API_BODY_DEADLINE_MS || 10_000);
}

const TIMED_OUT = "The request body did not arrive in time: send it at once after the headers.";

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
  const chunks: Buffer[] = [];
  let size = 0;
  const done = () => {
    clearTimeout(timer);
    request.off("readable", read).off("close", done);
  };
  const timer = setTimeout(() => {
    done();
    if (response.headersSent || response.destroyed) return;
    response.shouldKeepAlive = false;
    const body = errorBodyAtFrontDoor(response, TIMED_OUT);
    response
      .writeHead(408, {
        ...API_HEADERS,
        "Content-Type": "application/json",
        "Content-Length": String(Buffer.byteLength(body)),
        Connection: "close",
      })
      .end(body, () => request.destroy());
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
    if (!request.complete && size <= READ_AHEAD_BYTES) return;
    done();
    if (size > 0) request.unshift(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    undisturb(request);
    arrived();
  }
  request.on("readable", read).once("close", done);
}

/**
 * Next wraps the request in a web Request, which refuses a body stream already read from (stream.isDisturbed: "Response
 * body object should not be disturbed or locked"). Every byte read was put back, so the stream is as good as unread:
 * Node keeps that mark as a flag of the stream's state (Node 22 and 24), cleared here.
 */
function undisturb(request: IncomingMessage) {
  (request as unknown as { _readableState: { dataEmitted: boolean } })._readableState.dataEmitted = false;
}
