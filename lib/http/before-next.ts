// `next start` redirects a path with `//` or `\` (a text 308 to the path with its slashes collapsed) before the proxy
// or any route runs; under /api/v1 that must be JSON instead (decisions.md, Wire format), and `POST
// /api/v1/webhooks//test` must not land on another route. Next offers no hook ahead of its router, so this sits in
// front of the process's HTTP servers, installed by instrumentation.ts before the first request.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { refusedApiPath } from "./api-path";

/** What every API answer carries (next.config.mjs adds them to the answers Next itself sends). */
const API_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

/**
 * The answer for a request line Next would redirect before any proxy or route runs (`/api/v1//me`, `/api/v1\\me`:
 * a text 308 to the path with the slashes collapsed, which for `POST /webhooks//test` is another route), or null.
 */
export function refusedBeforeNext(rawUrl: string): Response | null {
  const path = rawUrl.split("?", 1)[0];
  if (!/\/\/|\\/.test(path)) return null;
  const collapsed = path.replace(/[\\/]+/g, "/");
  if (collapsed !== "/api/v1" && !collapsed.startsWith("/api/v1/")) return null;
  const refused = refusedApiPath(`http://localhost${rawUrl}`, path);
  for (const [name, value] of Object.entries(API_HEADERS)) refused?.headers.set(name, value);
  return refused;
}

/**
 * Puts refusedBeforeNext in front of every HTTP server of the process (`next start` gives no hook before its router),
 * once; called from instrumentation.ts, before the first request is handled.
 */
export function guardApiPathsBeforeNext() {
  const state = globalThis as { __cjtApiPathGuard?: boolean };
  if (state.__cjtApiPathGuard) return;
  state.__cjtApiPathGuard = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const [request, response] = args as [IncomingMessage, ServerResponse];
      const refused = refusedBeforeNext(request.url ?? "/");
      if (refused) {
        void answer(response, refused);
        return true;
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
}

async function answer(response: ServerResponse, refused: Response) {
  response.writeHead(refused.status, Object.fromEntries(refused.headers));
  response.end(await refused.text());
}
