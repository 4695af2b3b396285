// Signing in with email and password: the credential check and the sign-in throttling (decisions.md, "Tokens and
// sign-in"). next-auth's Credentials provider (lib/auth/options.ts) calls authorizeSignIn; nothing here depends on
// next-auth.
import { z } from "zod";
import { clientAddress } from "@/lib/client-address";
import { logError } from "@/lib/core/log";
import { isStorableText } from "@/lib/core/validation";
import { prisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createRateLimiter } from "@/lib/ratelimit";
import { recordSignIn, type SignInOutcome } from "./audit";
import { comparePassword, PasswordChecksBusy } from "./password-hash";
import { SIGN_IN_BUSY, SIGN_IN_FAILED, SIGN_IN_RATE_LIMITED, wrongPasswordWaitCode } from "./sign-in-errors";

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
    await comparePassword(password, NO_USER_HASH);
    return null;
  }
  for (const user of candidates) {
    if (user.passwordHash && (await comparePassword(password, user.passwordHash))) {
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

/** The sign-in limits count failures over 15 minutes (windows aligned to the clock's quarter hours). */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
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

/** Reset mails ("Forgot password?") per email: enough for a lost one and a retry, too few to flood an inbox. */
const resetMailsPerEmail = signInLimit("signin-reset-mails", 3);

/**
 * Whether a "Forgot password?" request for this email may send mail, under the sign-in limits: it counts as a failure
 * from its address (so that asking for many emails is guessing many accounts, and an address already refused is
 * refused here too), and at most 3 mails go to one email in the window, whoever asks.
 */
export async function resetMailAllowed(
  email: string,
  headers: Headers | Record<string, string | string[] | undefined> | undefined,
): Promise<boolean> {
  const address = clientAddress(headers);
  if (address && !(await failuresPerAddress.limit(address)).success) return false;
  return (await resetMailsPerEmail.limit(await emailKey(await prisma(), email))).success;
}

/** Failures for an email before its attempts wait, and the longest wait. */
export const FREE_FAILURES = 3;
export const MAX_WAIT_MS = 30_000;

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
 * Password checks for one email run one at a time on this instance (the rest wait their turn, costing no CPU), so a
 * burst against one account holds one worker and people signing in to other accounts keep theirs.
 */
const checksByEmail = new Map<string, Promise<unknown>>();
function inTurn<T>(key: string, check: () => Promise<T>): Promise<T> {
  const turn = (checksByEmail.get(key) ?? Promise.resolve()).then(check, check);
  const settled = turn.catch(() => {});
  checksByEmail.set(key, settled);
  void settled.then(() => {
    if (checksByEmail.get(key) === settled) checksByEmail.delete(key);
  });
  return turn;
}

/** What became of an attempt: the three outcomes stay separate so that each can be recorded. */
export type PasswordAttempt<T> =
  /** Not checked: a limit was reached (`limit`), or this instance has all the password checks it can take (`busy`). */
  | { outcome: "throttled"; reason: "limit" | "busy" }
  /**
   * A wrong password: now `failures` for this email within the window, so the next attempt waits `nextWaitMs`
   * (this one waited `waitedMs`).
   */
  | { outcome: "refused"; failures: number; waitedMs: number; nextWaitMs: number }
  | { outcome: "succeeded"; value: T };

/**
 * Runs a password check (`check`, null for a wrong password) within the sign-in limits. Every attempt first counts
 * as a failure (atomically, in the limiters), so that parallel attempts cannot pass a limit; a check that succeeds
 * takes its counts back. Where the client's address is known (a trusted proxy, lib/client-address.ts), an address
 * that failed too often for this email, or for too many emails, is refused before any check. Earlier failures for
 * the email from any address make the check wait (`wait`, injectable for tests). So the right password from an
 * address that has not failed is never refused.
 */
export async function throttledPasswordCheck<T>(
  email: string,
  headers: Headers | Record<string, string | string[] | undefined> | undefined,
  check: () => Promise<T | null>,
  wait: (ms: number) => Promise<void> = sleep,
): Promise<PasswordAttempt<T>> {
  const key = await emailKey(await prisma(), email);
  const address = clientAddress(headers);
  const emailAtAddress = `${key} ${address}`;
  const [atAddress, fromAddress] = await Promise.all([
    address ? failuresPerEmailAddress.limit(emailAtAddress) : null,
    address ? failuresPerAddress.limit(address) : null,
  ]);
  // What one limiter counted for an attempt the other refused stays counted: given back, it would free a place for
  // another parallel attempt after this one was already refused, and more than the limit would be checked.
  if (atAddress?.success === false || fromAddress?.success === false) return { outcome: "throttled", reason: "limit" };
  const forEmail = await failuresPerEmail.limit(key);
  const earlierFailures = FAILURES_COUNTED - forEmail.remaining - 1;
  const delay = signInDelayMs(earlierFailures);
  if (delay > 0) await wait(delay);

  const giveBack = () =>
    Promise.all([
      failuresPerEmail.refund(key),
      address && failuresPerEmailAddress.refund(emailAtAddress),
      address && failuresPerAddress.refund(address),
    ]);
  let value: T | null;
  try {
    value = await inTurn(key, check);
  } catch (error) {
    if (!(error instanceof PasswordChecksBusy)) throw error;
    await giveBack();
    return { outcome: "throttled", reason: "busy" };
  }
  if (value === null) {
    const failures = earlierFailures + 1;
    return { outcome: "refused", failures, waitedMs: delay, nextWaitMs: signInDelayMs(failures) };
  }
  await giveBack();
  return { outcome: "succeeded", value };
}

/**
 * Checks an email and password within the sign-in limits (throttledPasswordCheck). Returns the identity, null for
 * wrong credentials, or throws SIGN_IN_RATE_LIMITED (SIGN_IN_BUSY when the instance has all the password checks it
 * can take). Wrong credentials once the email's attempts wait throw wrongPasswordWaitCode, so that the page can say
 * how long the next try waits and why (the same for an unknown email: its failures count alike). Any other failure
 * (the database out) throws SIGN_IN_FAILED, its detail only in the server log: next-auth shows an error's message to
 * the visitor.
 */
export async function authorizeSignIn(
  credentials: unknown,
  headers?: Headers | Record<string, string | string[] | undefined>,
  wait: (ms: number) => Promise<void> = sleep,
): Promise<SignInIdentity | null> {
  const input = signInSchema.safeParse(credentials);
  if (!input.success) return null;
  const { email, password } = input.data;
  let attempt: PasswordAttempt<SignInIdentity>;
  try {
    attempt = await throttledPasswordCheck(
      email,
      headers,
      async () => verifyCredentials(await prisma(), email, password),
      wait,
    );
  } catch (error) {
    logError("Sign-in failed", error);
    throw new Error(SIGN_IN_FAILED);
  }
  const record = async (outcome: SignInOutcome, details?: Parameters<typeof recordSignIn>[4]) =>
    recordSignIn(await prisma(), outcome, email, clientAddress(headers), details);
  switch (attempt.outcome) {
    case "throttled":
      if (attempt.reason !== "busy") await record("throttled");
      throw new Error(attempt.reason === "busy" ? SIGN_IN_BUSY : SIGN_IN_RATE_LIMITED);
    case "refused": {
      await record("failed");
      const seconds = (ms: number) => ms / 1000;
      // The wait is recorded each time it grows (1, 2, 4 … 30 s: a handful of entries per window, not one per try).
      if (attempt.nextWaitMs > attempt.waitedMs)
        await record("throttled", {
          changes: {
            failed_attempts: [attempt.failures - 1, attempt.failures],
            wait_seconds: [seconds(attempt.waitedMs), seconds(attempt.nextWaitMs)],
          },
        });
      if (attempt.nextWaitMs > 0) throw new Error(wrongPasswordWaitCode(seconds(attempt.nextWaitMs)));
      return null;
    }
    case "succeeded":
      await record("succeeded", { identity: attempt.value });
      return attempt.value;
  }
}
