// The audit entries of the firm's people (the team page, the invite and reset pages, the operator's commands): the
// person by id and name, and what changed in the API's field names.
import { changesBetween, idSet } from "@/lib/audit/entries";
import type { AuditEntry } from "@/lib/audit/mutations";

interface Person {
  id: number;
  firstname: string;
  lastname: string;
}

/** An audit entry about a person of the firm. */
export function memberEntry(
  action: AuditEntry["action"],
  member: Person,
  after: Record<string, unknown> = {},
  before: Record<string, unknown> = {},
): AuditEntry {
  const name = `${member.firstname} ${member.lastname}`.trim();
  return { action, target: { type: "user", id: member.id, name }, changes: changesBetween(before, after) };
}

interface Access {
  role: string;
  clientAccess: string;
  groupIds: number[];
}

/** One entry per kind of change (role, client access, client groups), so that each can be looked for by its action. */
export function memberChanges(member: Person & Access, after: Access): AuditEntry[] {
  const entries = [
    memberEntry("member.role_changed", member, { role: after.role }, { role: member.role }),
    memberEntry(
      "member.client_access_changed",
      member,
      { client_access: after.clientAccess },
      { client_access: member.clientAccess },
    ),
    memberEntry(
      "member.groups_changed",
      member,
      { client_groups: idSet(after.groupIds) },
      { client_groups: idSet(member.groupIds) },
    ),
  ];
  return entries.filter((entry) => Object.keys(entry.changes ?? {}).length > 0);
}
