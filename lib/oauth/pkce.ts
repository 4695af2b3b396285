// PKCE (RFC 7636), S256 only (OAuth 2.1 §4.1.1): the token endpoint's check that whoever redeems a code is whoever
// asked for it.
import { createHash, timingSafeEqual } from "node:crypto";

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** RFC 7636 §4.6 for S256: BASE64URL(SHA256(verifier)) equals the challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
