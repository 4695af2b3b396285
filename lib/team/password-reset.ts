// Getting back in after a forgotten password (decisions.md, "Tokens and sign-in"): a one-time link to set a new
// password, for an active person of a firm. An Owner or Admin gives one on the team page (not an Admin to the Owner),
// the operator's command (user:reset-password) to anyone, the Owner included, and "Forgot password?" on the sign-in
// page mails one where the deployment can send mail (lib/auth/forgot-password.ts). A link works once, for 24 hours;
// a newer one replaces it; using it sets the password, ends every session of the person and, if they choose, revokes
// their API tokens. Stored, like an invite, only as a SHA-256 hash (user_invites, purpose password_reset).
import { z } from "zod";
import { type Actor, auditedChange, cliActor, webActor } from "@/lib/audit/mutations";
import { tenantDb } from "@/lib/db/tenant";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { findTenant } from "@/lib/tenants/find";
import { memberEntry } from "./audit";
import { OperatorInputError, parseOperatorInput, TeamInputError } from "./errors";
import { findMember, newLink, personFields, type SetPasswordResult, setPasswordWithLink } from "./mutations";
import { lookupResetLink, type TeamActor, teamDb } from "./queries";

/** How long a reset link works. */
export const RESET_LINK_HOURS = 24;

export interface ResetLink {
  userId: number;
  name: string;
  email: string;
  /** The firm's name, for a person of several firms. */
  firm: string;
  /** The link's secret: returned once, never stored. */
  token: string;
  expiresAt: Date;
}

interface Person {
  tenantId: number;
  id: number;
  firstname: string;
  lastname: string;
  email: string;
}

/**
 * Makes a person's reset link, in place of any unused one, with its audit entry (`entry`: who asked, and how), in one
 * transaction.
 */
async function makeResetLink(
  client: PrismaClient,
  person: Person,
  actor: Actor,
  entry: "member.reset_link_created" | "password.reset_requested",
): Promise<ResetLink> {
  const db = tenantDb(client, person.tenantId);
  const link = newLink(person.tenantId, person.id, "password_reset", RESET_LINK_HOURS * 60 * 60 * 1000);
  const tenant = await db.tenant.findFirstOrThrow({ select: { name: true } });
  await auditedChange(db, { actor }, async (tx) => {
    await tx.userInvite.deleteMany({ where: { userId: person.id, usedAt: null, purpose: "password_reset" } });
    await tx.userInvite.create({ data: link.row });
    return { result: undefined, entries: [memberEntry(entry, person)] };
  });
  const name = `${person.firstname} ${person.lastname}`.trim();
  return {
    userId: person.id,
    name,
    email: person.email,
    firm: tenant.name,
    token: link.token,
    expiresAt: link.expiresAt,
  };
}

/**
 * The team page: an Owner or Admin gives an active person of their firm a reset link. Refused for someone archived or
 * invited (they have no password to reset: a new invite link is theirs), for oneself (the profile page changes one's
 * own password), and so for the Owner: an Admin must not be able to take over the Owner's account (the operator's
 * command gets the Owner back in).
 */
export async function createResetLink(actor: TeamActor, rawUserId: unknown): Promise<ResetLink> {
  const { client, db } = await teamDb(actor);
  const member = await findMember(db, rawUserId);
  if (member.id === actor.userId) throw new TeamInputError({ form: "Change your own password on your profile page." });
  if (member.archivedDate) throw new TeamInputError({ form: `${member.name} is archived: unarchive them first.` });
  if (!member.passwordHash)
    throw new TeamInputError({ form: `${member.name} has not set a password yet: make them a new invite link.` });
  // The Owner is never someone else (a firm has one), so this refuses every Admin.
  if (member.isOwner)
    throw new TeamInputError({
      form:
        "An Admin cannot give the Owner a reset link. The Owner changes their password on their profile page; if " +
        "they cannot sign in, the operator of this service makes them one (npm run user:reset-password).",
    });
  const { email } = await db.user.findFirstOrThrow({ where: { id: member.id }, select: { email: true } });
  return makeResetLink(
    client,
    { ...member, tenantId: actor.tenantId, email },
    await webActor(actor),
    "member.reset_link_created",
  );
}

const operatorInput = z.object({
  tenant: z.string().trim().optional(),
  email: personFields.email,
});

/**
 * The operator's command (user:reset-password): a reset link for anyone active with a password, the Owner included.
 * `tenant` (a firm's id or name) is needed only when the email is a person's in several firms.
 */
export async function createResetLinkForOperator(
  client: PrismaClient,
  raw: z.input<typeof operatorInput>,
): Promise<ResetLink> {
  const input = parseOperatorInput(operatorInput, raw);
  const tenant = input.tenant ? await findTenant(client, input.tenant) : null;
  const people = await client.user.findMany({
    where: { email: input.email, ...(tenant ? { tenantId: tenant.id } : {}) },
    select: {
      tenantId: true,
      id: true,
      firstname: true,
      lastname: true,
      email: true,
      passwordHash: true,
      archivedDate: true,
      tenant: { select: { name: true } },
    },
    orderBy: [{ tenantId: "asc" }],
  });
  const where = tenant ? `${tenant.name} has` : "No firm has";
  if (people.length === 0)
    throw new OperatorInputError({ email: [`${where} a person with the email ${input.email}.`] });
  if (people.length > 1) {
    const firms = people.map((p) => `${p.tenantId} (${p.tenant.name})`).join(", ");
    throw new OperatorInputError({ tenant: [`${input.email} is a person in several firms: ${firms}. Name one.`] });
  }
  const [person] = people;
  if (person.archivedDate)
    throw new OperatorInputError({
      email: [`${person.email} is archived in ${person.tenant.name}: unarchive them first.`],
    });
  if (!person.passwordHash)
    throw new OperatorInputError({
      email: [`${person.email} has not set a password yet: their invite link (the team page makes a new one) sets it.`],
    });
  return makeResetLink(client, person, cliActor(person.tenantId), "member.reset_link_created");
}

/**
 * "Forgot password?": a reset link for every active account with this email that has a password (one per firm), each
 * recorded in its firm's log as asked for from the sign-in page. Whoever asks need not be the person, so the entry
 * names the account, as sign-in entries do.
 */
export async function createResetLinksForEmail(
  client: PrismaClient,
  email: string,
  address: string | null,
): Promise<ResetLink[]> {
  const people = await client.user.findMany({
    where: { email, archivedDate: null, passwordHash: { not: null } },
    select: { tenantId: true, id: true, firstname: true, lastname: true, email: true },
    orderBy: [{ tenantId: "asc" }],
  });
  const links: ResetLink[] = [];
  for (const person of people) {
    const actor: Actor = { ...cliActor(person.tenantId), via: "web", userId: person.id, address };
    links.push(await makeResetLink(client, person, actor, "password.reset_requested"));
  }
  return links;
}

/**
 * Sets a new password from a reset link: the link then stops working, every session of the person ends (the session
 * version moves on), and with `revokeTokens` their API tokens are revoked too, in the same transaction.
 */
export async function resetPassword(
  token: string,
  raw: { password: string; confirmation: string; revokeTokens: boolean },
): Promise<SetPasswordResult> {
  return setPasswordWithLink(await lookupResetLink(token), raw, { passwordHash: { not: null } }, async (tx, member) => {
    const revoked = raw.revokeTokens ? (await tx.apiToken.deleteMany({ where: { userId: member.id } })).count : 0;
    const entry = memberEntry("password.reset", member, revoked ? { api_tokens: 0 } : {}, { api_tokens: revoked });
    return { ...entry, changes: { password: "changed", ...entry.changes } };
  });
}
