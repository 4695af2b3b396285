// Next offers no hook ahead of its router, so what must happen before it sits in front of the process's HTTP servers,
// installed by instrumentation.ts before the first request:
// - `next start` redirects a path with `//` or `\` (a text 308 to the path with its slashes collapsed) before the proxy
//   or any route runs; under /api/v1 that must be JSON instead (decisions.md, Wire format), and `POST
//   /api/v1/webhooks//test` must not land on another route.
// - the API's front door (lib/api/in-flight.ts): a request's body is read first, then it waits for its place, per
//   tenant, before Next has seen it, and a refused one costs microseconds rather than a request through Next.
// - what only the framework or a trusted proxy may say of a request (request-target.ts), a method Next does not route
//   (api-methods.ts) and a request Node cannot parse (client-error.ts): JSON answers, never text or a redirect.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { observedFromFrontDoor } from "@/lib/observability/api-request";
import { assignRequestId, errorBodyAtFrontDoor } from "@/lib/observability/request-id";
import { mayRefuseMethod, refusedApiMethod } from "./api-methods";
import { refusedApiPath, underApiV1 } from "./api-path";
import { answerClientError } from "./client-error";
import { clearRequestTarget } from "./request-target";
import { API_HEADERS } from "./security-headers";

/**
 * The answer for a request line Next would redirect before any proxy or route runs (`/api/v1//me`, `/api/v1\\me`:
 * a text 308 to the path with the slashes collapsed, which for `POST /webhooks//test` is another route), or null.
 */
export function refusedBeforeNext(rawUrl: string): Response | null {
  const path = rawUrl.split("?", 1)[0];
  if (!/\/\/|\\/.test(path)) return null;
  if (!underApiV1(path.replace(/[\\/]+/g, "/"))) return null;
  const refused = refusedApiPath(`http://localhost${rawUrl}`, path);
  for (const [name, value] of Object.entries(API_HEADERS)) refused?.headers.set(name, value);
  return refused;
}

/** Sees every request before Next: answers it itself, or hands it on to Next with `pass` (at once or later). */
export type FrontDoor = (request: IncomingMessage, response: ServerResponse, pass: () => void) => void;

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
    if (event === "clientError") {
      answerClientError(...(args as Parameters<typeof answerClientError>));
      return true;
    }
    if (event === "request") {
      const [request, response] = args as [IncomingMessage, ServerResponse];
      // First, so that every answer, this door's own included, carries the request's id.
      const requestId = assignRequestId(request, response);
      clearRequestTarget(request);
      const refused = refusedBeforeNext(request.url ?? "/");
      if (refused) {
        void answer(response, refused);
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
  for (const [name, value] of Object.entries(API_HEADERS)) refused.headers.set(name, value);
  await answer(response, refused);
}

async function answer(response: ServerResponse, refused: Response) {
  const body = errorBodyAtFrontDoor(response, ((await refused.json()) as { message: string }).message);
  const headers = Object.fromEntries(refused.headers);
  delete headers["content-length"];
  response.writeHead(refused.status, headers);
  response.end(body);
}
