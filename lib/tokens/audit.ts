// The audit entries of API tokens: the token by id and name (never its value or hash), and for a new one whose it
// is, what it may do and when it expires, as a person reads them (decisions.md, Audit log).
import { changesBetween } from "@/lib/audit/entries";
import type { AuditEntry } from "@/lib/audit/mutations";
import { accessSummary, type TokenAccess } from "./access";

export function tokenEntry(
  action: "token.created" | "token.deleted" | "token.revoked",
  token: { id: number; name: string },
): AuditEntry {
  return { action, target: { type: "token", id: token.id, name: token.name }, changes: {} };
}

/**
 * A new token: its person by name and email (not an id to look up), its access as the page words it ("Full
 * access", "Write: clients · Read: jobs", in the resources' fixed order: the log stores changes as jsonb, which
 * reorders an object's keys), and its expiry when it has one.
 */
export function tokenCreated(
  token: { id: number; name: string; access: TokenAccess; expiresAt: Date | null },
  user: { firstname: string; lastname: string; email: string },
): AuditEntry {
  const person = `${`${user.firstname} ${user.lastname}`.trim()} (${user.email})`;
  const after = { user: person, access: accessSummary(token.access), expires_at: token.expiresAt?.toISOString() };
  return { ...tokenEntry("token.created", token), changes: changesBetween({}, after) };
}
