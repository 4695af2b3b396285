// The shape of a token, apart from where tokens are kept: what the front door (lib/http/body-arrival.ts,
// lib/api/in-flight.ts) and authentication both read, so that they read a request's `Authorization` alike (one
// parser). No database, no dependencies beyond Node's own.
import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";

export const TOKEN_PREFIX = "cjt_";
/** An app's access token (lib/oauth): the same scheme, its own prefix, so that scanners and logs tell them apart. */
export const APP_TOKEN_PREFIX = "cjo_";
/** 62^43 > 2^256, so 43 base62 digits hold 32 bytes; 62^6 > 2^32 holds the checksum. */
const TOKEN_PATTERN = /^(cjt|cjo)_[0-9A-Za-z]{49}$/;
/** Tokens issued before the checksum (base64url, no checksum) keep working. */
const LEGACY_TOKEN_PATTERN = /^cjt_[A-Za-z0-9_-]{43}$/;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function base62(value: bigint, width: number): string {
  let digits = "";
  for (let rest = value; rest > 0n; rest /= 62n) digits = BASE62[Number(rest % 62n)] + digits;
  return digits.padStart(width, "0");
}

export const checksum = (body: string) => base62(BigInt(crc32(body)), 6);

/**
 * Whether a value can be a bearer token (a personal token, old format or new, or an app's access token) with a
 * correct checksum. No database involved.
 */
export function isWellFormedToken(value: string): boolean {
  if (LEGACY_TOKEN_PATTERN.test(value)) return true;
  return TOKEN_PATTERN.test(value) && checksum(value.slice(0, -6)) === value.slice(-6);
}

/**
 * The token of an `Authorization` header's value: the scheme `Bearer` in any case (RFC 9110 schemes are
 * case-insensitive), then the token; else null.
 */
export function tokenOfAuthorization(header: string | null | undefined): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? "");
  return match ? match[1] : null;
}

export function hashToken(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
