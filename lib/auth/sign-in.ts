// Signing in with email and password: the credential check and the sign-in throttling (decisions.md, "Tokens and
// sign-in"). next-auth's Credentials provider (lib/auth/options.ts) calls authorizeSignIn; nothing here depends on
// next-auth.
import bcrypt from "bcryptjs";
import { z } from "zod";
import { recordSignIn } from "@/lib/audit/mutations";
import { clientAddress } from "@/lib/client-address";
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
  /** The user's session version when signing in; a session whose version is older has ended. */
  sessionVersion: number;
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
    select: {
      tenantId: true,
      id: true,
      firstname: true,
      lastname: true,
      email: true,
      passwordHash: true,
      sessionVersion: true,
    },
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
        sessionVersion: user.sessionVersion,
      };
    }
  }
  return null;
}

const SIGN_IN_WINDOW_MS = 15 * 60_000;
// Sign-in limits never switch off: during a Redis outage each instance counts on its own.
const signInLimit = (prefix: string, limit: number) =>
  createRateLimiter({ prefix, limit, windowMs: SIGN_IN_WINDOW_MS, duringOutage: "count-in-process" });
/** Wrong passwords for one email from one address: past the limit, that address may not try that email again. */
const failuresPerEmailAddress = signInLimit("signin-email-address-failures", 10);
/** Wrong passwords from one address for any emails (guessing many accounts): past the limit, the address waits. */
const failuresPerAddress = signInLimit("signin-address-failures", 30);
/**
 * Wrong passwords for one email from anywhere. They never refuse (anyone could lock a person out by failing from
 * many addresses): they only delay the next attempt's verdict, more the more there were. Counted, not limited.
 */
const FAILURES_COUNTED = 1_000;
const failuresPerEmail = signInLimit("signin-email-failures", FAILURES_COUNTED);

/** Failures for an email before its attempts wait, and the longest wait. */
const FREE_FAILURES = 3;
const MAX_WAIT_MS = 30_000;

/** The wait before an attempt for an email with this many recent failures is judged: 1 s, 2 s, 4 s … at most 30 s. */
export function signInDelayMs(failures: number): number {
  return failures < FREE_FAILURES ? 0 : Math.min(MAX_WAIT_MS, 1000 * 2 ** (failures - FREE_FAILURES));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The key the per-email counts use: the email as the database matches it (citext compares lower() of both sides,
 * character by character), so every spelling that signs in to an account counts against that account.
 */
async function emailKey(client: PrismaClient, email: string): Promise<string> {
  const [row] = await client.$queryRaw<{ key: string }[]>`SELECT lower(${email}::text) AS key`;
  return row.key;
}

/**
 * Checks an email and password within the sign-in limits. Where the client's address is known (a trusted proxy,
 * lib/client-address.ts), an address that failed too often for this email, or for too many emails, is refused.
 * Recent failures for the email from any address make the attempt wait before it is judged (`wait`, injectable for
 * tests). The right password from an address that has not failed is never refused. Returns the identity, null for
 * wrong credentials, or throws SIGN_IN_RATE_LIMITED.
 */
export async function authorizeSignIn(
  credentials: unknown,
  headers?: Headers | Record<string, string | string[] | undefined>,
  wait: (ms: number) => Promise<void> = sleep,
): Promise<SignInIdentity | null> {
  const input = signInSchema.safeParse(credentials);
  if (!input.success) return null;
  const { email, password } = input.data;
  const client = await prisma();
  const key = await emailKey(client, email);
  const address = clientAddress(headers);
  const emailAtAddress = `${key} ${address}`;
  const [emailLeft, addressLeft, failuresLeft] = await Promise.all([
    address ? failuresPerEmailAddress.remaining(emailAtAddress) : null,
    address ? failuresPerAddress.remaining(address) : null,
    failuresPerEmail.remaining(key),
  ]);
  if (emailLeft === 0 || addressLeft === 0) {
    await recordSignIn(client, "throttled", email, address);
    throw new Error(SIGN_IN_RATE_LIMITED);
  }
  const delay = signInDelayMs(FAILURES_COUNTED - failuresLeft);
  if (delay > 0) await wait(delay);

  const identity = await verifyCredentials(client, email, password);
  await recordSignIn(client, identity ? "succeeded" : "failed", email, address, identity);
  if (!identity) {
    await Promise.all([
      failuresPerEmail.limit(key),
      address && failuresPerEmailAddress.limit(emailAtAddress),
      address && failuresPerAddress.limit(address),
    ]);
  }
  return identity;
}
