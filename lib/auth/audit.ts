// The audit entries of sign-ins and of a person's own account (decisions.md, Audit log). A sign-in entry is about
// the account whose email was typed, whoever typed it: it is written in each firm that has an active person with that
// email (an unknown email belongs to no firm, so it is recorded nowhere), with that person as actor and target.
import { changesBetween } from "@/lib/audit/entries";
import type { Actor, AuditEntry } from "@/lib/audit/mutations";
import { recordAudit } from "@/lib/audit/mutations";
import type { Changes } from "@/lib/audit/schemas";
import type { PrismaClient } from "@/lib/generated/prisma/client";

export type SignInOutcome = "succeeded" | "failed" | "throttled";

/**
 * Records a sign-in attempt. A success names the account signed in to (`identity`); `changes` says what a throttle
 * did (the per-email wait: `wait_seconds`, `failed_attempts`).
 */
export async function recordSignIn(
  client: PrismaClient,
  outcome: SignInOutcome,
  email: string,
  address: string | null,
  { identity, changes = {} }: { identity?: { tenantId: number; userId: number } | null; changes?: Changes } = {},
) {
  const people = identity
    ? [{ tenantId: identity.tenantId, id: identity.userId }]
    : await client.user.findMany({ where: { email, archivedDate: null }, select: { tenantId: true, id: true } });
  for (const person of people) {
    const actor: Actor = {
      tenantId: person.tenantId,
      via: "web",
      userId: person.id,
      tokenId: null,
      tokenName: null,
      address,
    };
    await recordAudit(
      client,
      { actor },
      { action: `sign_in.${outcome}`, target: { type: "user", id: person.id, name: email }, changes },
    );
  }
}

/** An audit entry about the person's own account. */
export function ownEntry(
  action: "profile.updated" | "password.changed",
  userId: number,
  user: { firstname: string; lastname: string },
  changes: Changes,
): AuditEntry {
  return { action, target: { type: "user", id: userId, name: `${user.firstname} ${user.lastname}`.trim() }, changes };
}

type Profile = { firstname: string; lastname: string; timezone: string };

/** The person's name and time zone, before and after they saved their profile. */
export const profileUpdated = (userId: number, before: Profile, after: Profile) =>
  ownEntry("profile.updated", userId, after, changesBetween(before, after));
