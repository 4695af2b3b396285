// The totals that database triggers keep per tenant, table and flag (migration 20261126000001_row_counts): the
// total of a list filtered by nothing but the tenant and, for clients and jobs, the flag its default filters on is
// one row, the same number as a count(*) over the tenant's rows.
import { Prisma } from "@/lib/generated/prisma/client";
import type { ListTotal } from "./wire-list";

/** The tables with kept totals. The flag is clients.is_archived and jobs.is_completed; contacts and time logs have none. */
export type CountedTable = "clients" | "contacts" | "jobs" | "time_logs";

/** How many rows of `table` the tenant has, as a list's total: those whose flag is `flag`, or all of them without one. */
export function keptRows(table: CountedTable, flag?: boolean): ListTotal {
  const where = [Prisma.sql`t.table_name = ${table}`];
  if (flag !== undefined) where.push(Prisma.sql`t.flag = ${flag}`);
  return { sum: "n", of: "row_counts", where };
}
