// Runs before every page (not the API, not Next's static files): gives the request a fresh CSP nonce, which Next
// puts on its own script tags (it reads it from the request's Content-Security-Policy header), and sets the page
// security headers on the answer. HSTS on pages covers the API too: browsers apply it to the whole host.
import { type NextRequest, NextResponse } from "next/server";
import { pageSecurityHeaders } from "@/lib/http/security-headers";

export function proxy(request: NextRequest) {
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
