// Runs before every page and API request (not Next's static files). API requests that the framework would answer
// in text (a malformed %-escape, a trailing slash, an over-long URL) get their JSON answer here where no front door
// answered them first (on Vercel; `next start` has lib/http/before-next.ts). Pages get a fresh
// CSP nonce, which Next puts on its own script tags (it reads it from the request's Content-Security-Policy header),
// and the page security headers. HSTS on pages covers the API too: browsers apply it to the whole host.
import { type NextRequest, NextResponse } from "next/server";
import { refusedApiPath } from "@/lib/http/api-path";
import { API_HEADERS, newNonce, pageSecurityHeaders } from "@/lib/http/security-headers";
import { requestIdOf } from "@/lib/observability/request-id";
import { limitBeforeToken } from "@/lib/ratelimit/api";

export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith("/api/")) {
    const refused = pathname.startsWith("/api/v1") ? refusedApiPath(request.url, pathname) : null;
    return refused ? withApiHeaders(refused, request) : NextResponse.next();
  }
  // next.config.mjs turns off Next's own trailing-slash redirect (it would answer the API with one): pages keep it.
  if (pathname.length > 1 && pathname.endsWith("/")) {
    return NextResponse.redirect(new URL(pathname.replace(/\/+$/, "") + request.nextUrl.search, request.url), 308);
  }
  const nonce = newNonce();
  const headers = pageSecurityHeaders(nonce, request.headers);
  const response = (await unreadableForm(request))
    ? new NextResponse("The form data could not be read.", { status: 400, headers: { "Content-Type": "text/plain" } })
    : NextResponse.next({ request: { headers: withNonce(request.headers, nonce, headers) } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

function withNonce(requestHeaders: Headers, nonce: string, headers: Record<string, string>) {
  const forwarded = new Headers(requestHeaders);
  forwarded.set("x-nonce", nonce);
  forwarded.set("Content-Security-Policy", headers["Content-Security-Policy"]);
  return forwarded;
}

/**
 * Whether a POST to a page says it sends multipart form data but does not: Next's server actions would answer it
 * with a text 500 ("Failed to parse body as FormData"). Only such POSTs are read here (forms are small).
 */
async function unreadableForm(request: NextRequest): Promise<boolean> {
  if (request.method !== "POST") return false;
  if (!request.headers.get("content-type")?.toLowerCase().startsWith("multipart/form-data")) return false;
  try {
    await request.clone().formData();
    return false;
  } catch {
    return true;
  }
}

export const config = {
  matcher: [
    // API paths only when they hold a %-escape, `//` or a backslash (which Next itself redirects where no front door
    // answered them first: on Vercel): on any other API request the proxy would make Next buffer the whole body
    // before the route runs.
    "/api/v1/:path(.*%.*)",
    "/api/v1/:path(.*//.*)",
    "/api/v1/:path(.*\\\\.*)",
    // Every page answer, prefetches included: a prefetched page is rendered and kept, and must carry its headers.
    "/((?!api(?:/|$)|_next/static|_next/image|favicon.ico).*)",
  ],
};

/**
 * Answers from the proxy skip next.config.mjs's headers: the API's are set here, and the request's id in the body.
 * Given before the token, they count against the limit of requests without a valid token, whose headers they carry.
 */
async function withApiHeaders(refused: Response, request: NextRequest) {
  const requestId = requestIdOf(request);
  const limited = await limitBeforeToken(request.headers);
  const response = Response.json(
    { message: limited.refusal ?? (await refused.json()).message, request_id: requestId },
    { status: limited.refusal ? 429 : refused.status },
  );
  for (const [name, value] of Object.entries({ ...API_HEADERS, ...limited.headers })) response.headers.set(name, value);
  response.headers.set("X-Request-Id", requestId);
  return response;
}
