// Next offers no hook ahead of its router, so what must happen before it sits in front of the process's HTTP servers,
// installed by instrumentation.ts before the first request:
// - `next start` redirects a path with `//` or `\` (a text 308 to the path with its slashes collapsed) before the proxy
//   or any route runs; under /api/v1 that must be JSON instead (decisions.md, Wire format), and `POST
//   /api/v1/webhooks//test` must not land on another route.
// - the API's limit of requests in flight and its queue (lib/api/in-flight.ts): a request waits for its place before
//   Next has read anything of it, and a refused one costs microseconds rather than a request through Next.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { assignRequestId, errorBodyAtFrontDoor } from "@/lib/observability/request-id";
import { refusedApiPath, underApiV1 } from "./api-path";
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
    if (event === "request") {
      const [request, response] = args as [IncomingMessage, ServerResponse];
      // First, so that every answer, this door's own included, carries the request's id.
      assignRequestId(request, response);
      const refused = refusedBeforeNext(request.url ?? "/");
      if (refused) {
        void answer(response, refused);
        return true;
      }
      frontDoor(request, response, handOn);
      return true;
    }
    return handOn();
  } as typeof emit;
}

async function answer(response: ServerResponse, refused: Response) {
  const body = errorBodyAtFrontDoor(response, ((await refused.json()) as { message: string }).message);
  const headers = Object.fromEntries(refused.headers);
  delete headers["content-length"];
  response.writeHead(refused.status, headers);
  response.end(body);
}
