// Roles are per tenant, each a set of permission names. Owner and Admin hold every permission; Standard all
// but seeing other people's time logs, managing the firm's people, tokens and webhooks, and reading the audit log. Tenants may define more roles with
// any subset.
import { forbidden } from "@/lib/core/errors";
import { tenantDb } from "@/lib/db/tenant";
import type { PrismaClient } from "@/lib/generated/prisma/client";

export const PERMISSIONS = [
  "audit.read",
  "clients.create",
  "clients.update",
  "contacts.create",
  "contacts.update",
  "jobs.create",
  "jobs.update",
  "time_logs.view_all",
  "tokens.manage_all",
  "users.manage",
  "webhooks.manage",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

const OWNER_AND_ADMIN_ONLY: readonly Permission[] = [
  "audit.read",
  "time_logs.view_all",
  "tokens.manage_all",
  "users.manage",
  "webhooks.manage",
];

export const BUILT_IN_ROLES: Record<"Owner" | "Admin" | "Standard", readonly Permission[]> = {
  Owner: PERMISSIONS,
  Admin: PERMISSIONS,
  Standard: PERMISSIONS.filter((p) => !OWNER_AND_ADMIN_ONLY.includes(p)),
};

export function permissionsOf(user: { isOwner: boolean }, role: { permissions: string[] }): ReadonlySet<Permission> {
  if (user.isOwner) return new Set(PERMISSIONS);
  return new Set(PERMISSIONS.filter((p) => role.permissions.includes(p)));
}

export function requirePermission(caller: { permissions: ReadonlySet<Permission> }, permission: Permission) {
  if (!caller.permissions.has(permission)) throw forbidden("Your role does not allow this action.");
}

/** What a user's role allows now, read afresh, for the web pages (the API has it on its caller). */
export async function loadPermissions(
  client: PrismaClient,
  user: { tenantId: number; userId: number },
): Promise<ReadonlySet<Permission>> {
  const row = await tenantDb(client, user.tenantId).user.findFirst({
    where: { id: user.userId, archivedDate: null },
    select: { isOwner: true, role: { select: { permissions: true } } },
  });
  return row ? permissionsOf(row, row.role) : new Set();
}
