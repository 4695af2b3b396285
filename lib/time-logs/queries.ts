// Time logs of the caller's tenant. Without `time_logs.view_all` a user sees only their own (decisions.md).

import type { Caller } from "@/lib/auth/caller";
import { resolveDateRange } from "@/lib/core/date-ranges";
import { pageOf, type WirePage } from "@/lib/core/pagination";
import { readRows } from "@/lib/db/client";
import { clientUuidSql, containsSql, dateRangeSql, sqlConditions, updatedSinceSql } from "@/lib/db/filters";
import { readWireCursorPage } from "@/lib/db/keyset";
import { keptRows } from "@/lib/db/row-counts";
import {
  type ListTotal,
  type SqlOrder,
  tenantRows,
  type WireList,
  wireOffsetPage,
  wireTotal,
} from "@/lib/db/wire-list";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ListTimeLogsQuery } from "./schemas";
import { timeLogWire } from "./wire";

export const DEFAULT_TIME_LOG_PAGE_SIZE = 100;

const TIME_LOG_ORDERS: Record<ListTimeLogsQuery["sort_by"], SqlOrder> = {
  date: [
    { sql: "t.date", direction: "desc", kind: "date" },
    { sql: "t.created_at", direction: "desc", kind: "timestamptz" },
    { sql: "t.uuid", direction: "asc", kind: "uuid" },
  ],
  updated_at: [
    { sql: "t.updated_at", direction: "asc", kind: "timestamptz" },
    { sql: "t.uuid", direction: "asc", kind: "uuid" },
  ],
};

/** The filters a list of time logs shares with the per-day counts (columns of both tables): dates and users. */
function dayFilters(caller: Caller, query: ListTimeLogsQuery, now: Date) {
  return sqlConditions([
    !caller.permissions.has("time_logs.view_all") && Prisma.sql`t.user_id = ${caller.user.id}`,
    query.range && dateRangeSql("t.date", resolveDateRange(query.range, caller.user.timezone, now)),
    query.users && Prisma.sql`t.user_id = ANY(${query.users}::int[])`,
  ]);
}

/** The filters the per-day counts cannot answer. */
function otherFilters(query: ListTimeLogsQuery) {
  return sqlConditions([
    query.client_uuid !== undefined && clientUuidSql(query.client_uuid),
    query.tasks &&
      Prisma.sql`EXISTS (SELECT 1 FROM jobs j WHERE (j.tenant_id, j.id) = (t.tenant_id, t.job_id)
        AND j.uuid = ANY(${query.tasks}::uuid[]))`,
    query.search !== undefined && containsSql("t.note", query.search),
    updatedSinceSql(query.updated_since),
  ]);
}

/**
 * The total of the list. Filtered by no more than dates and users, it is the sum of the per-day counts that
 * database triggers keep (a row per user and day) rather than a count of every matching time log, and unfiltered
 * it is the tenant's total the triggers keep (lib/db/row-counts.ts); the number is the same.
 */
function timeLogTotal(days: Prisma.Sql[], others: Prisma.Sql[]): ListTotal {
  if (others.length > 0) return "count";
  if (days.length === 0) return keptRows("time_logs");
  return { sum: "count", of: "time_log_day_counts", where: days };
}

/**
 * One page of time logs, newest first, and the total, or a cursor page: one statement (lib/db/wire-list.ts), and one
 * more for a deep page by date (offsetPageOfLogs).
 */
export async function listTimeLogs(caller: Caller, query: ListTimeLogsQuery, now = new Date()): Promise<WirePage> {
  const days = dayFilters(caller, query, now);
  const others = otherFilters(query);
  const list: WireList = {
    table: "time_logs",
    where: [...days, ...others],
    order: TIME_LOG_ORDERS[query.sort_by],
    object: timeLogWire(caller),
  };
  const page = pageOf(query, DEFAULT_TIME_LOG_PAGE_SIZE);
  if (query.cursor !== undefined) return readWireCursorPage(caller, "time-logs", query, list, page.perPage);
  const total = timeLogTotal(days, others);
  if (page.skip === 0 || query.sort_by !== "date" || others.length > 0) {
    return { page, ...(await wireOffsetPage(caller, list, page, total)) };
  }
  // Newest first and filtered by no more than dates and users, a page past the first starts at the day its first
  // row falls on, which the per-day counts tell: the time logs of the days before it in the order are counted there
  // rather than skipped one by one, and the page skips only the day's own rows before it.
  const start = await startingDay(caller, days, page.skip);
  if (!start) return { page, json: "[]", total: await wireTotal(caller, list, total) };
  const fromDay = { ...list, where: [...days, Prisma.sql`t.date <= ${start.date}::date`] };
  return { page, ...(await wireOffsetPage(caller, fromDay, { skip: start.skip, take: page.take }, total)) };
}

/**
 * The day, newest first, on which the time log at position `skip` (from 0) of the list filtered by `days` falls, and
 * its position among that day's time logs; undefined past the last one.
 */
async function startingDay(caller: Caller, days: Prisma.Sql[], skip: number) {
  const [day] = await readRows<{ date: string; before: number }>(Prisma.sql`
    SELECT to_char(date, 'YYYY-MM-DD') AS date, before::int FROM (
      SELECT t.date, sum(sum(t.count)) OVER (ORDER BY t.date DESC) - sum(t.count) AS before, sum(t.count) AS n
      ${tenantRows(caller, "time_log_day_counts", days)} GROUP BY t.date) AS per_day
    WHERE before + n > ${skip} ORDER BY date DESC LIMIT 1`);
  return day && { date: day.date, skip: skip - day.before };
}
