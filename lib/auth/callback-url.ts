// Where to go after signing in. Only a path on this site is accepted, so a crafted link cannot send a person who
// signs in to another site (an open redirect): absolute URLs, protocol-relative `//host` and `/\host` all fall back.
import { API_TOKENS_PATH, SIGN_IN_PATH } from "@/lib/paths";

export function safeCallbackUrl(value: string | string[] | undefined | null): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) {
    return API_TOKENS_PATH;
  }
  // Resolving against a placeholder origin catches anything else a browser would read as another host.
  const base = "http://same-origin.invalid";
  const url = new URL(value, base);
  // Dot segments collapse while resolving: "/.//evil.example" has the pathname "//evil.example", which a browser
  // sent there reads as another host. What is returned is checked, not what came in.
  if (url.origin !== base || /^\/[/\\]/.test(url.pathname)) return API_TOKENS_PATH;
  return url.pathname + url.search + url.hash;
}

export function signInPath(callbackUrl: string): string {
  return `${SIGN_IN_PATH}?${new URLSearchParams({ callbackUrl })}`;
}
