// What the /settings/audit page and its CSV download use: the signed-in person's firm, only when their role (read
// afresh) has audit.read, and the page's filters read from its query string with the API's rules.
import { z } from "zod";
import { loadPermissions } from "@/lib/auth/permissions";
import { zodFieldErrors } from "@/lib/core/errors";
import { prisma } from "@/lib/db/client";
import { tenantDb } from "@/lib/db/tenant";
import type { AuditReader } from "./queries";
import { type AuditFilters, auditFilters } from "./schemas";
import { type AuditEventOutput, type AuditNames, ID_FIELDS } from "./serialize";

/** The signed-in person, as the session knows them. */
interface SessionUser {
  tenantId: number;
  userId: number;
}

/** The firm's log for someone who may read it (Owners and Admins); null for anyone else. */
export async function auditReader(user: SessionUser): Promise<AuditReader | null> {
  const client = await prisma();
  if (!(await loadPermissions(client, user)).has("audit.read")) return null;
  return { db: tenantDb(client, user.tenantId), tenant: { id: user.tenantId }, user: { id: user.userId } };
}

/** The people the actor filter offers: everyone of the firm, archived people too (they may have acted before). */
export function firmPeople(reader: AuditReader) {
  return reader.db.user.findMany({
    select: { id: true, firstname: true, lastname: true },
    orderBy: [{ firstname: "asc" }, { lastname: "asc" }, { id: "asc" }],
  });
}

/**
 * The names of the people, client groups and tags that the entries' changes name by id, so that a line reads
 * "from nothing to Olivia Owner" and "to North, Payroll" rather than "to 1" and "to 7, 8". Read in the reader's firm.
 */
export async function auditNames(reader: AuditReader, events: AuditEventOutput[]): Promise<AuditNames> {
  const ids: Record<keyof AuditNames, Set<number>> = { users: new Set(), clientGroups: new Set(), tags: new Set() };
  for (const event of events)
    for (const [field, change] of Object.entries(event.changes)) {
      const kind = ID_FIELDS[field];
      if (!kind || change === "changed") continue;
      for (const value of change.flat()) if (typeof value === "number") ids[kind].add(value);
    }
  const where = (kind: keyof AuditNames) => ({ id: { in: [...ids[kind]] } });
  const [users, groups, tags] = await Promise.all([
    ids.users.size
      ? reader.db.user.findMany({ where: where("users"), select: { id: true, firstname: true, lastname: true } })
      : [],
    ids.clientGroups.size
      ? reader.db.clientGroup.findMany({ where: where("clientGroups"), select: { id: true, name: true } })
      : [],
    ids.tags.size ? reader.db.tag.findMany({ where: where("tags"), select: { id: true, name: true } }) : [],
  ]);
  return {
    users: new Map(users.map((u) => [u.id, `${u.firstname} ${u.lastname}`.trim()])),
    clientGroups: new Map(groups.map((g) => [g.id, g.name])),
    tags: new Map(tags.map((t) => [t.id, t.name])),
  };
}

/** The filters' boxes as typed, to show them again when they are refused (an emptied box would lose the typing). */
export function typedFilters(params: SearchParams): Record<string, string> {
  const names = ["action", "actor_id", "target_type", "target_uuid", "since", "until"];
  return Object.fromEntries(
    names.flatMap((name) => {
      const value = params[name];
      const text = Array.isArray(value) ? value[0] : value;
      return text ? [[name, text]] : [];
    }),
  );
}

export type SearchParams = Record<string, string | string[] | undefined>;

const filtersSchema = z.object(auditFilters);

const WALL_MINUTE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** How far `timezone`'s clocks are ahead of UTC at the instant `at` (ms since the epoch). */
function offsetMs(at: number, timezone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: timezone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return wall - (at - (at % 1000));
}

/**
 * The instant a wall-clock minute ("2026-11-01T09:30", as a datetime-local box gives it) is in `timezone`. The
 * offset is read at the first guess and again at the result, so that a minute just past a daylight-saving change is
 * read with the offset in force then. (Intl does this in a few lines: no date library for two conversions.)
 */
export function instantOf(minute: string, timezone: string): Date {
  const asUtc = Date.parse(`${minute}:00Z`);
  const guess = asUtc - offsetMs(asUtc, timezone);
  return new Date(asUtc - offsetMs(guess, timezone));
}

/** The wall-clock minute of an instant in `timezone`, as a datetime-local box shows it ("2026-11-01T09:30"). */
export function wallMinute(date: Date, timezone: string): string {
  return new Date(date.getTime() + offsetMs(date.getTime(), timezone)).toISOString().slice(0, 16);
}

/**
 * The page's since/until boxes (datetime-local) give a minute without a zone: read in the zone the page shows its
 * entries in, the person's own (decisions.md: every filter of a page takes times in the zone its list shows). A
 * value with its own zone (the ISO dates of a kept link) is read as it says.
 */
const withZone = (value: string | undefined, timezone: string) =>
  value && WALL_MINUTE.test(value) && !Number.isNaN(Date.parse(`${value}:00Z`))
    ? instantOf(value, timezone).toISOString()
    : value;

/**
 * The filters of the page's query string (empty boxes are no filter), or what is wrong with them by field; the
 * boxes' times in `timezone`.
 */
export function parseAuditFilters(
  params: SearchParams,
  timezone = "UTC",
): { filters: AuditFilters; errors?: undefined } | { errors: Record<string, string[]> } {
  const one = (name: string) => {
    const value = params[name];
    const text = Array.isArray(value) ? value[0] : value;
    return text?.trim() ? text.trim() : undefined;
  };
  const parsed = filtersSchema.safeParse({
    action: one("action"),
    actor_id: one("actor_id"),
    target_type: one("target_type"),
    target_uuid: one("target_uuid"),
    since: withZone(one("since"), timezone),
    until: withZone(one("until"), timezone),
  });
  return parsed.success ? { filters: parsed.data } : { errors: zodFieldErrors(parsed.error) };
}

/** The query string of the filters (ISO dates), for links that keep them: the next page, the CSV download. */
export function filtersQuery(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const entries = Object.entries({ ...filters, ...extra })
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => [key, value instanceof Date ? value.toISOString() : String(value)]);
  return new URLSearchParams(entries).toString();
}
