// Requests under /api/v1 that the framework would answer itself, in text or with a redirect, before any route runs
// (decisions.md, Wire format: every answer there is JSON). proxy.ts answers them first; a path with `//` or `\`,
// which Next redirects before the proxy runs, is answered ahead of Next (before-next.ts).
import { requestIdOf } from "@/lib/observability/request-id";
import { API_HEADERS } from "./security-headers";

/** The longest URL answered normally; a longer one is a 414 (Node refuses far longer ones before the app sees them). */
const MAX_URL_LENGTH = 16 * 1024;

/** Whether a request target is `prefix` or under it (`/api/v1`, not `/api/v10`). */
const under = (target: string, prefix: string) =>
  target.startsWith(prefix) &&
  (target.length === prefix.length || target[prefix.length] === "/" || target[prefix.length] === "?");

/** Whether a request target is under /api/v1: the API, not /api/auth, /api/health or /api/live. */
export function underApiV1(target: string): boolean {
  return under(target, "/api/v1");
}

/**
 * Whether a request takes one of the instance's places (lib/api/in-flight.ts): the API's, and the MCP endpoint's,
 * whose tool calls run the same endpoints (decisions.md: each call under the API's rules, fair share included).
 */
export function takesPlace(target: string): boolean {
  return underApiV1(target) || under(target, "/api/mcp");
}

/** A JSON answer for an API request the framework cannot route, or null when the request may go on. */
export function refusedApiPath(url: string, pathname: string): Response | null {
  if (url.length > MAX_URL_LENGTH) {
    return Response.json({ message: `The URL is longer than ${MAX_URL_LENGTH} characters.` }, { status: 414 });
  }
  if (/\/\/|\\/.test(pathname)) {
    return Response.json(
      { message: "Endpoint not found: a path has no empty segments (//) and no backslashes." },
      { status: 404 },
    );
  }
  if (!decodesCleanly(pathname)) {
    // Such a path names no record and no endpoint, like a malformed uuid.
    return Response.json({ message: "Not found: the path has a malformed %-escape." }, { status: 404 });
  }
  if (pathname.length > 1 && pathname.endsWith("/")) {
    return Response.json(
      { message: `Endpoint not found. Paths have no trailing slash: ${pathname.replace(/\/+$/, "")}` },
      { status: 404 },
    );
  }
  return null;
}

/** Whether every %-escape of the path decodes to UTF-8 (Next's router fails with a text 500 otherwise). */
function decodesCleanly(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** The route of every path under /api that no other route claims: a JSON 404 for every method. */
export const unknownApiPath = Object.fromEntries(
  ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].map((method) => [
    method,
    async (request: Request) => {
      const requestId = requestIdOf(request);
      return Response.json(
        { message: "Endpoint not found: the API is under /api/v1.", request_id: requestId },
        { status: 404, headers: { ...API_HEADERS, "X-Request-Id": requestId } },
      );
    },
  ]),
) as Record<"GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", (request: Request) => Promise<Response>>;
