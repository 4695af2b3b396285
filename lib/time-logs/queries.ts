// Time logs of the caller's tenant. Without `time_logs.view_all` a user sees only their own (decisions.md).
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/api/caller";
import { allOf, containsText } from "@/lib/api/filters";
import { pageOf } from "@/lib/api/pagination";
import { dateFilter } from "@/lib/api/date-ranges";
import type { TimeLogListQuery } from "./schemas";
import { timeLogSelect } from "./serialize";

export const DEFAULT_TIME_LOG_PAGE_SIZE = 100;

function listWhere(caller: Caller, query: TimeLogListQuery, now: Date): Prisma.TimeLogWhereInput {
  return allOf<Prisma.TimeLogWhereInput>([
    !caller.permissions.has("time_logs.view_all") && { userId: caller.user.id },
    query.range && { date: dateFilter(query.range, caller.user.timezone, now) },
    query.client_uuid !== undefined && { client: { uuid: query.client_uuid } },
    query.tasks && { job: { uuid: { in: query.tasks } } },
    query.users && { userId: { in: query.users } },
    query.search !== undefined && { note: containsText(query.search) },
  ]);
}

/** One page of time logs, newest first, and the total: two queries, whatever the page size. */
export async function listTimeLogs(caller: Caller, query: TimeLogListQuery, now = new Date()) {
  const where = listWhere(caller, query, now);
  const page = pageOf(query, DEFAULT_TIME_LOG_PAGE_SIZE);
  const [rows, total] = await Promise.all([
    caller.db.timeLog.findMany({
      where,
      select: timeLogSelect,
      orderBy: [{ date: "desc" }, { createdAt: "desc" }, { uuid: "asc" }],
      skip: page.skip,
      take: page.take,
    }),
    caller.db.timeLog.count({ where }),
  ]);
  return { page, total, rows };
}
