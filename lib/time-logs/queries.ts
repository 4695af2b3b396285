// Time logs of the caller's tenant. Without `time_logs.view_all` a user sees only their own (decisions.md).

import type { Caller } from "@/lib/auth/caller";
import { dateFilter } from "@/lib/core/date-ranges";
import { type Page, pageOf, updatedSince, type WirePage } from "@/lib/core/pagination";
import { allOf, containsText, type Filter } from "@/lib/db/filters";
import { wireRows } from "@/lib/db/json-rows";
import { readCursorPage } from "@/lib/db/keyset";
import { readOffsetPage } from "@/lib/db/offset-page";
import { countedRows } from "@/lib/db/row-counts";
import { type ListOrder, prismaOrderBy } from "@/lib/db/search-page";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { ListTimeLogsQuery } from "./schemas";
import { timeLogWire } from "./wire";

export const DEFAULT_TIME_LOG_PAGE_SIZE = 100;

/** What a page of time logs is found by: the id, and the order's columns for a cursor page's positions. */
const timeLogKeys = { id: true, uuid: true, date: true, createdAt: true, updatedAt: true } as const;

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
 * database triggers keep (a row per user and day) rather than a count of every matching time log, and unfiltered
 * it is the tenant's total the triggers keep (lib/db/row-counts.ts); the number is the same.
 */
async function countTimeLogs(
  caller: Caller,
  days: ReturnType<typeof dayFilters>,
  others: ReturnType<typeof otherFilters>,
) {
  if (others.some(Boolean)) return caller.db.timeLog.count({ where: allOf([...days, ...others]) });
  // No filter at all (the caller sees every time log): one row of the tenant's kept total.
  if (!days.some(Boolean)) return countedRows(caller.db, "time_logs");
  const sum = await caller.db.timeLogDayCount.aggregate({ where: allOf(days), _sum: { count: true } });
  return sum._sum.count ?? 0;
}

/** One page of time logs, newest first, and the total (three statements, whatever the page size), or a cursor page. */
export async function listTimeLogs(caller: Caller, query: ListTimeLogsQuery, now = new Date()): Promise<WirePage> {
  const days = dayFilters(caller, query, now);
  const others = otherFilters(query);
  const where = allOf<Prisma.TimeLogWhereInput>([...days, ...others]);
  const order = TIME_LOG_ORDERS[query.sort_by];
  const page = pageOf(query, DEFAULT_TIME_LOG_PAGE_SIZE);
  if (query.cursor !== undefined) {
    const cursorPage = await readCursorPage(caller, "time-logs", query, order, page.perPage, (past, take, reversed) =>
      caller.db.timeLog.findMany({
        where: { AND: [where, past] },
        select: timeLogKeys,
        orderBy: prismaOrderBy(order, reversed),
        take,
      }),
    );
    const { rows, ...rest } = cursorPage;
    return { ...rest, json: await timeLogsJson(caller, rows) };
  }
  const [logs, total] = await Promise.all([
    offsetPageOfLogs(caller, query, days, others, page),
    countTimeLogs(caller, days, others),
  ]);
  return { page, total, json: await timeLogsJson(caller, logs) };
}

const timeLogsJson = (caller: Caller, rows: { id: number }[]) => wireRows(caller, "time_logs", rows, timeLogWire());

/**
 * One offset page. Newest first and filtered by no more than dates and users, a page past the first starts at the day
 * its first row falls on, which the per-day counts tell: the time logs of the days before it in the order are
 * counted there rather than skipped one by one, and the page skips only the day's own rows before it. Then, as every
 * list's offset page, its ids first (lib/db/offset-page.ts). The rows are those of the plain OFFSET query.
 */
async function offsetPageOfLogs(
  caller: Caller,
  query: ListTimeLogsQuery,
  days: ReturnType<typeof dayFilters>,
  others: ReturnType<typeof otherFilters>,
  page: Page,
) {
  const order = prismaOrderBy(TIME_LOG_ORDERS[query.sort_by]);
  let where = allOf<Prisma.TimeLogWhereInput>([...days, ...others]);
  let skip = page.skip;
  if (skip > 0 && query.sort_by === "date" && !others.some(Boolean)) {
    const start = await startingDay(caller, days, skip);
    if (!start) return [];
    where = allOf<Prisma.TimeLogWhereInput>([...days, { date: { lte: start.date } }]);
    skip = start.skip;
  }
  return readOffsetPage(
    { skip, take: page.take },
    {
      ids: (at) => caller.db.timeLog.findMany({ where, orderBy: order, ...at, select: { id: true } }),
      rows: (at, ids) =>
        caller.db.timeLog.findMany({
          where: ids ? { id: { in: ids } } : where,
          select: timeLogKeys,
          orderBy: order,
          ...at,
        }),
    },
  );
}

/**
 * The day, newest first, on which the time log at position `skip` (from 0) of the list filtered by `days` falls, and
 * its position among that day's time logs; undefined past the last one.
 */
async function startingDay(caller: Caller, days: ReturnType<typeof dayFilters>, skip: number) {
  const perDay = await caller.db.timeLogDayCount.groupBy({
    by: ["date"],
    where: allOf([...days, { count: { gt: 0 } }]),
    _sum: { count: true },
    orderBy: { date: "desc" },
  });
  let before = 0;
  for (const day of perDay) {
    const count = day._sum.count ?? 0;
    if (before + count > skip) return { date: day.date, skip: skip - before };
    before += count;
  }
  return undefined;
}
