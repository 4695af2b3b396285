// Signing in with email and password: the credential check and the sign-in rate limits. next-auth's Credentials
// provider (lib/auth/options.ts) calls authorizeSignIn; nothing here depends on next-auth.
import bcrypt from "bcryptjs";
import { z } from "zod";
import { isStorableText } from "@/lib/core/validation";
import { prisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createRateLimiter } from "@/lib/ratelimit";
import { SIGN_IN_RATE_LIMITED } from "./sign-in-errors";

/** Who signed in: what the session carries. */
export interface SignInIdentity {
  tenantId: number;
  userId: number;
  name: string;
  email: string;
}

const signInSchema = z.object({
  // An email the database cannot hold matches nobody: refused here, like a wrong one.
  email: z.string().trim().min(1).max(320).refine(isStorableText),
  // bcrypt reads at most 72 bytes; the cap only keeps absurd inputs out.
  password: z.string().min(1).max(1000),
});

// A bcrypt hash of a random string nobody knows. Comparing against it when no user has the email makes an unknown
// email take as long as a wrong password, so response times do not reveal which emails have accounts.
const NO_USER_HASH = "$2b$10$tDmC10WElNQOqBHDG96SDOno9XfM.oGDFxVaWByiXK5y0.mTOawCu";

/**
 * The active user with this email (any case) and password, or null. An email may belong to users in several
 * tenants: the first (oldest tenant) whose password matches is the one signed in. Archived users never match.
 */
export async function verifyCredentials(
  client: PrismaClient,
  email: string,
  password: string,
): Promise<SignInIdentity | null> {
  // Like token authentication, this runs before the tenant is known: the email and password pick the tenant.
  const candidates = await client.user.findMany({
    where: { email, archivedDate: null, passwordHash: { not: null } },
    select: { tenantId: true, id: true, firstname: true, lastname: true, email: true, passwordHash: true },
    orderBy: [{ tenantId: "asc" }, { id: "asc" }],
  });
  if (candidates.length === 0) {
    await bcrypt.compare(password, NO_USER_HASH);
    return null;
  }
  for (const user of candidates) {
    if (user.passwordHash && (await bcrypt.compare(password, user.passwordHash))) {
      return {
        tenantId: user.tenantId,
        userId: user.id,
        name: `${user.firstname} ${user.lastname}`,
        email: user.email,
      };
    }
  }
  return null;
}

const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Every attempt for an email counts, right or wrong: this is the limit that protects each account. */
const attemptsPerEmail = createRateLimiter({ prefix: "signin-email", limit: 10, windowMs: SIGN_IN_WINDOW_MS });
/**
 * From one address, wrong attempts count: a firm's office behind one address signs in more than ten people some
 * mornings. They are counted once the password has been checked, so attempts sent all at once can pass the check
 * together; every attempt, right or wrong, also counts against a higher limit that bounds such bursts.
 */
const failuresPerAddress = createRateLimiter({
  prefix: "signin-address-failures",
  limit: 10,
  windowMs: SIGN_IN_WINDOW_MS,
});
const attemptsPerAddress = createRateLimiter({ prefix: "signin-address", limit: 100, windowMs: SIGN_IN_WINDOW_MS });

/**
 * The client's address as the host reports it. Vercel (and most proxies) set X-Forwarded-For; `next start` sets
 * it from the socket when a client did not send one. A client talking to `next start` directly can vary it, which is
 * why the per-email limit is the one that protects each account.
 */
export function clientAddress(headers: Record<string, string | string[] | undefined> | undefined): string | null {
  const forwarded = headers?.["x-forwarded-for"];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
  return first || null;
}

/**
 * Counts the attempt against the email and the client address, checks the credentials, and counts a wrong one as a
 * failure of the address. Returns the identity, null for wrong credentials, or throws SIGN_IN_RATE_LIMITED.
 */
export async function authorizeSignIn(
  credentials: unknown,
  headers?: Record<string, string | string[] | undefined>,
): Promise<SignInIdentity | null> {
  const input = signInSchema.safeParse(credentials);
  if (!input.success) return null;
  const { email, password } = input.data;
  const address = clientAddress(headers);
  const [byEmail, byAddress, failuresLeft] = await Promise.all([
    attemptsPerEmail.limit(email.toLowerCase()),
    address ? attemptsPerAddress.limit(address) : null,
    address ? failuresPerAddress.remaining(address) : null,
  ]);
  if (!byEmail.success || byAddress?.success === false || failuresLeft === 0) throw new Error(SIGN_IN_RATE_LIMITED);
  const identity = await verifyCredentials(await prisma(), email, password);
  if (!identity && address) await failuresPerAddress.limit(address);
  return identity;
}
