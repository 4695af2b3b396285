// A firm's people. Managed by the operator from the command line (user:create, user:archive; tenant:create adds
// the Owner through personRow): a new person gets a random password that is shown once and stored only as a
// bcrypt hash; they sign in with it and change it at /settings/profile. And by the firm's Owners and Admins on the
// team page (/settings/team, the second half of this file): a person invited there gets no password but a one-time
// link to set one (/invite/<token>), stored only as a SHA-256 hash.
import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { z } from "zod";
import { type AuditEntry, auditedChange, cliActor, recordAudit, webActor } from "@/lib/audit/mutations";
import { prisma } from "@/lib/db/client";
import { tenantDb } from "@/lib/db/tenant";
import { violatedUniqueConstraint } from "@/lib/db/unique";
import type { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import type { LinkPurpose } from "@/lib/generated/prisma/enums";
import { findTenant } from "@/lib/tenants/find";
import type { Tx } from "@/lib/webhooks/outbox";
import { memberChanges, memberEntry } from "./audit";
import { checkOperatorInput, collectRefusal, OperatorInputError, parseOperatorInput, TeamInputError } from "./errors";
import { hashInviteToken, type InviteLookup, lookupInvite, type TeamActor, teamDb } from "./queries";
import {
  CLIENT_ACCESS,
  fieldErrors,
  INVITE_DAYS,
  invitePasswordSchema,
  inviteSchema,
  memberChangeSchema,
  userIdSchema,
} from "./schemas";

const BCRYPT_COST = 10; // as the demo seed and sign-in expect

function isTimeZone(zone: string) {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The fields that describe a person, shared by tenant:create (its Owner) and user:create. */
export const personFields = {
  email: z.string().trim().pipe(z.email("Must be a valid email address.").max(254)),
  name: z.string().trim().min(1, "Give the person's full name.").max(200, "Must be at most 200 characters."),
  timezone: z.string().trim().refine(isTimeZone, "Must be an IANA time zone name, such as Europe/London.").optional(),
};

/** A new user row with a fresh one-time password, and that password (its only appearance). */
export async function personRow(person: { email: string; name: string; timezone: string }) {
  const password = randomBytes(15).toString("base64url");
  const [firstname, ...rest] = person.name.split(/\s+/);
  return {
    password,
    row: {
      email: person.email,
      firstname,
      lastname: rest.join(" "),
      timezone: person.timezone,
      passwordHash: await bcrypt.hash(password, BCRYPT_COST),
    },
  };
}

const createUserInput = z
  .object({
    tenant: z.string().trim().min(1, "Name the firm (its id or name)."),
    ...personFields,
    role: z.string().trim().min(1).default("Standard"),
    clientAccess: z.enum(CLIENT_ACCESS, `Must be one of: ${CLIENT_ACCESS.join(", ")}.`).default("all"),
    clientGroups: z.array(z.string().trim().min(1).max(200)).max(100).default([]),
  })
  .superRefine((input, ctx) => {
    if (input.clientAccess === "client_groups" && input.clientGroups.length === 0)
      ctx.addIssue({
        code: "custom",
        path: ["clientGroups"],
        message: "Client access client_groups needs at least one client group.",
      });
    if (input.clientAccess !== "client_groups" && input.clientGroups.length > 0)
      ctx.addIssue({
        code: "custom",
        path: ["clientGroups"],
        message: "Client groups apply only with client access client_groups.",
      });
  });

export type CreateUserInput = z.input<typeof createUserInput>;

/**
 * Adds a person to a firm with a role (any of the firm's roles but Owner: a firm has one Owner), a client access
 * and, for client_groups access, client groups by name (created when the firm does not have them yet). Refuses with
 * every field at fault at once (the firm, its role and the email are looked up even when other fields are wrong).
 */
export async function createUser(client: PrismaClient, raw: CreateUserInput) {
  const { data: input, fields } = checkOperatorInput(createUserInput, raw);
  const tenant = fields.tenant ? null : await collectRefusal(fields, findTenant(client, raw.tenant));
  const db = tenant && tenantDb(client, tenant.id);
  const roles = db ? await db.role.findMany({ orderBy: { id: "asc" } }) : [];
  const roleName = raw.role?.trim() || "Standard";
  const role = roles.find((r) => r.name.toLowerCase() === roleName.toLowerCase());
  if (tenant && (!role || role.name === "Owner")) {
    const choices = roles.filter((r) => r.name !== "Owner").map((r) => r.name);
    (fields.role ??= []).push(
      `${role ? "A firm has one Owner, made with the firm." : `${tenant.name} has no role "${roleName}".`} Choose one of: ${choices.join(", ")}.`,
    );
  }
  const email = fields.email ? null : raw.email.trim();
  const duplicate = () => ({ email: [`${tenant?.name} already has a user with the email ${email}.`] });
  if (db && email && (await db.user.findFirst({ where: { email } }))) Object.assign(fields, duplicate());
  if (!input || !tenant || !db || !role || Object.keys(fields).length) throw new OperatorInputError(fields);

  const { row, password } = await personRow({ ...input, timezone: input.timezone ?? tenant.timezone });
  try {
    const { user, createdGroups } = await db.$transaction(async (tx) => {
      const existing = await tx.clientGroup.findMany({ where: { name: { in: input.clientGroups } } });
      const missing = [...new Set(input.clientGroups)].filter((name) => !existing.some((g) => g.name === name));
      const created = await tx.clientGroup.createManyAndReturn({
        data: missing.map((name) => ({ tenantId: tenant.id, name })),
      });
      const user = await tx.user.create({
        data: { ...row, tenantId: tenant.id, roleId: role.id, clientAccess: input.clientAccess },
      });
      await tx.userClientGroup.createMany({
        data: [...existing, ...created].map((g) => ({ tenantId: tenant.id, userId: user.id, groupId: g.id })),
      });
      await recordAudit(
        tx,
        { actor: cliActor(tenant.id) },
        memberEntry("member.created", user, {
          email: user.email,
          role: role.name,
          client_access: input.clientAccess,
          client_groups: [...existing, ...created].map((g) => g.id).sort((a, b) => a - b),
        }),
      );
      return { user, createdGroups: created.map((g) => g.name) };
    });
    return { tenant, user, role: role.name, password, createdGroups };
  } catch (error) {
    // Two runs racing for the same email: the unique index decides.
    if (violatedUniqueConstraint(error) === "users_tenant_id_email_key") throw new OperatorInputError(duplicate());
    throw error;
  }
}

const archiveUserInput = z.object({
  tenant: z.string().trim().min(1, "Name the firm (its id or name)."),
  email: personFields.email,
});

/**
 * Archives a person: their sessions end, their API tokens are revoked and they can no longer sign in; their records
 * stay. The Owner cannot be archived.
 */
export async function archiveUser(client: PrismaClient, raw: z.input<typeof archiveUserInput>) {
  const input = parseOperatorInput(archiveUserInput, raw);
  const tenant = await findTenant(client, input.tenant);
  const db = tenantDb(client, tenant.id);
  const user = await db.user.findFirst({ where: { email: input.email } });
  if (!user) throw new OperatorInputError({ email: [`${tenant.name} has no user with the email ${input.email}.`] });
  if (user.isOwner)
    throw new OperatorInputError({ email: [`${user.email} is the Owner of ${tenant.name} and cannot be archived.`] });
  if (user.archivedDate)
    throw new OperatorInputError({
      email: [`${user.email} was already archived on ${user.archivedDate.toISOString().slice(0, 10)}.`],
    });
  const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  // As the team page archives (archiveTeamMember): sessions and tokens end for good, not only while archived.
  const [archived] = await db.$transaction([
    db.user.update({
      where: { tenantId_id: { tenantId: user.tenantId, id: user.id } },
      data: { archivedDate: today, sessionVersion: { increment: 1 } },
    }),
    db.apiToken.deleteMany({ where: { userId: user.id } }),
    db.userInvite.deleteMany({ where: { userId: user.id, usedAt: null } }),
    recordAudit(db, { actor: cliActor(tenant.id) }, memberEntry("member.archived", user)),
  ]);
  return { tenant, user: archived };
}

// ---- The team page (/settings/team) and the invite page (/invite/<token>) ----
// Every function below checks afresh that the signed-in person may manage the firm's people (teamDb), works in their
// firm only, and looks each id it is given up inside that firm: an id of another firm's person, role or group
// matches nothing.

const DAY_MS = 24 * 60 * 60 * 1000;

export function parseTeamInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new TeamInputError(fieldErrors(result.error));
  return result.data;
}

/**
 * A new one-time link's secret (32 random bytes) and the row that stores only its hash: an invite (valid 7 days) or
 * a reset link (lib/team/password-reset.ts).
 */
export function newLink(
  tenantId: number,
  userId: number,
  purpose: LinkPurpose = "invite",
  lifetimeMs = INVITE_DAYS * DAY_MS,
) {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + lifetimeMs);
  return { token, expiresAt, row: { tenantId, userId, purpose, tokenHash: hashInviteToken(token), expiresAt } };
}

export type Db = Awaited<ReturnType<typeof teamDb>>["db"];

/** A person of the actor's firm, by an id from a form. */
export async function findMember(db: Db, rawId: unknown) {
  const id = parseTeamInput(userIdSchema, rawId);
  const user = await db.user.findFirst({
    where: { id },
    select: {
      id: true,
      firstname: true,
      lastname: true,
      isOwner: true,
      archivedDate: true,
      passwordHash: true,
      clientAccess: true,
      role: { select: { name: true } },
      clientGroups: { select: { groupId: true } },
    },
  });
  if (!user) throw new TeamInputError({ form: "That person is not in your firm." });
  return { ...user, name: `${user.firstname} ${user.lastname}`.trim() };
}

/** A role a person may be given, by an id from a form: any of the firm's roles but Owner. */
async function findAssignableRole(db: Db, id: number) {
  const role = await db.role.findFirst({ where: { id }, select: { id: true, name: true } });
  if (!role || role.name === "Owner") throw new TeamInputError({ roleId: "Choose one of the roles in the list." });
  return role;
}

/** Client groups of the firm, by ids from a form; any id the firm lacks is refused. */
async function findGroups(db: Db, ids: number[]) {
  const unique = [...new Set(ids)];
  const groups = await db.clientGroup.findMany({ where: { id: { in: unique } }, select: { id: true } });
  if (groups.length !== unique.length) throw new TeamInputError({ groupIds: "Choose client groups from the list." });
  return unique;
}

export interface InviteLink {
  userId: number;
  name: string;
  email: string;
  /** The link's secret: returned once, never stored. */
  token: string;
  expiresAt: Date;
}

const duplicateEmail = () => new TeamInputError({ email: "Someone in your firm already has this email." });

/** Adds a person without a password, with the role, client access and groups given, and a link to set one. */
export async function inviteTeamMember(actor: TeamActor, raw: unknown): Promise<InviteLink> {
  const { db } = await teamDb(actor);
  const input = parseTeamInput(inviteSchema, raw);
  const role = await findAssignableRole(db, input.roleId);
  const groupIds = await findGroups(db, input.groupIds);
  if (await db.user.findFirst({ where: { email: input.email }, select: { id: true } })) throw duplicateEmail();
  const tenant = await db.tenant.findFirstOrThrow({ select: { timezone: true } });
  const acting = { actor: await webActor(actor) };
  const [firstname, ...rest] = input.name.split(/\s+/);
  try {
    return await db.$transaction(async (tx) => {
      const user = await tx.user.create({
        data: {
          tenantId: actor.tenantId,
          email: input.email,
          firstname,
          lastname: rest.join(" "),
          timezone: tenant.timezone,
          roleId: role.id,
          clientAccess: input.clientAccess,
          passwordHash: null,
        },
        select: { id: true, firstname: true, lastname: true, email: true },
      });
      await tx.userClientGroup.createMany({
        data: groupIds.map((groupId) => ({ tenantId: actor.tenantId, userId: user.id, groupId })),
      });
      const invite = newLink(actor.tenantId, user.id);
      await tx.userInvite.create({ data: invite.row });
      await recordAudit(
        tx,
        acting,
        memberEntry("member.invited", user, {
          email: user.email,
          role: role.name,
          client_access: input.clientAccess,
          client_groups: groupIds,
        }),
      );
      const name = `${user.firstname} ${user.lastname}`.trim();
      return { userId: user.id, name, email: user.email, token: invite.token, expiresAt: invite.expiresAt };
    });
  } catch (error) {
    // Two invites racing for the same email: the unique index decides.
    if (violatedUniqueConstraint(error) === "users_tenant_id_email_key") throw duplicateEmail();
    throw error;
  }
}

/** A new link for an invited person who has not set a password yet; their older links stop working. */
export async function renewInvite(actor: TeamActor, rawUserId: unknown): Promise<InviteLink> {
  const { db } = await teamDb(actor);
  const member = await findMember(db, rawUserId);
  if (member.archivedDate) throw new TeamInputError({ form: `${member.name} is archived: unarchive them first.` });
  if (member.passwordHash) throw new TeamInputError({ form: `${member.name} has already set a password.` });
  const invite = newLink(actor.tenantId, member.id);
  await auditedChange(db, { actor: await webActor(actor) }, async (tx) => {
    await tx.userInvite.deleteMany({ where: { userId: member.id, usedAt: null, purpose: "invite" } });
    await tx.userInvite.create({ data: invite.row });
    return { result: undefined, entries: [memberEntry("member.invite_renewed", member)] };
  });
  const { email } = await db.user.findFirstOrThrow({ where: { id: member.id }, select: { email: true } });
  return { userId: member.id, name: member.name, email, token: invite.token, expiresAt: invite.expiresAt };
}

/** Changes a person's role, client access and client groups. The Owner's cannot be changed. */
export async function updateTeamMember(actor: TeamActor, raw: { userId: unknown } & Record<string, unknown>) {
  const { db } = await teamDb(actor);
  const member = await findMember(db, raw.userId);
  if (member.isOwner)
    throw new TeamInputError({ form: "The Owner's role and access cannot be changed: the Owner may do everything." });
  const input = parseTeamInput(memberChangeSchema, raw);
  const role = await findAssignableRole(db, input.roleId);
  const groupIds = await findGroups(db, input.groupIds);
  const audit = memberChanges(
    { ...member, role: member.role.name, groupIds: member.clientGroups.map((g) => g.groupId) },
    { role: role.name, clientAccess: input.clientAccess, groupIds },
  );
  await db.$transaction([
    ...(audit.length ? [recordAudit(db, { actor: await webActor(actor) }, ...audit)] : []),
    db.user.update({
      where: { tenantId_id: { tenantId: actor.tenantId, id: member.id } },
      data: { roleId: role.id, clientAccess: input.clientAccess },
    }),
    db.userClientGroup.deleteMany({ where: { userId: member.id } }),
    db.userClientGroup.createMany({
      data: groupIds.map((groupId) => ({ tenantId: actor.tenantId, userId: member.id, groupId })),
    }),
  ]);
  return { userId: member.id, name: member.name, role: role.name };
}

/**
 * Archives a person: their sessions end at once (the session version moves on, so unarchiving does not bring them
 * back), their API tokens are revoked and their unused invite links deleted; their records stay. The Owner cannot be
 * archived, nor can anyone archive themselves.
 */
export async function archiveTeamMember(actor: TeamActor, rawUserId: unknown) {
  const { db } = await teamDb(actor);
  const member = await findMember(db, rawUserId);
  if (member.isOwner) throw new TeamInputError({ form: `${member.name} is the Owner and cannot be archived.` });
  if (member.id === actor.userId) throw new TeamInputError({ form: "You cannot archive yourself." });
  if (member.archivedDate) throw new TeamInputError({ form: `${member.name} is already archived.` });
  const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const [, tokens] = await db.$transaction([
    db.user.update({
      where: { tenantId_id: { tenantId: actor.tenantId, id: member.id } },
      data: { archivedDate: today, sessionVersion: { increment: 1 } },
    }),
    db.apiToken.deleteMany({ where: { userId: member.id } }),
    db.userInvite.deleteMany({ where: { userId: member.id, usedAt: null } }),
    recordAudit(db, { actor: await webActor(actor) }, memberEntry("member.archived", member)),
  ]);
  return { userId: member.id, name: member.name, revokedTokens: tokens.count };
}

/**
 * Brings an archived person back. They sign in again (an invited person without a password needs a new link); the
 * sessions and tokens they had stay ended, also for someone archived by the operator's user:archive, which only sets
 * the date: the session version moves on and any token left is revoked.
 */
export async function unarchiveTeamMember(actor: TeamActor, rawUserId: unknown) {
  const { db } = await teamDb(actor);
  const member = await findMember(db, rawUserId);
  if (!member.archivedDate) throw new TeamInputError({ form: `${member.name} is not archived.` });
  await db.$transaction([
    db.user.update({
      where: { tenantId_id: { tenantId: actor.tenantId, id: member.id } },
      data: { archivedDate: null, sessionVersion: { increment: 1 } },
    }),
    db.apiToken.deleteMany({ where: { userId: member.id } }),
    recordAudit(db, { actor: await webActor(actor) }, memberEntry("member.unarchived", member)),
  ]);
  return { userId: member.id, name: member.name, needsInvite: !member.passwordHash };
}

export type SetPasswordResult =
  | Exclude<InviteLookup, { status: "valid" }>
  | { status: "invalid"; errors: Partial<Record<string, string>> }
  | { status: "done"; email: string };

/** What setting a password from a link does beside it, in its transaction, and the entry that records it. */
type LinkUse = (tx: Tx, member: { id: number; firstname: string; lastname: string }) => Promise<AuditEntry>;

/**
 * Sets a password from a one-time link (`found`, looked up by its page), which then stops working: of two
 * concurrent uses, one wins. The link is judged before the password, so a used or expired link says so whatever was
 * typed. The password is set only for a person still active and, for an invite, still without one (`person`); it
 * ends every session of theirs.
 */
export async function setPasswordWithLink(
  found: InviteLookup,
  raw: unknown,
  person: Prisma.UserWhereInput,
  use: LinkUse,
): Promise<SetPasswordResult> {
  if (found.status !== "valid") return found;
  const input = invitePasswordSchema.safeParse(raw);
  if (!input.success) return { status: "invalid", errors: fieldErrors(input.error) };
  const passwordHash = await bcrypt.hash(input.data.password, BCRYPT_COST);
  const { invite } = found;
  const db = tenantDb(await prisma(), invite.tenantId);
  const now = new Date();
  const acting = { actor: await webActor({ tenantId: invite.tenantId, userId: invite.userId }) };
  const claimed = await auditedChange(db, acting, async (tx) => {
    const { count } = await tx.userInvite.updateMany({
      where: { id: invite.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (count !== 1) return { result: false, entries: [] };
    const updated = await tx.user.updateMany({
      where: { ...person, id: invite.userId, archivedDate: null },
      data: { passwordHash, sessionVersion: { increment: 1 } },
    });
    if (updated.count !== 1) throw new LinkRaceLost();
    const member = await tx.user.findFirstOrThrow({
      where: { id: invite.userId },
      select: { id: true, firstname: true, lastname: true },
    });
    return { result: true, entries: [await use(tx, member)] };
  }).catch((error) => {
    if (error instanceof LinkRaceLost) return false;
    throw error;
  });
  if (!claimed) return { status: "used" };
  return { status: "done", email: found.person.email };
}

class LinkRaceLost extends Error {}

/** Sets the first password of an invited person from their link (/invite/<token>). */
export async function acceptInvite(token: string, raw: unknown): Promise<SetPasswordResult> {
  return setPasswordWithLink(await lookupInvite(token), raw, { passwordHash: null }, async (_tx, member) => ({
    ...memberEntry("member.invite_accepted", member),
    changes: { password: "changed" },
  }));
}
