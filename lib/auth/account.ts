// A signed-in person's own account: name, time zone and password, and ending their sessions. Every function takes
// the person from the caller (the session), never from a form.
import { z } from "zod";
import { recordAudit, webActor } from "@/lib/audit/mutations";
import { isStorableText } from "@/lib/core/validation";
import { prisma } from "@/lib/db/client";
import { ownEntry, profileUpdated } from "./audit";
import { comparePassword, hashPassword } from "./password-hash";
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH } from "./password-rules";
import { throttledPasswordCheck } from "./sign-in";

export interface AccountOwner {
  tenantId: number;
  userId: number;
}

const name = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `Enter your ${what}.`)
    .max(100, `Your ${what} may be at most 100 characters.`)
    .refine(isStorableText, `Your ${what} may not contain NUL or unpaired surrogate characters.`);

/** The IANA name Intl knows the zone by ("europe/london" becomes "Europe/London"), or undefined for no zone. */
function canonicalTimeZone(value: string): string | undefined {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export const profileSchema = z.object({
  firstname: name("first name"),
  lastname: name("last name"),
  timezone: z
    .string()
    .trim()
    .max(100)
    .transform((value, context) => {
      const zone = value ? canonicalTimeZone(value) : undefined;
      if (zone) return zone;
      context.addIssue({ code: "custom", message: "Choose a time zone from the list, such as Europe/London." });
      return z.NEVER;
    }),
});

export const passwordChangeSchema = z
  .object({
    current: z.string().min(1, "Enter your current password."),
    next: z
      .string()
      .min(PASSWORD_MIN_LENGTH, `The new password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
      .refine(
        (value) => Buffer.byteLength(value) <= PASSWORD_MAX_BYTES,
        `The new password may be at most ${PASSWORD_MAX_BYTES} bytes (fewer characters for accented letters or emoji).`,
      )
      .refine(isStorableText, "The new password may not contain NUL or unpaired surrogate characters."),
    confirmation: z.string(),
  })
  .refine((input) => input.next === input.confirmation, {
    path: ["confirmation"],
    message: "The two new passwords differ. Type the same one twice.",
  });

const ownRow = (owner: AccountOwner) => ({ tenantId_id: { tenantId: owner.tenantId, id: owner.userId } });

/** The person's own name, as the profile form shows it. */
export async function loadProfile(owner: AccountOwner) {
  return (await prisma()).user.findUniqueOrThrow({
    where: ownRow(owner),
    select: { firstname: true, lastname: true },
  });
}

export async function updateProfile(owner: AccountOwner, profile: z.output<typeof profileSchema>) {
  const actor = await webActor(owner);
  await (await prisma()).$transaction(async (tx) => {
    const select = { firstname: true, lastname: true, timezone: true };
    const before = await tx.user.findUniqueOrThrow({ where: ownRow(owner), select });
    const after = await tx.user.update({
      where: ownRow(owner),
      data: profile,
      select,
    });
    await recordAudit(tx, { actor }, profileUpdated(owner.userId, before, after));
  });
}

/**
 * Sets a new password if `current` is the person's password, and ends all their sessions (this one is renewed by
 * the caller). The current password is checked under the sign-in limits (a session is no way around them), with
 * the request's `headers` giving the address. Returns the new session version, "wrong-password", or "throttled"
 * when a limit refused the check.
 */
export async function changePassword(
  owner: AccountOwner,
  current: string,
  next: string,
  headers?: Headers,
): Promise<number | "wrong-password" | "throttled"> {
  const client = await prisma();
  const where = ownRow(owner);
  const user = await client.user.findUnique({
    where,
    select: { email: true, passwordHash: true, firstname: true, lastname: true },
  });
  const hash = user?.passwordHash;
  if (!user || !hash) return "wrong-password";
  const attempt = await throttledPasswordCheck(user.email, headers, async () =>
    (await comparePassword(current, hash)) ? true : null,
  );
  if (attempt.outcome === "throttled") return "throttled";
  if (attempt.outcome === "refused") return "wrong-password";
  const [updated] = await client.$transaction([
    client.user.update({
      where,
      data: { passwordHash: await hashPassword(next), sessionVersion: { increment: 1 } },
      select: { sessionVersion: true },
    }),
    recordAudit(
      client,
      { actor: await webActor(owner) },
      ownEntry("password.changed", owner.userId, user, { password: "changed" }),
    ),
  ]);
  return updated.sessionVersion;
}

/**
 * Ends every session of the person that carries `sessionVersion`. A session already ended (an older version) ends
 * nothing, so a stolen, already dead cookie cannot be used to sign the person out again.
 */
export async function endSessions(owner: AccountOwner, sessionVersion: number) {
  await (await prisma()).user.updateMany({
    where: { tenantId: owner.tenantId, id: owner.userId, sessionVersion },
    data: { sessionVersion: { increment: 1 } },
  });
}

/** Whether a session of this user with this version is still current: the user active and the version not moved on. */
export async function sessionIsCurrent(owner: AccountOwner, sessionVersion: number): Promise<boolean> {
  const count = await (await prisma()).user.count({
    where: { tenantId: owner.tenantId, id: owner.userId, archivedDate: null, sessionVersion },
  });
  return count > 0;
}
