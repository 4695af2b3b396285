// The totals that database triggers keep per tenant, table and flag (migration 20261126000001_row_counts): the
// total of a list filtered by nothing but the tenant and, for clients and jobs, the flag its default filters on is
// one row, the same number as a count(*) over the tenant's rows.
import type { TenantDb } from "./tenant";

/** The tables with kept totals. The flag is clients.is_archived and jobs.is_completed; contacts and time logs have none. */
export type CountedTable = "clients" | "contacts" | "jobs" | "time_logs";

/** How many rows of `table` the tenant has: those whose flag is `flag`, or all of them without one. */
export async function countedRows(db: TenantDb, table: CountedTable, flag?: boolean): Promise<number> {
  const { _sum } = await db.rowCount.aggregate({
    where: { tableName: table, ...(flag !== undefined && { flag }) },
    _sum: { n: true },
  });
  return Number(_sum.n ?? 0);
}
