// The request id every answer under /api/v1 and /api/health carries (X-Request-Id), assigned at the server's front
// door (lib/http/before-next.ts) so that even the answers given there carry it. A proxy's id is believed only from
// a trusted proxy (as with client addresses, lib/client-address.ts): anywhere else a caller could make its requests
// carry another request's id. On Vercel that is the platform's own id (x-vercel-id): Vercel passes a client's
// X-Request-Id on untouched. The front door then replaces the header with the id it chose, so the route reads only
// that; where there is no front door (Vercel) the route chooses by the same rule.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { behindTrustedProxy } from "@/lib/client-address";

export const REQUEST_ID_HEADER = "x-request-id";

/** An id a proxy may pass on: short, and only characters safe in a header, a log line and a URL. */
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Whether a path gets a request id: everything under /api (the API, the health checks, sign-in's routes). */
export const carriesRequestId = (target: string) => /^\/api(?=$|[/?])/.test(target);

/** The header a trusted proxy names a request by. */
const proxyIdHeader = () => (process.env.VERCEL ? "x-vercel-id" : REQUEST_ID_HEADER);

/** A new request id, for an answer no proxy named. */
export const newRequestId = () => randomUUID();

/** The id a trusted proxy sent, when it is acceptable; else a new one. */
function chooseRequestId(sent: string | null | undefined): string {
  return sent && behindTrustedProxy() && ACCEPTABLE_ID.test(sent) ? sent : newRequestId();
}

/**
 * At the front door: chooses the request's id, puts it on the request for the route (replacing whatever the client
 * sent) and on the answer, whoever writes it. Returns the id, or null for a path that carries none.
 */
export function assignRequestId(request: IncomingMessage, response: ServerResponse): string | null {
  if (!carriesRequestId(request.url ?? "/")) return null;
  const sent = request.headers[proxyIdHeader()];
  const id = chooseRequestId(Array.isArray(sent) ? sent[0] : sent);
  request.headers[REQUEST_ID_HEADER] = id;
  response.setHeader("X-Request-Id", id);
  return id;
}

/**
 * The id of a request as a route sees it: the front door's, or (on Vercel, and route handlers called in-process)
 * one chosen here by the same rule.
 */
export function requestIdOf(request: Request): string {
  // Behind the front door the header is always its own choice; without it, whatever the client sent.
  const doors = request.headers.get(REQUEST_ID_HEADER);
  return doors && viaFrontDoor() ? doors : chooseRequestId(request.headers.get(proxyIdHeader()));
}

const viaFrontDoor = () => !!(globalThis as { __cjtBeforeNext?: boolean }).__cjtBeforeNext;

/** An error body written at the front door, with the id assigned there (`{"message": …, "request_id": …}`). */
export function errorBodyAtFrontDoor(response: ServerResponse, message: string): string {
  const id = response.getHeader("X-Request-Id");
  return JSON.stringify(typeof id === "string" ? { message, request_id: id } : { message });
}
