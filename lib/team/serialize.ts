// The team page's view of a person: what an Owner or Admin may see of a colleague (never a password hash).
import type { ClientAccess } from "@/lib/generated/prisma/enums";

export type TeamMemberStatus = "active" | "invited" | "archived";

export interface TeamMember {
  id: number;
  name: string;
  email: string;
  isOwner: boolean;
  role: { id: number; name: string };
  clientAccess: ClientAccess;
  groups: { id: number; name: string }[];
  status: TeamMemberStatus;
  /** For an invited person: when their newest unused link expires (null when none is left). */
  inviteExpiresAt: Date | null;
  archivedDate: Date | null;
}

export interface TeamMemberRow {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  isOwner: boolean;
  passwordHash: string | null;
  archivedDate: Date | null;
  clientAccess: ClientAccess;
  role: { id: number; name: string };
  clientGroups: { group: { id: number; name: string } }[];
  invites: { expiresAt: Date }[];
}

export function teamMember(row: TeamMemberRow): TeamMember {
  const status: TeamMemberStatus = row.archivedDate ? "archived" : row.passwordHash ? "active" : "invited";
  return {
    id: row.id,
    name: `${row.firstname} ${row.lastname}`.trim(),
    email: row.email,
    isOwner: row.isOwner,
    role: row.role,
    clientAccess: row.clientAccess,
    groups: row.clientGroups.map((g) => g.group).sort((a, b) => a.name.localeCompare(b.name)),
    status,
    inviteExpiresAt: status === "invited" ? (row.invites[0]?.expiresAt ?? null) : null,
    archivedDate: row.archivedDate,
  };
}
