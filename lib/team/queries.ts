// Reads of the team page (/settings/team), the invite page (/invite/<token>) and the reset page (/reset/<token>).
// Every team read is scoped to the signed-in person's firm and checks their permission (`users.manage`, read afresh from their role) itself.
import { createHash, timingSafeEqual } from "node:crypto";
import { loadPermissions } from "@/lib/auth/permissions";
import { prisma } from "@/lib/db/client";
import { tenantDb } from "@/lib/db/tenant";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { LinkPurpose } from "@/lib/generated/prisma/enums";
import { TeamPermissionError } from "./errors";
import { INVITE_TOKEN_PATTERN } from "./schemas";
import { type TeamMember, teamMember } from "./serialize";

/** The signed-in person, as the session names them: their firm and their user id. */
export interface TeamActor {
  tenantId: number;
  userId: number;
}

/** Whether the person may manage the firm's people: what shows the Team link and the page. */
export async function canManageTeam(actor: TeamActor): Promise<boolean> {
  return (await loadPermissions(await prisma(), actor)).has("users.manage");
}

/** The person's firm's database, after checking (afresh) that they may manage its people. */
export async function teamDb(actor: TeamActor) {
  const client = await prisma();
  if (!(await loadPermissions(client, actor)).has("users.manage")) throw new TeamPermissionError();
  return { client, db: tenantDb(client, actor.tenantId) };
}

export const memberSelect = {
  id: true,
  firstname: true,
  lastname: true,
  email: true,
  isOwner: true,
  passwordHash: true,
  archivedDate: true,
  clientAccess: true,
  role: { select: { id: true, name: true } },
  clientGroups: { select: { group: { select: { id: true, name: true } } } },
  invites: {
    where: { usedAt: null, purpose: "invite" },
    select: { expiresAt: true },
    orderBy: { expiresAt: "desc" },
    take: 1,
  },
} as const;

export interface TeamOverview {
  members: TeamMember[];
  /** The roles a person may be given: every role of the firm but Owner (a firm has one Owner). */
  roles: { id: number; name: string }[];
  groups: { id: number; name: string }[];
}

/** The firm's people (the Owner first, archived people last, by name), and the roles and groups to choose from. */
export async function listTeam(actor: TeamActor): Promise<TeamOverview> {
  const { db } = await teamDb(actor);
  const [rows, roles, groups] = await Promise.all([
    db.user.findMany({ select: memberSelect, orderBy: [{ firstname: "asc" }, { lastname: "asc" }, { id: "asc" }] }),
    db.role.findMany({ where: { NOT: { name: "Owner" } }, select: { id: true, name: true }, orderBy: { id: "asc" } }),
    db.clientGroup.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } }),
  ]);
  const rank = (m: TeamMember) => (m.isOwner ? 0 : m.status === "archived" ? 2 : 1);
  const members = rows.map(teamMember).sort((a, b) => rank(a) - rank(b));
  return { members, roles, groups };
}

export function hashInviteToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export type InviteLookup =
  | { status: "unknown" | "used" }
  | { status: "expired"; expiresAt: Date }
  | {
      status: "valid";
      invite: { tenantId: number; id: number; userId: number; expiresAt: Date };
      person: { name: string; email: string; firm: string };
    };

/**
 * What an invite link is: unknown (never made, replaced by a newer link, or its person archived), used (also once its
 * person has a password), expired, or valid. Runs before the firm is known (the link's hash names it), like token
 * authentication.
 */
export function lookupInvite(token: string, client?: PrismaClient): Promise<InviteLookup> {
  return lookupLink(token, "invite", client);
}

/** What a reset link (lib/team/password-reset.ts) is, as lookupInvite says it of an invite. */
export function lookupResetLink(token: string, client?: PrismaClient): Promise<InviteLookup> {
  return lookupLink(token, "password_reset", client);
}

async function lookupLink(token: string, purpose: LinkPurpose, client?: PrismaClient): Promise<InviteLookup> {
  if (!INVITE_TOKEN_PATTERN.test(token)) return { status: "unknown" };
  const hash = hashInviteToken(token);
  const row = await (client ?? (await prisma())).userInvite.findFirst({
    where: { tokenHash: hash, purpose },
    select: {
      tenantId: true,
      id: true,
      userId: true,
      tokenHash: true,
      expiresAt: true,
      usedAt: true,
      user: { select: { firstname: true, lastname: true, email: true, archivedDate: true, passwordHash: true } },
      tenant: { select: { name: true } },
    },
  });
  // The lookup matched on the hash already; comparing again in constant time keeps that property explicit.
  if (!row || !timingSafeEqual(Buffer.from(row.tokenHash), Buffer.from(hash)) || row.user.archivedDate)
    return { status: "unknown" };
  // An invite is spent once its person has a password, however they got it.
  if (row.usedAt || (purpose === "invite" && row.user.passwordHash)) return { status: "used" };
  if (row.expiresAt.getTime() <= Date.now()) return { status: "expired", expiresAt: row.expiresAt };
  return {
    status: "valid",
    invite: { tenantId: row.tenantId, id: row.id, userId: row.userId, expiresAt: row.expiresAt },
    person: { name: `${row.user.firstname} ${row.user.lastname}`.trim(), email: row.user.email, firm: row.tenant.name },
  };
}
