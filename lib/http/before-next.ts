// Next offers no hook ahead of its router, so what must happen before it sits in front of the process's HTTP servers,
// installed by instrumentation.ts before the first request, on hosts where this process owns its HTTP server (`next
// start`; not on Vercel, whose closed runtime owns it: docs/deploy.md, "What holds where"):
// - `next start` redirects a path with `//` or `\` (a text 308 to the path with its slashes collapsed) before the proxy
//   or any route runs; under /api/v1 that must be JSON instead (decisions.md, Wire format), and `POST
//   /api/v1/webhooks//test` must not land on another route.
// - the API's front door (lib/api/in-flight.ts): a request's body is read first, then it waits for its place, per
//   tenant, before Next has seen it, and a refused one costs microseconds rather than a request through Next.
// - what only the framework or a trusted proxy may say of a request, and targets that name nothing
//   (request-target.ts), a method Next does not route (api-methods.ts), a request Node cannot parse (client-error.ts)
//   and an expectation Node would refuse with its own empty 417: JSON answers with a request id, never text, an
//   empty body or a redirect. Those answered for /api/v1 count against the address's limit for requests without a
//   valid token, as a 401 does, and carry its headers (lib/ratelimit/api.ts).
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { observedFromFrontDoor } from "@/lib/observability/api-request";
import { assignRequestId, errorBodyAtFrontDoor, newRequestId } from "@/lib/observability/request-id";
import { mayRefuseMethod, refusedApiMethod } from "./api-methods";
import { refusedApiPath, underApiV1 } from "./api-path";
import { answerClientError } from "./client-error";
import { clearRequestTarget, refusedRequestTarget } from "./request-target";
import { API_HEADERS } from "./security-headers";

/**
 * The answer for an API path no route may see (lib/http/api-path.ts), or null: among them a request line Next would
 * redirect before any proxy or route runs (`/api/v1//me`, `/api/v1\\me`: a text 308 to the path with the slashes
 * collapsed, which for `POST /webhooks//test` is another route). Answered here rather than by proxy.ts, so that
 * they count against a limit like every answer before the token.
 */
function refusedBeforeNext(rawUrl: string): Response | null {
  const path = rawUrl.split("?", 1)[0];
  if (!underApiV1(path.replace(/[\\/]+/g, "/"))) return null;
  return refusedApiPath(`http://localhost${rawUrl}`, path);
}

/** Sees every request before Next: answers it itself, or hands it on to Next with `pass` (at once or later). */
export type FrontDoor = (request: IncomingMessage, response: ServerResponse, pass: () => void) => void;

/** Servers whose expectations (`Expect:` other than 100-continue) the door answers. */
const expecting = new WeakSet<http.Server>();

/**
 * Puts refusedBeforeNext, then `frontDoor`, in front of every HTTP server of the process (`next start` gives no hook
 * before its router), once; called from instrumentation.ts, before the first request is handled.
 */
export function installBeforeNext(frontDoor: FrontDoor) {
  const state = globalThis as { __cjtBeforeNext?: boolean };
  if (state.__cjtBeforeNext) return;
  state.__cjtBeforeNext = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    const handOn = () => emit.apply(this, [event, ...args] as Parameters<typeof emit>);
    if (event === "connection" && !expecting.has(this)) {
      // Node answers an unmet expectation itself (an empty 417) unless the server listens for it.
      expecting.add(this);
      this.on("checkExpectation", (request: IncomingMessage, response: ServerResponse) => {
        assignRequestId(request, response);
        const refused = Response.json(
          { message: `The expectation "${request.headers.expect}" cannot be met: send the request without it.` },
          { status: 417 },
        );
        void answer(request, response, refused);
      });
    }
    if (event === "clientError") {
      answerClientError(...(args as Parameters<typeof answerClientError>));
      return true;
    }
    if (event === "request") {
      const [request, response] = args as [IncomingMessage, ServerResponse];
      // First, so that every answer, this door's own included, carries the request's id.
      const requestId = assignRequestId(request, response);
      let refused = refusedRequestTarget(request.method ?? "", request.url ?? "/");
      if (!refused) {
        clearRequestTarget(request);
        refused = refusedBeforeNext(request.url ?? "/");
      }
      if (refused) {
        void answer(request, response, refused);
        return true;
      }
      // An API request reaches Next within its context (id, start, bytes sent), for its log line.
      const toNext =
        requestId !== null && underApiV1(request.url ?? "/")
          ? observedFromFrontDoor(requestId, response, handOn)
          : handOn;
      if (mayRefuseMethod(request.method ?? "", request.url ?? "/")) {
        void refuseMethodOrPass(request, response, () => frontDoor(request, response, toNext));
        return true;
      }
      frontDoor(request, response, toNext);
      return true;
    }
    return handOn();
  } as typeof emit;
}

async function refuseMethodOrPass(request: IncomingMessage, response: ServerResponse, pass: () => void) {
  const refused = await refusedApiMethod(request.method ?? "", request.url ?? "/");
  if (!refused) return pass();
  await answer(request, response, refused);
}

/**
 * Writes one of the door's own answers: the API's headers, a request id (in the body too when it is JSON), no body
 * to a HEAD; for /api/v1, the limit of requests without a valid token, which may turn the answer into its 429.
 */
async function answer(request: IncomingMessage, response: ServerResponse, refused: Response) {
  if (!response.hasHeader("X-Request-Id")) response.setHeader("X-Request-Id", newRequestId());
  let status = refused.status;
  let message: string | null = refused.headers.get("content-type")?.startsWith("application/json")
    ? ((await refused.json()) as { message: string }).message
    : null;
  const headers: Record<string, string> = { ...API_HEADERS, ...Object.fromEntries(refused.headers) };
  if (underApiV1(request.url ?? "/")) {
    const { limitBeforeToken } = await import("@/lib/ratelimit/api");
    const limited = await limitBeforeToken(request.headers);
    Object.assign(headers, limited.headers);
    if (limited.refusal) [status, message] = [429, limited.refusal];
  }
  const body = message !== null ? errorBodyAtFrontDoor(response, message) : await refused.text();
  if (message !== null) headers["content-type"] = "application/json";
  delete headers["content-length"];
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, headers);
  response.end(request.method === "HEAD" || status === 204 ? undefined : body);
}
