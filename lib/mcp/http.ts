// The /api/mcp endpoint (Streamable HTTP, stateless) and its RFC 9728 protected resource metadata. Before the SDK sees
// a request: a browser's foreign Origin is refused (403, DNS rebinding), and the bearer is authenticated for the MCP
// resource (a personal token where the firm allows them here, or an app's access token issued for /api/mcp): none or
// invalid is a 401 whose challenge points to the metadata, a token with no access at all a 403 insufficient_scope.
// The SDK then answers the 2026-07-28 revision and, statelessly, the 2025 ones, checking MCP-Protocol-Version; every
// answer is one JSON body (no stream, no session), so it runs the same on one server, many, or serverless functions.
import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { authenticate } from "@/lib/api/authenticate";
import { errorResponse } from "@/lib/api/error-response";
import { MAX_BODY_DEPTH, readBodyBytes, refuseDeepNesting } from "@/lib/api/request";
import { faultAnswer } from "@/lib/api/unavailable";
import type { Caller } from "@/lib/auth/caller";
import { ApiError } from "@/lib/core/errors";
import { database } from "@/lib/db/client";
import { type DatabaseDeadline, requestDeadline } from "@/lib/db/deadline";
import { SCOPES, scopeOf } from "@/lib/oauth/scopes";
import { issuer, resourceUrl } from "@/lib/oauth/settings";
import { observeApiRequest } from "@/lib/observability/api-request";
import { limitBeforeToken } from "@/lib/ratelimit/api";
import { bearerToken } from "@/lib/tokens";
import { READ_ONLY, TOKEN_RESOURCES } from "@/lib/tokens/access";
import { mcpServer } from "./server";

export const MCP_PATH = "/api/mcp";
const METADATA_PATH = "/.well-known/oauth-protected-resource";
/** A tools/call envelope's levels (the message, params, arguments) around an endpoint's body, and one to spare. */
const MAX_ENVELOPE_DEPTH = MAX_BODY_DEPTH + 4;

/** Where the endpoint's protected resource metadata is (RFC 9728 §3.1: the well-known path, then the resource's). */
export const resourceMetadataUrl = () => `${issuer()}${METADATA_PATH}${MCP_PATH}`;

/** RFC 9728 §2: the MCP resource, the authorization server that issues its tokens, and how a token is sent. */
export function protectedResourceMetadata() {
  return {
    resource: resourceUrl("mcp"),
    authorization_servers: [issuer()],
    scopes_supported: SCOPES,
    bearer_methods_supported: ["header"],
    resource_name: "Clients, jobs and time (MCP)",
    resource_documentation: `${issuer()}/docs`,
  };
}

export const metadataEndpoint = async () =>
  Response.json(protectedResourceMetadata(), {
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });

/** A browser's request from another origin than the configured public one: refused (MCP spec, Security Warning). */
function foreignOrigin(request: Request): Response | undefined {
  const origin = request.headers.get("origin");
  if (!origin || origin === issuer()) return undefined;
  return Response.json({ message: `Origin ${origin} may not call this endpoint.` }, { status: 403 });
}

const challenge = (params: string) => ({
  "WWW-Authenticate": `Bearer ${params}resource_metadata="${resourceMetadataUrl()}"`,
});

/** The 401 of the token check with the challenge MCP clients follow to the metadata (and its limit, as for the API). */
async function unauthenticated(error: ApiError, request: Request): Promise<Response> {
  const limit = await limitBeforeToken(request.headers);
  if (limit.refusal) return Response.json({ message: limit.refusal }, { status: 429, headers: limit.headers });
  const params = bearerToken(request) ? 'error="invalid_token", ' : "";
  return Response.json(
    { message: error.message },
    { status: 401, headers: { ...limit.headers, ...challenge(params) } },
  );
}

/** A token that may read nothing can call no tool but get_me: it is told which scopes would do. */
const withoutAccess = (caller: Caller) => TOKEN_RESOURCES.every((resource) => caller.tokenAccess[resource] === "none");

function insufficientScope(): Response {
  const scope = scopeOf(READ_ONLY, false);
  return Response.json(
    { message: "This token has no access to any of the firm's records: give it access to at least one resource." },
    { status: 403, headers: challenge(`error="insufficient_scope", scope="${scope}", `) },
  );
}

/** The 2026-07-28 revision: the SDK's per-request server, built by the factory for the caller authenticated here. */
const modern = createMcpHandler(
  ({ authInfo, requestInfo }) => mcpServer(authInfo?.extra?.caller as Caller, requestInfo as Request),
  // "auto" answers one JSON body unless a handler sends a message before its result, which none here does ("json"
  // would say the same, with a warning in the log at start).
  { legacy: "reject", responseMode: "auto" },
);

/**
 * A 2025 revision's request: a fresh server and stateless transport answering in JSON (the SDK's own stateless
 * fallback would answer as an event stream).
 */
async function legacy(request: Request, caller: Caller, authInfo: AuthInfo): Promise<Response> {
  const server = mcpServer(caller, request);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { authInfo });
  } finally {
    await server.close();
  }
}

const notAllowed = () =>
  Response.json(
    { message: "Method not allowed. This endpoint is stateless: POST each JSON-RPC message." },
    { status: 405, headers: { Allow: "POST" } },
  );

export async function serveMcp(request: Request): Promise<Response> {
  return observeApiRequest(request, async () => {
    const refused = foreignOrigin(request);
    if (refused) return refused;
    // One database deadline from admission, as for a REST request (lib/db/deadline.ts), over the envelope's
    // authentication and the tool's REST request, which runs within it: with the database hung, the answer is a 503
    // within 10 s whichever of them meets the hang.
    const deadline = requestDeadline();
    return deadline.run(() => answerEnvelope(request, deadline));
  });
}

async function answerEnvelope(request: Request, deadline: DatabaseDeadline): Promise<Response> {
  const token = bearerToken(request);
  let caller: Caller;
  try {
    caller = await deadline.within(database().then((db) => authenticate(db, token, request.headers, "mcp")));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return unauthenticated(error, request);
    return errorResponse(faultAnswer(error) ?? error);
  }
  if (withoutAccess(caller)) return insufficientScope();
  if (request.method !== "POST") return notAllowed();
  // The envelope within the API's body limit, read here: the SDK would read any size into memory, and parse any
  // depth. A tool's arguments are an endpoint's body (MAX_BODY_DEPTH), inside the envelope's own levels.
  let bounded: Request;
  try {
    const body = await readBodyBytes(request);
    refuseDeepNesting(new TextDecoder().decode(body), MAX_ENVELOPE_DEPTH);
    bounded = new Request(request.url, { method: "POST", headers: request.headers, body: Buffer.from(body) });
  } catch (error) {
    return errorResponse(error);
  }
  request = bounded;
  const authInfo = { token: token!, clientId: caller.app?.clientId ?? "personal", scopes: [], extra: { caller } };
  if (await isLegacyRequest(request)) return legacy(request, caller, authInfo);
  return modern.fetch(request, { authInfo });
}
