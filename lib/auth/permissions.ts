// Roles are per tenant, each a set of permission names. Owner and Admin hold every permission; Standard all
// but seeing other people's time logs. Tenants may define more roles with any subset.
import { forbidden } from "@/lib/core/errors";

export const PERMISSIONS = [
  "clients.create",
  "clients.update",
  "contacts.create",
  "contacts.update",
  "jobs.create",
  "jobs.update",
  "time_logs.view_all",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const BUILT_IN_ROLES: Record<"Owner" | "Admin" | "Standard", readonly Permission[]> = {
  Owner: PERMISSIONS,
  Admin: PERMISSIONS,
  Standard: PERMISSIONS.filter((p) => p !== "time_logs.view_all"),
};

export function permissionsOf(user: { isOwner: boolean }, role: { permissions: string[] }): ReadonlySet<Permission> {
  if (user.isOwner) return new Set(PERMISSIONS);
  return new Set(PERMISSIONS.filter((p) => role.permissions.includes(p)));
}

export function requirePermission(caller: { permissions: ReadonlySet<Permission> }, permission: Permission) {
  if (!caller.permissions.has(permission)) throw forbidden("Your role does not allow this action.");
}
