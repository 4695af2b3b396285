// Time logs of the caller's tenant. Without `time_logs.view_all` a user sees only their own (decisions.md).

import type { Caller } from "@/lib/auth/caller";
import { dateFilter } from "@/lib/core/date-ranges";
import { type CursorPage, type ListPage, pageOf, updatedSince } from "@/lib/core/pagination";
import { allOf, containsText, type Filter } from "@/lib/db/filters";
import { readCursorPage } from "@/lib/db/keyset";
import { type ListOrder, prismaOrderBy } from "@/lib/db/search-page";
import type { Prisma } from "@/lib/generated/prisma/client";
import { loadTimeLogRelations } from "./relations";
import type { ListTimeLogsQuery } from "./schemas";
import { type TimeLogRow, timeLogColumns } from "./serialize";

export const DEFAULT_TIME_LOG_PAGE_SIZE = 100;

const TIME_LOG_ORDERS: Record<ListTimeLogsQuery["sort_by"], ListOrder> = {
  date: [
    ["date", "desc"],
    ["created_at", "desc"],
    ["uuid", "asc"],
  ],
  updated_at: [
    ["updated_at", "asc"],
    ["uuid", "asc"],
  ],
};

/** The filters a list of time logs shares with the per-day counts: dates and users. */
function dayFilters(
  caller: Caller,
  query: ListTimeLogsQuery,
  now: Date,
): Filter<Prisma.TimeLogWhereInput & Prisma.TimeLogDayCountWhereInput>[] {
  return [
    !caller.permissions.has("time_logs.view_all") && { userId: caller.user.id },
    query.range && { date: dateFilter(query.range, caller.user.timezone, now) },
    query.users && { userId: { in: query.users } },
  ];
}

/** The filters the per-day counts cannot answer. */
function otherFilters(query: ListTimeLogsQuery): Filter<Prisma.TimeLogWhereInput>[] {
  return [
    query.client_uuid !== undefined && { client: { uuid: query.client_uuid } },
    query.tasks && { job: { uuid: { in: query.tasks } } },
    query.search !== undefined && { note: containsText(query.search) },
    updatedSince(query.updated_since),
  ];
}

/**
 * The total of the list. Filtered by no more than dates and users, it is the sum of the per-day counts that
 * database triggers keep (a row per user and day) rather than a count of every matching time log; the number is
 * the same.
 */
async function countTimeLogs(
  caller: Caller,
  days: ReturnType<typeof dayFilters>,
  others: ReturnType<typeof otherFilters>,
) {
  if (others.some(Boolean)) return caller.db.timeLog.count({ where: allOf([...days, ...others]) });
  const sum = await caller.db.timeLogDayCount.aggregate({ where: allOf(days), _sum: { count: true } });
  return sum._sum.count ?? 0;
}

/** One page of time logs, newest first, and the total (three statements, whatever the page size), or a cursor page. */
export async function listTimeLogs(
  caller: Caller,
  query: ListTimeLogsQuery,
  now = new Date(),
): Promise<ListPage<TimeLogRow> | CursorPage<TimeLogRow>> {
  const days = dayFilters(caller, query, now);
  const others = otherFilters(query);
  const where = allOf<Prisma.TimeLogWhereInput>([...days, ...others]);
  const order = TIME_LOG_ORDERS[query.sort_by];
  const page = pageOf(query, DEFAULT_TIME_LOG_PAGE_SIZE);
  if (query.cursor !== undefined) {
    const cursorPage = await readCursorPage("time-logs", query, order, page.perPage, (after, take) =>
      caller.db.timeLog.findMany({
        where: { AND: [where, after] },
        select: timeLogColumns,
        orderBy: prismaOrderBy(order),
        take,
      }),
    );
    return { ...cursorPage, rows: await loadTimeLogRelations(caller, cursorPage.rows) };
  }
  const [logs, total] = await Promise.all([
    caller.db.timeLog.findMany({
      where,
      select: timeLogColumns,
      orderBy: prismaOrderBy(order),
      skip: page.skip,
      take: page.take,
    }),
    countTimeLogs(caller, days, others),
  ]);
  return { page, total, rows: await loadTimeLogRelations(caller, logs) };
}
