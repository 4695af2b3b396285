// Building blocks of list filters: Prisma's, and the same as SQL conditions on a list's row `t` (lib/db/wire-list.ts).
import type { DateRange } from "@/lib/core/date-ranges";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * A case-insensitive substring filter for a text column, the text taken literally. Prisma passes `contains` to
 * ILIKE without escaping its wildcards, so unescaped a search for "%" or "_" would match everything.
 */
export function containsText(text: string): Prisma.StringFilter {
  return { contains: literal(text), mode: "insensitive" };
}

/** A LIKE pattern's text taken literally: its wildcards and escape character escaped. */
export const literal = (text: string) => text.replace(/[\\%_]/g, "\\$&");

/** A filter, or `false`/`undefined` for one the caller did not ask for (lists build them as `condition && {…}`). */
export type Filter<W> = W | false | undefined;

/** The conjunction of the filters that apply. */
export function allOf<W>(filters: Filter<W>[]): { AND: W[] } {
  return { AND: filters.filter((f): f is W => !!f) };
}

/** containsText as SQL: `column` contains the text, taken literally, ignoring case (ILIKE, as Prisma's). */
export const containsSql = (column: string, text: string) =>
  Prisma.sql`${Prisma.raw(column)} ILIKE ${`%${literal(text)}%`}`;

/** A date column within a resolved range (YYYY-MM-DD ends, inclusive, either may be open); undefined when both are. */
export function dateRangeSql(column: string, { from, to }: DateRange): Prisma.Sql | undefined {
  const ends = [
    from && Prisma.sql`${Prisma.raw(column)} >= ${from}::date`,
    to && Prisma.sql`${Prisma.raw(column)} <= ${to}::date`,
  ].filter((end): end is Prisma.Sql => !!end);
  return ends.length ? Prisma.join(ends, " AND ") : undefined;
}

/** updatedSince as SQL on the row `t`. */
export const updatedSinceSql = (since: Date | undefined) =>
  since && Prisma.sql`t.updated_at >= ${since.toISOString()}::timestamptz`;

/** The SQL conditions that apply (lists build them as `condition && sql`). */
export const sqlConditions = (conditions: Filter<Prisma.Sql>[]) => conditions.filter((c): c is Prisma.Sql => !!c);
