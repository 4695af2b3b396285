// Date range query values (decisions.md, "Ranges"): `FROM,TO` with inclusive `YYYY-MM-DD` ends, either of which may
// be empty, or a named range evaluated in the caller's time zone (weeks start on Monday). The query schema only
// checks the text; `resolveDateRange` turns it into dates once the time zone and "now" are known, so tests can fix
// the clock by passing `now`.
import { z } from "zod";
import { addDays, fromDbDate, isCalendarDate, toDbDate, todayIn } from "./dates";
import { documentedAs } from "./openapi-registry";

const NAMED_RANGES = [
  "today",
  "yesterday",
  "this_week",
  "last_week",
  "this_month",
  "last_month",
  "this_quarter",
  "last_quarter",
  "this_year",
  "last_year",
] as const;

type NamedRange = (typeof NAMED_RANGES)[number];

/** A parsed range: a name still to be placed in time, or explicit inclusive ends (undefined = open). */
export type DateRangeSpec = { name: NamedRange } | { from?: string; to?: string };

/** Inclusive `YYYY-MM-DD` ends; an undefined end is open. */
export interface DateRange {
  from?: string;
  to?: string;
}

const RANGE_HELP = `Must be FROM,TO with dates as YYYY-MM-DD (either side may be empty) or one of: ${NAMED_RANGES.join(", ")}.`;

export function parseDateRange(value: string): DateRangeSpec | null {
  const text = value.trim();
  if ((NAMED_RANGES as readonly string[]).includes(text)) return { name: text as NamedRange };
  const parts = text.split(",");
  if (parts.length !== 2) return null;
  const [from, to] = parts.map((p) => p.trim() || undefined);
  if ((from && !isCalendarDate(from)) || (to && !isCalendarDate(to))) return null;
  if (from && to && from > to) return null;
  return { from, to };
}

/** A range query parameter; a bad value is a 422 naming the parameter. */
export const queryDateRange = () =>
  documentedAs(
    z.string().transform((value, ctx) => {
      const spec = parseDateRange(value);
      if (!spec) {
        ctx.addIssue({ code: "custom", message: RANGE_HELP });
        return z.NEVER;
      }
      return spec;
    }),
    z
      .union([
        z.enum(NAMED_RANGES).describe("A named range, in the caller's time zone (weeks start on Monday)"),
        z
          .string()
          .regex(/^(\d{4}-\d{2}-\d{2})?,(\d{4}-\d{2}-\d{2})?$/)
          .describe("FROM,TO: inclusive YYYY-MM-DD ends, either of which may be empty"),
      ])
      .describe("A date range: FROM,TO (YYYY-MM-DD, inclusive, either end may be empty) or a named range"),
  );

export function resolveDateRange(spec: DateRangeSpec, timeZone: string, now: Date = new Date()): DateRange {
  if (!("name" in spec)) return spec;
  const today = todayIn(timeZone, now);
  const [year, month] = today.split("-").map(Number);
  switch (spec.name) {
    case "today":
      return { from: today, to: today };
    case "yesterday":
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case "this_week":
      return week(today, 0);
    case "last_week":
      return week(today, -1);
    case "this_month":
      return months(year, month, 1);
    case "last_month":
      return months(year, month - 1, 1);
    case "this_quarter":
      return months(year, quarterStart(month), 3);
    case "last_quarter":
      return months(year, quarterStart(month) - 3, 3);
    case "this_year":
      return months(year, 1, 12);
    case "last_year":
      return months(year - 1, 1, 12);
  }
}

/** The Monday-to-Sunday week containing `day`, moved by `offset` weeks. */
function week(day: string, offset: number): DateRange {
  const mondayBased = (toDbDate(day).getUTCDay() + 6) % 7;
  const monday = addDays(day, offset * 7 - mondayBased);
  return { from: monday, to: addDays(monday, 6) };
}

const quarterStart = (month: number) => month - ((month - 1) % 3);

/** `count` whole months from `month` of `year` (month may be below 1: Date.UTC carries it into the year before). */
function months(year: number, month: number, count: number): DateRange {
  const first = new Date(Date.UTC(year, month - 1, 1));
  const last = new Date(Date.UTC(year, month - 1 + count, 0));
  return { from: fromDbDate(first), to: fromDbDate(last) };
}

/** A Prisma filter for a `@db.Date` column: the range resolved for the caller; undefined when both ends are open. */
export function dateFilter(spec: DateRangeSpec, timeZone: string, now: Date = new Date()) {
  const { from, to } = resolveDateRange(spec, timeZone, now);
  if (!from && !to) return undefined;
  return { ...(from && { gte: toDbDate(from) }), ...(to && { lte: toDbDate(to) }) };
}
