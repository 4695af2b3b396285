// The URL of a request as its caller sees it, for the links an answer carries (decisions.md, Pagination):
// on APP_URL when set; else on the request's Host; X-Forwarded-Host and -Proto only from a trusted proxy (on
// Vercel, or with TRUST_PROXY=true), since anyone can send them. Never a hard-coded localhost.
import { behindTrustedProxy } from "@/lib/client-address";

/** The origin the caller reached this app on. */
export function publicOrigin(request: Request): string {
  if (process.env.APP_URL) return new URL(process.env.APP_URL).origin;
  const url = new URL(request.url);
  const first = (name: string) => request.headers.get(name)?.split(",")[0].trim() || undefined;
  const host = (behindTrustedProxy() && first("x-forwarded-host")) || first("host") || url.host;
  const protocol = (behindTrustedProxy() && first("x-forwarded-proto")) || url.protocol.slice(0, -1);
  const origin = URL.parse(`${protocol === "https" ? "https" : "http"}://${host}`);
  // A Host header that is not just a host (a path, a user, spaces) leaves the request's own origin.
  const onlyHost = origin && origin.href === `${origin.origin}/` && !origin.username;
  return onlyHost ? origin.origin : url.origin;
}

/** The request's URL on the public origin, with its path and query. */
export function publicUrl(request: Request): URL {
  const url = new URL(request.url);
  return new URL(url.pathname + url.search, publicOrigin(request));
}
