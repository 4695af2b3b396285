// Jobs of the caller's tenant, limited to what the caller may see (lib/auth/visibility.ts).
import type { Caller } from "@/lib/auth/caller";
import { visibleJobs } from "@/lib/auth/visibility";
import { type DateRangeSpec, dateFilter } from "@/lib/core/date-ranges";
import { type ListPage, type Page, pageOf, updatedSince } from "@/lib/core/pagination";
import type { Direction } from "@/lib/core/validation";
import { allOf, containsText } from "@/lib/db/filters";
import { findVisible } from "@/lib/db/records";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { JobSort, ListJobsQuery } from "./schemas";
import { type JobDetailRow, type JobListRow, jobDetailInclude, jobListSelect } from "./serialize";

const DEFAULT_JOB_PAGE_SIZE = 100;

// Nullable columns sort their nulls last in both directions.
const COLUMN_ORDER: Record<Exclude<JobSort, "status">, (direction: Direction) => Prisma.JobOrderByWithRelationInput> = {
  name: (direction) => ({ name: direction }),
  created_at: (direction) => ({ createdAt: direction }),
  updated_at: (direction) => ({ updatedAt: direction }),
  start_date: (direction) => ({ startDate: { sort: direction, nulls: "last" } }),
  due_date: (direction) => ({ dueDate: { sort: direction, nulls: "last" } }),
  estimated_hours: (direction) => ({ estimatedHours: { sort: direction, nulls: "last" } }),
};

function listWhere(caller: Caller, query: ListJobsQuery, now: Date): Prisma.JobWhereInput {
  const range = (spec: DateRangeSpec) => dateFilter(spec, caller.user.timezone, now);
  return allOf<Prisma.JobWhereInput>([
    visibleJobs(caller),
    query.search !== undefined && { name: containsText(query.search) },
    query.client_uuid !== undefined && { client: { uuid: query.client_uuid } },
    query.users && { assignees: { some: { userId: { in: query.users } } } },
    query.tags && { tags: { some: { tagId: { in: query.tags } } } },
    query.statuses && { status: { slug: { in: query.statuses } } },
    query.start_date_range && { startDate: range(query.start_date_range) },
    query.due_date_range && { dueDate: range(query.due_date_range) },
    !query.include_completed && { isCompleted: false },
    query.exclude_subtasks && { parentId: null },
    query.exclude_client_requests && { isClientRequest: false },
    updatedSince(query.updated_since),
  ]);
}

/** One page of jobs and the total: a constant number of queries, whatever the page size. */
export async function listJobs(caller: Caller, query: ListJobsQuery, now = new Date()): Promise<ListPage<JobListRow>> {
  const where = listWhere(caller, query, now);
  const page = pageOf(query, DEFAULT_JOB_PAGE_SIZE);
  const [rows, total] = await Promise.all([findPage(caller, where, query, page), caller.db.job.count({ where })]);
  return { page, total, rows };
}

function findPage(caller: Caller, where: Prisma.JobWhereInput, query: ListJobsQuery, page: Page) {
  if (query.sort_by === "status") return findPageByStatus(caller, where, query.sort_direction, page);
  return caller.db.job.findMany({
    where,
    select: jobListSelect,
    orderBy: [COLUMN_ORDER[query.sort_by](query.sort_direction), { uuid: "asc" }],
    skip: page.skip,
    take: page.take,
  });
}

/**
 * Status sorts by the tenant's workflow order (the status's position). Prisma can ask for nulls last only on the
 * job's own columns, and PostgreSQL puts jobs without a status first when descending; so the ordered list is read
 * as two segments, the jobs with a status in order, then those without one.
 */
async function findPageByStatus(caller: Caller, where: Prisma.JobWhereInput, direction: Direction, page: Page) {
  const withStatus: Prisma.JobWhereInput = { AND: [where, { statusId: { not: null } }] };
  const ranked = await caller.db.job.count({ where: withStatus });
  const first =
    page.skip < ranked
      ? await caller.db.job.findMany({
          where: withStatus,
          select: jobListSelect,
          orderBy: [{ status: { position: direction } }, { uuid: "asc" }],
          skip: page.skip,
          take: Math.min(page.take, ranked - page.skip),
        })
      : [];
  if (first.length === page.take) return first;
  const rest = await caller.db.job.findMany({
    where: { AND: [where, { statusId: null }] },
    select: jobListSelect,
    orderBy: { uuid: "asc" },
    skip: Math.max(0, page.skip - ranked),
    take: page.take - first.length,
  });
  return [...first, ...rest];
}

/** The job with this uuid, if the caller may see it: 404 when it exists nowhere, 403 when it is not theirs. */
export function findVisibleJob(caller: Caller, uuid: string) {
  return findVisible("job", uuid, visibleJobs(caller), (extra) =>
    caller.db.job.findFirst({ where: { AND: [{ uuid }, extra] }, select: { id: true } }),
  );
}

/** A job by id with everything of it the caller may see. */
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
