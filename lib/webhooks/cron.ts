// The cron route's check: `Authorization: Bearer <CRON_SECRET>` (what Vercel Cron sends), compared in constant time.
import { createHash, timingSafeEqual } from "node:crypto";

export function isCronAuthorized(authorization: string | null, secret = process.env.CRON_SECRET): boolean {
  if (!secret || !authorization) return false;
  // Hashing first makes both sides the same length, so the comparison leaks nothing about the secret's length.
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(authorization), digest(`Bearer ${secret}`));
}
