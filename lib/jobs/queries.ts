// Jobs of the caller's tenant, limited to what the caller may see (lib/auth/visibility.ts).
import type { Caller } from "@/lib/auth/caller";
import { seesAllClients, visibleJobs, visibleJobsSql } from "@/lib/auth/visibility";
import { type DateRangeSpec, resolveDateRange } from "@/lib/core/date-ranges";
import { todayIn } from "@/lib/core/dates";
import { pageOf, type WirePage } from "@/lib/core/pagination";
import type { Direction } from "@/lib/core/validation";
import { clientUuidSql, containsSql, dateRangeSql, sqlConditions, updatedSinceSql } from "@/lib/db/filters";
import { visibleWireRecord, wireRecord } from "@/lib/db/json-rows";
import { readWireCursorPage } from "@/lib/db/keyset";
import { findVisible } from "@/lib/db/records";
import { keptRows } from "@/lib/db/row-counts";
import { type SqlKey, type SqlOrder, type WireList, wireOffsetPage, wireTotal } from "@/lib/db/wire-list";
import { Prisma } from "@/lib/generated/prisma/client";
import type { JobSort, ListJobsQuery } from "./schemas";
import { type JobDetailRow, jobDetailInclude } from "./serialize";
import { jobListItemWire, jobWire } from "./wire";

const DEFAULT_JOB_PAGE_SIZE = 100;

// Nullable columns sort their nulls last in both directions; a status sorts by its position in the tenant's workflow.
const SORT_KEYS: Record<JobSort, Omit<SqlKey, "direction">> = {
  name: { sql: "t.name", kind: "text" },
  created_at: { sql: "t.created_at", kind: "timestamptz" },
  updated_at: { sql: "t.updated_at", kind: "timestamptz" },
  start_date: { sql: "t.start_date", kind: "date", nullsLast: true },
  due_date: { sql: "t.due_date", kind: "date", nullsLast: true },
  estimated_hours: { sql: "t.estimated_hours", kind: "numeric", nullsLast: true },
  status: {
    sql: "(SELECT s.position FROM job_statuses s WHERE (s.tenant_id, s.id) = (t.tenant_id, t.status_id))",
    kind: "int",
    nullsLast: true,
  },
};

/** The list's order: the sort, then uuid (ascending in both directions) so that ties never straddle pages. */
const jobOrder = (sort: JobSort, direction: Direction): SqlOrder => [
  { ...SORT_KEYS[sort], direction },
  { sql: "t.uuid", direction: "asc", kind: "uuid" },
];

/** The list's filters as SQL: visibility, the completed flag (by default only open jobs), and the others. */
function listFilters(caller: Caller, query: ListJobsQuery, now: Date) {
  const range = (column: string, spec: DateRangeSpec | undefined) =>
    spec && dateRangeSql(column, resolveDateRange(spec, caller.user.timezone, now));
  const others = sqlConditions([
    query.search !== undefined && containsSql("t.name", query.search),
    query.client_uuid !== undefined && clientUuidSql(query.client_uuid),
    query.users &&
      Prisma.sql`EXISTS (SELECT 1 FROM job_assignees a WHERE (a.tenant_id, a.job_id) = (t.tenant_id, t.id)
        AND a.user_id = ANY(${query.users}::int[]))`,
    query.tags &&
      Prisma.sql`EXISTS (SELECT 1 FROM job_tags jt WHERE (jt.tenant_id, jt.job_id) = (t.tenant_id, t.id)
        AND jt.tag_id = ANY(${query.tags}::int[]))`,
    query.statuses &&
      Prisma.sql`EXISTS (SELECT 1 FROM job_statuses s WHERE (s.tenant_id, s.id) = (t.tenant_id, t.status_id)
        AND s.slug = ANY(${query.statuses}::text[]))`,
    range("t.start_date", query.start_date_range),
    range("t.due_date", query.due_date_range),
    query.exclude_subtasks && Prisma.sql`t.parent_id IS NULL`,
    query.exclude_client_requests && Prisma.sql`NOT t.is_client_request`,
    updatedSinceSql(query.updated_since),
  ]);
  const visible = !seesAllClients(caller) && visibleJobsSql(caller, "t");
  return { visible, open: !query.include_completed && Prisma.sql`NOT t.is_completed`, others };
}

/**
 * One page of jobs and the total, or a cursor page, as wire JSON: found, written and counted by PostgreSQL in one
 * statement (lib/db/wire-list.ts). Seeing every job and filtered by no more than the completed flag, the total is
 * what the triggers keep (lib/db/row-counts.ts), which lets a deep page be found from the nearer end.
 */
export async function listJobs(caller: Caller, query: ListJobsQuery, now = new Date()): Promise<WirePage> {
  const filters = listFilters(caller, query, now);
  const list: WireList = {
    table: "jobs",
    where: sqlConditions([filters.visible, filters.open, ...filters.others]),
    order: jobOrder(query.sort_by, query.sort_direction),
    object: jobListItemWire(todayIn(caller.tenant.timezone)),
  };
  const page = pageOf(query, DEFAULT_JOB_PAGE_SIZE);
  if (query.cursor !== undefined) return readWireCursorPage(caller, "jobs", query, list, page.perPage);
  const kept =
    !filters.visible && filters.others.length === 0 && keptRows("jobs", query.include_completed ? undefined : false);
  const known = kept && page.skip > 0 ? await wireTotal(caller, list, kept) : undefined;
  return { page, ...(await wireOffsetPage(caller, list, page, kept || "count", known)) };
}

/** The job with this uuid, if the caller may see it: 404 when it exists nowhere, 403 when it is not theirs. */
export function findVisibleJob(caller: Caller, uuid: string) {
  return findVisible("job", uuid, visibleJobs(caller), (extra) =>
    caller.db.job.findFirst({ where: { AND: [{ uuid }, extra] }, select: { id: true } }),
  );
}

/** The wire JSON of GET /jobs/{uuid}: found, checked and written by PostgreSQL in one statement (404, 403 as findVisible). */
export function jobJson(caller: Caller, uuid: string): Promise<string> {
  return visibleWireRecord(
    caller,
    "job",
    "jobs",
    uuid,
    visibleJobsSql(caller, "t"),
    jobWire(caller, todayIn(caller.tenant.timezone)),
  );
}

/** A job's wire JSON by id: the answer of a write, written by PostgreSQL like GET's. */
export function jobJsonById(caller: Caller, id: number): Promise<string> {
  return wireRecord(caller, "jobs", id, jobWire(caller, todayIn(caller.tenant.timezone)), "Job");
}

/** A job by id with everything of it the caller may see (a webhook event's data). */
export async function loadJob(caller: Caller, id: number): Promise<JobDetailRow> {
  const visible = visibleJobs(caller);
  const job = await caller.db.job.findFirstOrThrow({ where: { id }, include: jobDetailInclude(visible) });
  // A subtask may be visible (assigned to the caller) while its parent is not: then the parent is not named.
  const parentHidden =
    job.parentId !== null &&
    visible &&
    (await caller.db.job.count({ where: { AND: [{ id: job.parentId }, visible] } })) === 0;
  return parentHidden ? { ...job, parent: null } : job;
}
