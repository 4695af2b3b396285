// Runs before every page and API request (not Next's static files). API requests that the framework would answer
// in text (a malformed %-escape, a trailing slash, an over-long URL) get their JSON answer here. Pages get a fresh
// CSP nonce, which Next puts on its own script tags (it reads it from the request's Content-Security-Policy header),
// and the page security headers. HSTS on pages covers the API too: browsers apply it to the whole host.
import { type NextRequest, NextResponse } from "next/server";
import { refusedApiPath } from "@/lib/http/api-path";
import { pageSecurityHeaders } from "@/lib/http/security-headers";

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith("/api/")) {
    const refused = pathname.startsWith("/api/v1") ? refusedApiPath(request.url, pathname) : null;
    return refused ? withApiHeaders(refused) : NextResponse.next();
  }
  // next.config.mjs turns off Next's own trailing-slash redirect (it would answer the API with one): pages keep it.
  if (pathname.length > 1 && pathname.endsWith("/")) {
    return NextResponse.redirect(new URL(pathname.replace(/\/+$/, "") + request.nextUrl.search, request.url), 308);
  }
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const headers = pageSecurityHeaders(nonce, request.headers);
  const forwarded = new Headers(request.headers);
  forwarded.set("x-nonce", nonce);
  forwarded.set("Content-Security-Policy", headers["Content-Security-Policy"]);
  const response = NextResponse.next({ request: { headers: forwarded } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    // API paths only when they hold a %-escape: on any other API request the proxy would make Next buffer the whole
    // body before the route runs.
    "/api/v1/:path(.*%.*)",
    {
      source: "/((?!api/|_next/static|_next/image|favicon.ico).*)",
      // Prefetches of next/link render nothing that runs.
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};

/** Answers from the proxy skip next.config.mjs's headers: the API's are set here. */
function withApiHeaders(response: Response) {
  response.headers.set("Cache-Control", "no-store");
  response.headers.set("X-Content-Type-Options", "nosniff");
  response.headers.set("Referrer-Policy", "no-referrer");
  return response;
}
