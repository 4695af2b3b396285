// What an audit entry says changed (decisions.md, Audit log): `{field: [before, after]}` in the API's field names. Each
// resource computes its own entries (lib/<resource>/audit.ts) with these, and the log is handed them: it knows no
// resource's bodies.
import type { Changes } from "./schemas";

export type Fields = Record<string, unknown>;

/** `[before, after]` of each field of `after` (undefined: not sent) whose value differs from `before`'s. */
export function changesBetween(before: Fields, after: Fields): Changes {
  const changes: Changes = {};
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const was = before[field] ?? null;
    if (JSON.stringify(was) !== JSON.stringify(value)) changes[field] = [was, value];
  }
  return changes;
}

/** A set of ids as the entry shows it: each once, in order. */
export const idSet = (ids: number[] | null | undefined) => (ids ? [...new Set(ids)].sort((a, b) => a - b) : ids);
