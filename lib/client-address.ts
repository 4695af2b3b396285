// The client's address, for the API's per-address limit and for sign-in throttling. Only a proxy in front of the app
// can tell it: `next start` passes a client's own X-Forwarded-For through unchanged, so that header is believed only
// where a trusted proxy overwrites it (on Vercel, or with TRUST_PROXY=true). Anywhere else the address is unknown.
import { isIP } from "node:net";

type HeaderSource = Headers | Record<string, string | string[] | undefined> | undefined;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The first entry of a forwarding header, when it is an IP address (anything else is not one and is not believed). */
function firstAddress(value: string | undefined): string | null {
  const first = value?.split(",")[0]?.trim();
  return first && isIP(first) ? first : null;
}

/** Whether forwarding headers can be believed: on Vercel, or where the operator says a proxy overwrites them. */
export const behindTrustedProxy = (env: Record<string, string | undefined> = process.env) =>
  !!env.VERCEL || env.TRUST_PROXY === "true";

/** The client's address as a trusted proxy reports it, or null when no trusted proxy is in front of the app. */
export function clientAddress(headers: HeaderSource): string | null {
  if (process.env.VERCEL) {
    // Vercel sets both itself, replacing what the client sent; its own header first.
    return firstAddress(header(headers, "x-vercel-forwarded-for")) ?? firstAddress(header(headers, "x-forwarded-for"));
  }
  return behindTrustedProxy() ? firstAddress(header(headers, "x-forwarded-for")) : null;
}
