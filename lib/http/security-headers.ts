// The security headers of the web pages (decisions.md, "Security"): a nonce-based CSP, no framing, and HSTS on
// https deployments. proxy.ts sets them per request; next.config.mjs sets the ones every answer carries.
import { behindTrustedProxy } from "@/lib/client-address";

const HSTS = "max-age=63072000; includeSubDomains";

/**
 * What every API answer carries: it belongs to one caller, so no browser or shared cache may keep it. next.config.mjs
 * adds these to the answers Next sends; proxy.ts and the server's front door (before-next.ts) to the ones they make.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

/**
 * Whether the site is served over https: its configured public URL says so, or (behind a trusted proxy) the
 * request came in over https. A client's own X-Forwarded-Proto is not believed elsewhere.
 */
export function servedOverHttps(headers: Headers, env: Record<string, string | undefined> = process.env): boolean {
  const publicUrl = env.NEXTAUTH_URL || env.APP_URL;
  if (publicUrl?.startsWith("https://")) return true;
  return behindTrustedProxy(env) && headers.get("x-forwarded-proto")?.split(",")[0].trim() === "https";
}

/**
 * The page policy. Scripts run only with this request's nonce ('strict-dynamic' lets those load their own chunks),
 * so an injected inline script does not run. Styles may be inline: React and Swagger UI set style attributes,
 * which a nonce cannot cover, and styles cannot run code.
 */
export function contentSecurityPolicy(nonce: string, { development = false, https = false } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** A fresh nonce for one answer's CSP. */
export const newNonce = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");

/** The headers a page answer gets, besides EVERY_ANSWER_HEADERS. */
export function pageSecurityHeaders(nonce: string, headers: Headers): Record<string, string> {
  const https = servedOverHttps(headers);
  return {
    "Content-Security-Policy": contentSecurityPolicy(nonce, {
      development: process.env.NODE_ENV === "development",
      https,
    }),
    "X-Frame-Options": "DENY",
    ...(https ? { "Strict-Transport-Security": HSTS } : {}),
  };
}
