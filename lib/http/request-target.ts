// What a request says about itself that only the framework or a trusted proxy may say, cleared before Next reads it
// (decisions.md, Wire format and Pagination):
// - Next's internal request headers (`RSC: 1`, `Next-Router-*`, `Next-Action`, …) make it answer a route's request
//   with a redirect to `?_rsc` or a page payload; an API request is never one of those.
// - an absolute-form request target (`GET http://host/api/v1/me HTTP/1.1`) gets a text 308 from Next; RFC 9112 §3.2.2
//   says a server takes it as the origin-form path with the target's authority as the Host.
// - X-Forwarded-Proto, -Host and -Port sent by a client: Next builds request.url's scheme from X-Forwarded-Proto,
//   which would put the client's choice in the links of answers. Only a trusted proxy's are kept; without one, Next
//   fills them in from the connection itself.
// - an API request's query string as sent: Next hands its route a URL whose query it has decoded and encoded again, a
//   byte that is not UTF-8 replaced by U+FFFD, so the route could not refuse it with a 422 (decisions.md, Wire format).
//   Kept in RAW_QUERY_HEADER, which a client's own is removed from.
// A target that is neither a path nor an absolute http(s) URL with a host (`*`, `http:///api/v1/me`, `foo`) names
// nothing here: Next threw on it in its own wrapper (a text 500) or took `http:///api` for host "api" (an HTML 404).
import type { IncomingMessage } from "node:http";
import { behindTrustedProxy } from "@/lib/client-address";
import { underApiV1 } from "./api-path";

const FRAMEWORK_HEADERS = /^(rsc|next-action|next-url|next-hmr-refresh|next-router-.*)$/;
const FORWARDED_ORIGIN_HEADERS = ["x-forwarded-proto", "x-forwarded-host", "x-forwarded-port"];
/** An API request's query string as it arrived (`?a=%ff`), set here and read by the route (lib/api/route.ts). */
export const RAW_QUERY_HEADER = "x-cjt-raw-query";

/** An absolute-form target: http or https, then a host (RFC 9112 §3.2.2: the authority is not empty). */
const ABSOLUTE_TARGET = /^https?:\/\/[^/?#\s]/i;

/**
 * The answer for a request target that names no resource of this server, or null for a path or an absolute URL:
 * `OPTIONS *` asks about the server itself (204); any other `*`, and anything else, is a JSON 400.
 */
export function refusedRequestTarget(method: string, target: string): Response | null {
  if (target.startsWith("/") || ABSOLUTE_TARGET.test(target)) return null;
  if (target === "*" && method === "OPTIONS") return new Response(null, { status: 204 });
  return Response.json(
    { message: "The request target names no resource: send a path such as /api/v1/me." },
    { status: 400 },
  );
}

/** Clears from a request what its sender may not decide, in place, before Next sees it. */
export function clearRequestTarget(request: IncomingMessage) {
  const target = request.url ?? "/";
  if (!target.startsWith("/")) {
    const absolute = URL.parse(target);
    if (absolute && (absolute.protocol === "http:" || absolute.protocol === "https:")) {
      request.url = absolute.pathname + absolute.search;
      request.headers.host = absolute.host;
    }
  }
  if (!behindTrustedProxy()) for (const name of FORWARDED_ORIGIN_HEADERS) delete request.headers[name];
  if (underApiV1(request.url ?? "/")) {
    for (const name of Object.keys(request.headers)) if (FRAMEWORK_HEADERS.test(name)) delete request.headers[name];
    const url = request.url ?? "/";
    const query = url.indexOf("?");
    if (query === -1) delete request.headers[RAW_QUERY_HEADER];
    else request.headers[RAW_QUERY_HEADER] = url.slice(query);
  }
}
