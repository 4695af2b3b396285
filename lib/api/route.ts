// The API wrapper every route file uses. It owns what each endpoint would otherwise repeat: token authentication
// within the rate limits, content negotiation, the tenant-scoped caller, JSON body parsing, error mapping, and the
// answers for methods a path does not have. A route file only parses its input, calls a service and serializes.
import { prisma } from "@/lib/db/client";
import { admitApiRequest, type EndpointRateLimit } from "@/lib/ratelimit/api";
import { authenticate, bearerToken, type Caller } from "./caller";
import { ApiError, badRequest, errorResponse, notFound } from "./errors";
import "./validation";

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/** The largest request body accepted; the longest field (a job description) is 30,000 characters. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface ApiRequest<P> {
  request: Request;
  url: URL;
  params: P;
  caller: Caller;
  /** The parsed JSON object of a POST or PUT; undefined otherwise. */
  body: Record<string, unknown> | undefined;
}

export type ApiHandler<P> = (input: ApiRequest<P>) => Promise<unknown>;
type NextContext = { params: Promise<Record<string, string | string[]>> };
type NextHandler = (request: Request, context: NextContext) => Promise<Response>;
/** What an admitted request gets: its handler's answer, or an error for a path or method that has none. */
type Answer = (request: Request, context: NextContext, caller: Caller) => Promise<Response>;

export interface RouteOptions {
  /** A lower per-token rate limit for this path, on top of the API-wide one (lib/ratelimit/api.ts). */
  rateLimit?: EndpointRateLimit;
}

/** A JSON answer with another status than 200 (e.g. 201 for creates). */
export class JsonResponse {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
export const created = (body: unknown) => new JsonResponse(201, body);

/**
 * Builds all the exports of a route file from the handlers it has:
 * `export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({ GET: async ({ caller }) => ... })`.
 */
export function apiRoute<P = Record<string, never>>(
  handlers: Partial<Record<Method, ApiHandler<P>>>,
  { rateLimit }: RouteOptions = {},
): Record<Method | "OPTIONS", NextHandler> {
  const allow = [...METHODS.filter((m) => handlers[m]), "OPTIONS"].join(", ");
  const methodNotAllowed = refuseWith(
    new ApiError(405, `Method not allowed. This path accepts: ${allow}.`, undefined, { Allow: allow }),
  );
  const entries = METHODS.map((method): [Method, NextHandler] => {
    const handler = handlers[method];
    const answer = handler ? answerWith(handler as ApiHandler<unknown>) : methodNotAllowed;
    return [method, (request, context) => handle(request, context, answer, rateLimit)];
  });
  const options: NextHandler = async () => new Response(null, { status: 204, headers: { Allow: allow } });
  return { ...(Object.fromEntries(entries) as Record<Method, NextHandler>), OPTIONS: options };
}

/** The answer for any path under /api/v1 that names no endpoint (after authentication, like every path). */
export const unknownPath = Object.fromEntries(
  METHODS.map((m): [Method, NextHandler] => [
    m,
    (request, context) => handle(request, context, refuseWith(notFound("Endpoint"))),
  ]),
) as Record<Method, NextHandler>;

/** Every answer, error or not, carries the caller's rate-limit headers. */
async function handle(
  request: Request,
  context: NextContext,
  answer: Answer,
  rateLimit?: EndpointRateLimit,
): Promise<Response> {
  let rateLimitHeaders: Record<string, string> = {};
  let response: Response;
  try {
    const admission = await admitApiRequest(request, rateLimit, async () =>
      authenticate(await prisma(), bearerToken(request)),
    );
    rateLimitHeaders = admission.headers;
    assertAcceptsJson(request);
    response = await answer(request, context, admission.caller);
  } catch (error) {
    response = errorResponse(error);
  }
  for (const [name, value] of Object.entries(rateLimitHeaders)) response.headers.set(name, value);
  return response;
}

function refuseWith(error: ApiError): Answer {
  return async () => {
    throw error;
  };
}

function answerWith(handler: ApiHandler<unknown>): Answer {
  return async (request, context, caller) => {
    const body =
      request.method === "POST" || request.method === "PUT" || request.method === "PATCH"
        ? await readJsonObject(request)
        : undefined;
    const result = await handler({ request, url: new URL(request.url), params: await context.params, caller, body });
    if (result instanceof Response) return result;
    if (result instanceof JsonResponse) return Response.json(result.body, { status: result.status });
    return Response.json(result);
  };
}

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

async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new ApiError(415, "Send the request body as JSON with 'Content-Type: application/json'.");
  }
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readLimited(request, MAX_BODY_BYTES).catch((error) => {
    // A client that hangs up mid-body (ECONNRESET) is not a server error; nobody is left to read the answer.
    if (error instanceof ApiError) throw error;
    throw badRequest("The request body could not be read.");
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw badRequest("The request body is not valid JSON.");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw badRequest("The request body must be a JSON object.");
  }
  return parsed as Record<string, unknown>;
}

const tooLarge = () => new ApiError(413, `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB.`);

async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
