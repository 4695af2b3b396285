// Building blocks of list filters: SQL conditions on a list's row `t` (lib/db/wire-list.ts).
import type { DateRange } from "@/lib/core/date-ranges";
import { Prisma } from "@/lib/generated/prisma/client";

/** A LIKE pattern's text taken literally: its wildcards and escape character escaped. */
export const literal = (text: string) => text.replace(/[\\%_]/g, "\\$&");

/** A filter, or `false`/`undefined` for one the caller did not ask for (lists build them as `condition && {…}`). */
export type Filter<W> = W | false | undefined;

/** `column` contains the text, taken literally, ignoring case (ILIKE). */
export const containsSql = (column: string, text: string) =>
  Prisma.sql`${Prisma.raw(column)} ILIKE ${`%${literal(text)}%`}`;

/**
 * A LIKE pattern of rows containing `term`, taken literally, for text kept in lower case (clients.search_text,
 * contacts.search_key): PostgreSQL lowers the term, as it lowered the text. Plain LIKE costs a third of ILIKE.
 */
export const containsKey = (term: string) => Prisma.sql`lower(${`%${literal(term)}%`}::text)`;

/** A date column within a resolved range (YYYY-MM-DD ends, inclusive, either may be open); undefined when both are. */
export function dateRangeSql(column: string, { from, to }: DateRange): Prisma.Sql | undefined {
  const ends = [
    from && Prisma.sql`${Prisma.raw(column)} >= ${from}::date`,
    to && Prisma.sql`${Prisma.raw(column)} <= ${to}::date`,
  ].filter((end): end is Prisma.Sql => !!end);
  return ends.length ? Prisma.join(ends, " AND ") : undefined;
}

/** The row `t`'s client (its client_id) has this uuid. */
export const clientUuidSql = (uuid: string) =>
  Prisma.sql`EXISTS (SELECT 1 FROM clients c WHERE (c.tenant_id, c.id) = (t.tenant_id, t.client_id) AND c.uuid = ${uuid}::uuid)`;

/** updatedSince as SQL on the row `t`. */
export const updatedSinceSql = (since: Date | undefined) =>
  since && Prisma.sql`t.updated_at >= ${since.toISOString()}::timestamptz`;

/** The SQL conditions that apply (lists build them as `condition && sql`). */
export const sqlConditions = (conditions: Filter<Prisma.Sql>[]) => conditions.filter((c): c is Prisma.Sql => !!c);
