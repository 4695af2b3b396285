// Which records a user may see (decisions.md, "Tenancy, roles, visibility"), as Prisma filters, and for the reads
// PostgreSQL builds as JSON (lib/db/json-rows.ts) the same rule as SQL. Lists add the filter and so leave out what
// is not visible; a direct read of a record outside it is a 403.

import type { Caller } from "@/lib/auth/caller";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ClientAccess } from "@/lib/generated/prisma/enums";

type Viewer = Pick<Caller, "user" | "roleName">;

/**
 * Which clients the user sees, the rule both forms below build on: Owners and Admins every client whatever their
 * client access, anyone else as their client access says (all, their client groups' or their assigned clients).
 */
export function clientsSeen({ user, roleName }: Viewer): ClientAccess {
  return user.isOwner || roleName === "Owner" || roleName === "Admin" ? "all" : user.clientAccess;
}

export const seesAllClients = (viewer: Viewer): boolean => clientsSeen(viewer) === "all";

/** Clients the user may see; undefined when that is all of them. */
export function visibleClients(viewer: Viewer): Prisma.ClientWhereInput | undefined {
  const seen = clientsSeen(viewer);
  if (seen === "all") return undefined;
  const userId = viewer.user.id;
  if (seen === "client_groups") {
    return { groups: { some: { group: { users: { some: { userId } } } } } };
  }
  // Account manager or assignee of one of its jobs: kept in assigned_clients by database triggers.
  return { assignedTo: { some: { userId } } };
}

/** Jobs of visible clients, and jobs the user is assigned to or follows. */
export function visibleJobs(viewer: Viewer): Prisma.JobWhereInput | undefined {
  const clients = visibleClients(viewer);
  if (!clients) return undefined;
  const userId = viewer.user.id;
  return { OR: [{ client: clients }, { assignees: { some: { userId } } }, { followers: { some: { userId } } }] };
}

/** Contacts linked to a visible client; contacts linked to no client only for users who see all clients. */
export function visibleContacts(viewer: Viewer): Prisma.ContactWhereInput | undefined {
  const clients = visibleClients(viewer);
  if (!clients) return undefined;
  return { clients: { some: { client: clients } } };
}

/** visibleClients as a SQL condition on the client row `alias` (the same rule; TRUE when the user sees all). */
export function visibleClientsSql(viewer: Viewer, alias: string): Prisma.Sql {
  const seen = clientsSeen(viewer);
  if (seen === "all") return Prisma.sql`TRUE`;
  const client = Prisma.raw(alias);
  if (seen === "client_groups") {
    return Prisma.sql`EXISTS (
      SELECT 1 FROM client_group_members m
      JOIN user_client_groups g ON (g.tenant_id, g.group_id) = (m.tenant_id, m.group_id)
      WHERE m.tenant_id = ${client}.tenant_id AND m.client_id = ${client}.id AND g.user_id = ${viewer.user.id})`;
  }
  return Prisma.sql`EXISTS (
    SELECT 1 FROM assigned_clients a
    WHERE a.tenant_id = ${client}.tenant_id AND a.client_id = ${client}.id AND a.user_id = ${viewer.user.id})`;
}

/** visibleContacts as a SQL condition on the contact row `alias` (the same rule; TRUE when the user sees all clients). */
export function visibleContactsSql(viewer: Viewer, alias: string): Prisma.Sql {
  if (seesAllClients(viewer)) return Prisma.sql`TRUE`;
  const contact = Prisma.raw(alias);
  return Prisma.sql`EXISTS (
    SELECT 1 FROM client_contacts vl JOIN clients vc ON (vc.tenant_id, vc.id) = (vl.tenant_id, vl.client_id)
    WHERE vl.tenant_id = ${contact}.tenant_id AND vl.contact_id = ${contact}.id AND ${visibleClientsSql(viewer, "vc")})`;
}

/** visibleJobs as a SQL condition on the job row `alias` (the same rule; TRUE when the user sees all clients). */
export function visibleJobsSql(viewer: Viewer, alias: string): Prisma.Sql {
  if (seesAllClients(viewer)) return Prisma.sql`TRUE`;
  const job = Prisma.raw(alias);
  const userId = viewer.user.id;
  return Prisma.sql`(EXISTS (
      SELECT 1 FROM clients vc WHERE (vc.tenant_id, vc.id) = (${job}.tenant_id, ${job}.client_id)
      AND ${visibleClientsSql(viewer, "vc")})
    OR EXISTS (SELECT 1 FROM job_assignees va WHERE (va.tenant_id, va.job_id) = (${job}.tenant_id, ${job}.id) AND va.user_id = ${userId})
    OR EXISTS (SELECT 1 FROM job_followers vf WHERE (vf.tenant_id, vf.job_id) = (${job}.tenant_id, ${job}.id) AND vf.user_id = ${userId}))`;
}
