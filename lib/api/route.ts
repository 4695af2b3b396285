// The API wrapper every route file uses. An endpoint declares (lib/api/endpoint.ts) what it needs (its token
// resource, permission, the record its path names, query and body schemas) and a handler; the wrapper runs token
// authentication within the rate limits, then the checks in the order decisions.md fixes (401 token → 403 the token's
// access → 403 permission → 404/403 record → 422 query or body shape → the handler's own 422s), runs a POST or PUT
// with an Idempotency-Key once per key (lib/api/idempotency.ts), and maps every error to its JSON answer.
import { after } from "next/server";
import type { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { type Permission, requirePermission } from "@/lib/auth/permissions";
import { collectDeferred, type DeferredTask } from "@/lib/core/deferred";
import { ApiError, forbidden, notFound } from "@/lib/core/errors";
import { logError } from "@/lib/core/log";
import { noteCaller } from "@/lib/core/request-context";
import { parseInput } from "@/lib/core/validation";
import { type Database, database } from "@/lib/db/client";
import { requestDeadline } from "@/lib/db/deadline";
import { noteWriteSucceeded } from "@/lib/db/disk-space";
import { databaseFault } from "@/lib/db/faults";
import { ReplicaRead, readFrom } from "@/lib/db/replicas";
import { refusedApiPath } from "@/lib/http/api-path";
import { RAW_QUERY_HEADER } from "@/lib/http/request-target";
import type { Audience } from "@/lib/oauth/settings";
import { observeApiRequest } from "@/lib/observability/api-request";
import { admitApiRequest, type EndpointRateLimit } from "@/lib/ratelimit/api";
import { bearerToken } from "@/lib/tokens";
import { accessRefusal, eventsRefusal, resourceLabel, TOKEN_RESOURCES, type TokenResource } from "@/lib/tokens/access";
import { authenticate } from "./authenticate";
import { errorResponse } from "./error-response";
import { idempotent } from "./idempotency";
import { queryObject, readJsonObject } from "./request";
import { faultAnswer } from "./unavailable";
import { writePositions } from "./write-positions";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
/** Methods that only read: a token needs `read` access to the route's resource for them, `write` for the others. */
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export type PathParams = Record<string, string | string[]>;

/** What a handler is given: everything the spec asked for, already checked. */
interface EndpointInput<Q, B, R> {
  request: Request;
  caller: Caller;
  params: PathParams;
  query: Q;
  body: B;
  record: R;
}

/** The methods an endpoint may have, as the OpenAPI document spells them. */
export type EndpointMethod = "get" | "post" | "put" | "delete";

/** What the wrapper runs of an endpoint's declaration: where it is, what it needs, and its handler. */
export interface Endpoint<Q = undefined, B = undefined, R = undefined> {
  method: EndpointMethod;
  /** The path template under /api/v1, as the OpenAPI document names it: `/clients/{uuid}`. */
  path: string;
  /**
   * The token resource the endpoint belongs to (lib/tokens/access.ts), whose access it needs: read for GET, write
   * for the others. Only the paths about the caller itself (SELF_PATHS) name none (null).
   */
  resource: TokenResource | null;
  /** A lower per-token rate limit for this endpoint, on top of the API-wide one (lib/ratelimit/api.ts). */
  rateLimit?: EndpointRateLimit;
  /** The role permission the endpoint needs: without it, a 403 before anything about the request is looked at. */
  permission?: Permission;
  /** Loads the record the path names: 404 when it exists nowhere, 403 when the caller may not have it. */
  load?: (caller: Caller, params: PathParams) => Promise<R>;
  /** The query's schema: an object of the parameters, each read from the query string's text. */
  query?: QuerySchema<Q>;
  /** The JSON body's schema; without one, the endpoint reads no body. */
  body?: z.ZodType<B, unknown>;
  /**
   * For a write to a webhook endpoint: the event types the endpoint has after this request, from the body's `events`
   * as sent (its strings; undefined when it sends no list) and the stored record. The token must be able to read what
   * each carries (decisions.md, Tokens): a 403 once the body is read, before its shape is judged (a 422), whatever
   * the request changes.
   */
  subscribes?: (input: { requested: readonly string[] | undefined; record: R }) => readonly string[];
  handler: (input: EndpointInput<Q, B, R>) => Promise<unknown>;
}

/** A query schema: a zod object, whose fields the OpenAPI document lists as the query parameters. */
export type QuerySchema<Q> = z.ZodType<Q, unknown> & { shape: Record<string, z.ZodType> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEndpoint = Endpoint<any, any, any>;

/** What the wrapper needs of a route beyond its endpoint. */
interface Route {
  resource: TokenResource | null;
  rateLimit?: EndpointRateLimit;
  /** For a method the path lacks: its 405, judged before the token (a 401 gives way to it). */
  lacking?: ApiError;
  /** The route template the log line and the trace name (`/api/v1/users/email/{email}`), never the path as sent. */
  template?: string;
  /** Where the token must be valid (OAuth tokens are bound to one resource): the REST API unless said. */
  audience?: Audience;
  /** The surface that made the request in-process, for the audit log: an MCP tool (serveEndpoint). */
  channel?: Caller["channel"];
}

type NextContext = { params: Promise<PathParams> };
type NextHandler = (request: Request, context: NextContext) => Promise<Response>;
/** What an admitted request gets: its endpoint's answer, or an error for a path or method that has none. */
type Answer = (request: Request, context: NextContext, caller: Caller) => Promise<Response>;

/** A JSON answer with another status than 200 (e.g. 201 for creates). */
class JsonResponse {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
export const created = (body: unknown) => new JsonResponse(201, body);
/** 202: the work asked for is recorded and runs after the answer (a webhook test's delivery). */
export const accepted = (body: unknown) => new JsonResponse(202, body);

/** The only paths that need no token resource: they are about the caller itself (decisions.md, "Tokens"). */
export const SELF_PATHS = ["/me", "/token", "/token/requests"] as const;

/** Throws, when a route file is loaded, for an endpoint whose resource or events the wrapper could not judge. */
function assertJudgeable({ method, path, resource, subscribes }: AnyEndpoint) {
  const named = `${method.toUpperCase()} ${path}`;
  const valid =
    resource === null
      ? (SELF_PATHS as readonly string[]).includes(path)
      : (TOKEN_RESOURCES as readonly string[]).includes(resource);
  if (!valid)
    throw new Error(
      `${named} (resource ${JSON.stringify(resource)}): an endpoint names the token resource it belongs to (${TOKEN_RESOURCES.join(", ")}); only ${SELF_PATHS.join(", ")} may name none.`,
    );
  if (resource === "webhooks" && method !== "get" && method !== "delete" && !subscribes)
    throw new Error(`${named} must declare the events the webhook endpoint has after it (subscribes).`);
}

/**
 * Builds all the exports of a route file from the endpoints of its path:
 * `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(clientEndpoints.list, clientEndpoints.create)`.
 * Each method answers with its endpoint; the others with a 405 naming those the path has. An endpoint without a
 * valid token resource throws when the route file is loaded, so that no route can leave its resource out.
 */
export function apiRoute(...endpoints: AnyEndpoint[]): Record<Method | "OPTIONS", NextHandler> {
  const byMethod = new Map(endpoints.map((spec) => [spec.method.toUpperCase() as Method, spec]));
  const paths = new Set(endpoints.map((spec) => spec.path));
  if (paths.size !== 1 || byMethod.size !== endpoints.length)
    throw new Error(`apiRoute: one endpoint per method, all of one path (given ${[...paths].join(", ") || "none"}).`);
  endpoints.forEach(assertJudgeable);
  const allow = [...METHODS.filter((m) => byMethod.has(m)), "OPTIONS"].join(", ");
  const template = `/api/v1${[...paths][0]}`;
  const lacking = new ApiError(405, `Method not allowed. This path accepts: ${allow}.`, undefined, { Allow: allow });
  const entries = METHODS.map((method): [Method, NextHandler] => {
    const spec = byMethod.get(method);
    // A method the path does not have is a 405 whatever the token holds, and whether it holds one.
    const answer = spec ? answerWith(spec) : refuseWith(lacking);
    const route: Route = spec
      ? { resource: spec.resource, rateLimit: spec.rateLimit, template }
      : { resource: null, lacking, template };
    return [method, (request, context) => handle(request, context, answer, route)];
  });
  const preflight: NextHandler = (request) =>
    observeApiRequest(request, async () => new Response(null, { status: 204, headers: { Allow: allow } }), template);
  return { ...(Object.fromEntries(entries) as Record<Method, NextHandler>), OPTIONS: preflight };
}

/** The answer for any path under /api/v1 that names no endpoint (after authentication, like every path). */
export const unknownPath = Object.fromEntries(
  METHODS.map((m): [Method, NextHandler] => [
    m,
    (request, context) => handle(request, context, refuseWith(notFound("Endpoint")), { resource: null }),
  ]),
) as Record<Method, NextHandler>;

/**
 * Runs one endpoint for a request another surface built in-process (the MCP server's tools, lib/mcp): the route's
 * checks in the same order, its limits, request id and request log entry, with the token judged at that surface's
 * audience and the caller marked with the channel, for the audit log.
 */
export const serveEndpoint = (
  spec: AnyEndpoint,
  request: Request,
  params: PathParams,
  surface: { audience: Audience; channel: NonNullable<Caller["channel"]> },
): Promise<Response> =>
  handle(request, { params: Promise.resolve(params) }, answerWith(spec), {
    resource: spec.resource,
    rateLimit: spec.rateLimit,
    template: `/api/v1${spec.path}`,
    ...surface,
  });

/** Every request's id, log line, request log entry and span attributes (lib/observability), around its answer. */
const handle = (request: Request, context: NextContext, answer: Answer, route: Route): Promise<Response> =>
  observeApiRequest(request, () => respond(request, context, answer, route), route.template);

/**
 * Every answer, error or not, carries the caller's rate-limit headers (the limit of requests in flight is the HTTP
 * server's: lib/api/in-flight.ts). A database fault is a 503, and a GET that met a connection broken by a database
 * restart is run once more first (lib/api/unavailable.ts). All of it, the retry included, runs under one database
 * deadline from admission (lib/db/deadline.ts): once it passes the answer is that 503, whatever is still waited for.
 */
async function respond(request: Request, context: NextContext, answer: Answer, route: Route): Promise<Response> {
  // What no route would otherwise see to: an over-long URL, a trailing slash (also answered by proxy.ts for %-paths).
  const refused = refusedApiPath(request.url, new URL(request.url).pathname);
  if (refused) return refused;
  const deadline = requestDeadline();
  // Known as soon as the token is: the answer at the deadline carries them too.
  const limits: RateLimitHeaders = { rateLimitHeaders: {} };
  const attempts = deadline.run(async () => {
    const first = await attempt(request, context, answer, route, limits);
    if (first.error && request.method === "GET" && databaseFault(first.error) === "connection-lost") {
      return attempt(request, context, answer, route, limits);
    }
    return first;
  });
  const done = await deadline.within(attempts).then(
    (answered) => {
      // Answered in time: what it still reads (a streamed page) or defers past the answer is bounded per statement.
      deadline.lift();
      return answered;
    },
    // Past the deadline: the deadline stays passed for the work left behind, so it sends nothing more.
    (error): Attempt => ({ error, ...limits }),
  );
  return finish(done);
}

interface RateLimitHeaders {
  rateLimitHeaders: Record<string, string>;
}

interface Attempt extends RateLimitHeaders {
  response?: Response;
  error?: unknown;
}

async function attempt(
  request: Request,
  context: NextContext,
  answer: Answer,
  { resource, rateLimit, lacking, audience, channel }: Route,
  limits: RateLimitHeaders,
): Promise<Attempt> {
  let rateLimitHeaders: Record<string, string> = {};
  try {
    let db: Database | undefined;
    const admission = await admitApiRequest(request, rateLimit, async () => {
      const caller = await authenticate((db = await database()), bearerToken(request), request.headers, audience);
      if (channel) caller.channel = channel;
      // Noted before the token's limits are checked: a 429's log line names its token, user and firm too.
      noteCaller(caller);
      return caller;
    });
    rateLimitHeaders = limits.rateLimitHeaders = admission.headers;
    const refusal =
      resource &&
      accessRefusal(admission.caller.tokenAccess, resource, READ_METHODS.has(request.method) ? "read" : "write");
    if (refusal) throw forbidden(refusal);
    assertAcceptsJson(request);
    const response = await onReadServer(db!, request, admission.caller, () =>
      answer(request, context, admission.caller),
    );
    noteIfWriteStored(request, response);
    return { response, rateLimitHeaders };
  } catch (error) {
    // The 401's headers are its limit's (requests without a valid token), which the 405 then carries.
    if (lacking && error instanceof ApiError && error.status === 401)
      return { error: lacking, rateLimitHeaders: error.headers ?? {} };
    return { error, rateLimitHeaders };
  }
}

/**
 * With read replicas (lib/db/replicas.ts): a GET reads from one replica that has the caller's last write, or from the
 * primary; any other method writes on the primary, after which the caller's reads wait for its WAL position. The
 * caller is its user: a write through one of a user's tokens (or instances) is seen by reads through the others.
 */
async function onReadServer(db: Database, request: Request, caller: Caller, work: () => Promise<Response>) {
  const replicas = db.replicas;
  if (!replicas) return work();
  const key = `${caller.tenant.id}:${caller.user.id}`;
  if (READ_METHODS.has(request.method)) {
    const replica = await replicas.choose(key, writePositions());
    if (!replica) return work();
    const reads = new ReplicaRead(replica);
    try {
      return await readFrom(reads, work);
    } finally {
      await reads.release();
    }
  }
  try {
    return await work();
  } finally {
    // Recorded whatever the answer (a failed write may have written part); a failure here leaves the reads to the
    // replicas' lag bound, and is logged.
    await replicas
      .noteWrite(key, writePositions())
      .catch((error) => logError("Recording a write's WAL position failed", error));
  }
}

function finish({ response, error, rateLimitHeaders }: Attempt): Response {
  const answer = response ?? errorResponse(faultAnswer(error) ?? error);
  for (const [name, value] of Object.entries(rateLimitHeaders)) answer.headers.set(name, value);
  return answer;
}

function refuseWith(error: ApiError): Answer {
  return async () => {
    throw error;
  };
}

/** Runs an endpoint's checks in the decided order, then its handler. */
function answerWith(spec: AnyEndpoint): Answer {
  return async (request, context, caller) => {
    if (spec.permission) requirePermission(caller, spec.permission);
    const params = await context.params;
    const record = spec.load ? await spec.load(caller, params) : undefined;
    const query = spec.query ? parseInput(spec.query, queryObject(querySent(request))) : undefined;
    const json = spec.body ? await readJsonObject(request) : undefined;
    if (json) refuseUnreadableLinks(caller, json);
    const refusal =
      spec.subscribes && eventsRefusal(caller.tokenAccess, spec.subscribes({ requested: eventsSent(json), record }));
    if (refusal) throw forbidden(refusal);
    const body = spec.body ? parseInput(spec.body, json) : undefined;
    // A write with an Idempotency-Key runs once per key; the checks above run on every request, replays included.
    return idempotent(request, caller, json, async () => {
      const { result, deferred } = await collectDeferred(() =>
        spec.handler({ request, caller, params, query, body, record }),
      );
      runAfterResponse(deferred);
      if (result instanceof Response) return result;
      if (result instanceof JsonResponse) return Response.json(result.body, { status: result.status });
      return Response.json(result);
    });
  };
}

/**
 * Body fields that link another record, in any body, and that record's resource: linking needs read access to it
 * (decisions.md), as the answer names what is linked. A 403 before the body's shape is judged; null unlinks.
 */
const LINK_FIELDS: Readonly<Record<string, TokenResource>> = { client_uuid: "clients" };

function refuseUnreadableLinks(caller: Caller, json: Record<string, unknown>) {
  for (const [field, resource] of Object.entries(LINK_FIELDS))
    if (json[field] != null && accessRefusal(caller.tokenAccess, resource, "read"))
      throw forbidden(`This token has no access to ${resourceLabel(resource)}, so it cannot link ${field}.`);
}

/** The strings of a body's `events` list, as sent (the shape is judged after): undefined when it sends no list. */
function eventsSent(json: Record<string, unknown> | undefined): readonly string[] | undefined {
  const events = json?.events;
  return Array.isArray(events) ? events.filter((event): event is string => typeof event === "string") : undefined;
}

/** What the handler deferred (e.g. the webhook deliveries its write recorded) runs once the answer is sent. */
function runAfterResponse(deferred: DeferredTask[]) {
  for (const task of deferred) {
    try {
      after(task);
    } catch {
      // Outside a request scope (tests call handlers directly): the timer or the cron route delivers instead.
    }
  }
}

/** The query string as the client sent it (kept by the server's front door), else as request.url has it. */
const querySent = (request: Request) => request.headers.get(RAW_QUERY_HEADER) ?? new URL(request.url).search;

function assertAcceptsJson(request: Request) {
  const accept = request.headers.get("accept");
  if (!accept) return;
  const acceptable = accept.split(",").some((part) => {
    const [type, ...params] = part
      .trim()
      .toLowerCase()
      .split(";")
      .map((s) => s.trim());
    const refused = params.some((p) => /^q=0(\.0{0,3})?$/.test(p));
    return !refused && (type === "application/json" || type === "application/*" || type === "*/*");
  });
  if (!acceptable)
    throw new ApiError(406, "This API only answers with application/json: send 'Accept: application/json'.");
}

/** A write stored: the disk has room again (what /api/health reports, lib/db/disk-space.ts). */
function noteIfWriteStored(request: Request, response: Response) {
  if (response.ok && !READ_METHODS.has(request.method)) noteWriteSucceeded();
}
