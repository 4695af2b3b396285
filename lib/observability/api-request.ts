// What every API request leaves behind once answered (wrapped around the route wrapper, lib/api/route.ts): the
// X-Request-Id header, the id in an error's body, one log line, the token's request log entry
// (lib/request-log), and the request's attributes on the active trace span.
// The request's context (its id, its start, its database time) is made at the server's front door
// (lib/http/before-next.ts), which hands the request to Next within it and counts the answer's bytes as Node writes
// them: the log line is written once the answer is sent, at no cost to the answer itself. A route handler called
// in-process (the tests) makes its own, and its body is counted as it is read.
import type { ServerResponse } from "node:http";
import { trace } from "@opentelemetry/api";
import { requestLog } from "@/lib/core/log";
import { type AnswerSent, currentRequest, type RequestContext, runInRequest } from "@/lib/core/request-context";
import { recordTokenRequest } from "@/lib/request-log/buffer";
import { requestIdOf } from "./request-id";

/**
 * A path with its ids replaced by `{id}` (numbers, uuids) and anything like an email by `{email}`: the template of a
 * path no route file names (an endpoint's own template is given: observeApiRequest).
 */
export const routeTemplate = (pathname: string) =>
  pathname
    .replace(/\/(\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?=\/|$)/gi, "/{id}")
    .replace(/\/[^/]*(@|%40)[^/]*/gi, "/{email}");

/**
 * At the front door, for an API request with id `requestId`: counts the bytes of its answer's body as they are
 * written, and returns `pass` made to hand the request to Next within the request's context.
 */
export function observedFromFrontDoor(requestId: string, response: ServerResponse, pass: () => void): () => void {
  const sent: AnswerSent = { bytes: 0, closed: false };
  const count = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === "string")
      sent.bytes += Buffer.byteLength(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
    else if (chunk instanceof Uint8Array) sent.bytes += chunk.byteLength;
  };
  const write = response.write;
  response.write = function (this: ServerResponse, ...args: Parameters<typeof write>) {
    count(args[0], args[1]);
    return write.apply(this, args);
  } as typeof write;
  const end = response.end;
  response.end = function (this: ServerResponse, ...args: Parameters<typeof end>) {
    count(args[0], args[1]);
    return end.apply(this, args);
  } as typeof end;
  response.once("close", () => {
    sent.closed = true;
    sent.done?.(sent.bytes);
    sent.done = undefined;
  });
  const arrivedAt = performance.now();
  return () => {
    const startedAt = performance.now();
    runInRequest({ requestId, startedAt, waitMs: startedAt - arrivedAt, dbMs: 0, sent }, pass);
  };
}

/** Runs `answer` as the request's work, then adds to its answer and records it. */
/**
 * `template` is the route's own (`/api/v1/users/email/{email}`): what the log line and the span name as its route,
 * never the path as sent, which may hold personal data (decisions.md, Observability).
 */
export async function observeApiRequest(
  request: Request,
  answer: () => Promise<Response>,
  template?: string,
): Promise<Response> {
  const requestId = requestIdOf(request);
  const atDoor = currentRequest();
  const context: RequestContext =
    atDoor?.requestId === requestId ? atDoor : { requestId, startedAt: performance.now(), dbMs: 0 };
  const response = context === atDoor ? await answer() : await runInRequest(context, answer);
  const url = new URL(request.url);
  const error = response.status >= 400 ? await errorBody(response) : undefined;
  const answered = error ? withRequestIdInBody(response, error, context.requestId) : response;
  answered.headers.set("X-Request-Id", context.requestId);
  const route = template ?? routeTemplate(url.pathname);
  tagSpan(context, request.method, route);
  if (context.tokenId !== undefined && context.tenantId !== undefined) {
    recordTokenRequest({
      tenantId: context.tenantId,
      tokenId: context.tokenId,
      requestId: context.requestId,
      method: request.method,
      path: url.pathname,
      status: answered.status,
      durationMs: Math.round(performance.now() - context.startedAt),
      // For a 4xx, what the caller was told; nothing of a success, nor of a 5xx (whose message says nothing).
      message: answered.status < 500 ? (error?.message ?? null) : null,
      errors: answered.status < 500 ? (error?.errors ?? null) : null,
    });
  }
  const done = (bytes: number | null) => logLine(context, request.method, route, answered, bytes);
  const { sent } = context;
  if (sent) {
    if (sent.closed) done(sent.bytes);
    else sent.done = done;
    return answered;
  }
  return countedAsRead(answered, done);
}

interface ErrorBody {
  message?: string;
  errors?: Record<string, string[]>;
  request_id?: string;
}

async function errorBody(response: Response): Promise<ErrorBody | undefined> {
  if (!response.headers.get("content-type")?.includes("json")) return undefined;
  try {
    const body = await response.clone().json();
    return body && typeof body === "object" && !Array.isArray(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

/** The error body with the request's id in it (decisions.md, Wire format), whoever wrote the error. */
function withRequestIdInBody(response: Response, body: ErrorBody, requestId: string): Response {
  if (body.request_id === requestId) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ ...body, request_id: requestId }), { status: response.status, headers });
}

function tagSpan(context: RequestContext, method: string, route: string) {
  const span = trace.getActiveSpan();
  if (!span) return;
  span.setAttributes({
    "http.request.id": context.requestId,
    "http.route": route,
    "http.request.method": method,
    ...(context.tenantId !== undefined && { "cjt.tenant.id": context.tenantId }),
    ...(context.userId !== undefined && { "cjt.user.id": context.userId }),
    ...(context.tokenId !== undefined && { "cjt.token.id": context.tokenId }),
  });
}

function logLine(context: RequestContext, method: string, route: string, response: Response, bytes: number | null) {
  const status = response.status;
  const remaining = response.headers.get("x-ratelimit-remaining");
  const line = {
    kind: "request",
    request_id: context.requestId,
    method,
    route,
    status,
    duration_ms: round(performance.now() - context.startedAt),
    db_ms: round(context.dbMs),
    wait_ms: context.waitMs === undefined ? null : round(context.waitMs),
    tenant_id: context.tenantId ?? null,
    user_id: context.userId ?? null,
    token_id: context.tokenId ?? null,
    bytes_out: bytes,
    rate_limit_remaining: remaining === null ? null : Number(remaining),
  };
  // Every request line is info, whatever its status: a 5xx's cause has its own error line (logError).
  requestLog().info(line, `${method} ${route} ${status}`);
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Without the front door (a route handler called in-process): calls `done` with the bytes of the body once it is all
 * read (a 1,000-row page streams), or at once for an answer without a body. A body its reader abandons is logged with
 * the bytes read so far.
 */
function countedAsRead(response: Response, done: (bytes: number | null) => void): Response {
  if (!response.body) {
    done(0);
    return response;
  }
  const reader = response.body.getReader();
  let bytes = 0;
  let logged = false;
  const finish = () => {
    if (logged) return;
    logged = true;
    done(bytes);
  };
  const counted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // A body that fails half-way (a later statement of a streamed page) is cut off, and logged with what was sent.
      const { done: ended, value } = await reader.read().catch((error) => {
        finish();
        throw error;
      });
      if (ended) {
        finish();
        controller.close();
        return;
      }
      bytes += value.byteLength;
      controller.enqueue(value);
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
}
