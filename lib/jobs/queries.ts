// Jobs of the caller's tenant, limited to what the caller may see (lib/auth/visibility.ts).
import type { Caller } from "@/lib/auth/caller";
import { visibleJobs } from "@/lib/auth/visibility";
import { type DateRangeSpec, dateFilter } from "@/lib/core/date-ranges";
import { todayIn } from "@/lib/core/dates";
import { type Page, pageOf, updatedSince, type WirePage } from "@/lib/core/pagination";
import type { Direction } from "@/lib/core/validation";
import { allOf, containsText, type Filter } from "@/lib/db/filters";
import { wireRecord, wireRows } from "@/lib/db/json-rows";
import { readCursorPage } from "@/lib/db/keyset";
import { pageAndTotal, readOffsetPage } from "@/lib/db/offset-page";
import { findVisible } from "@/lib/db/records";
import { countedRows } from "@/lib/db/row-counts";
import { type ListOrder, prismaOrderBy } from "@/lib/db/search-page";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { JobSort, ListJobsQuery } from "./schemas";
import { type JobDetailRow, jobDetailInclude } from "./serialize";
import { jobListItemWire, jobWire } from "./wire";

const DEFAULT_JOB_PAGE_SIZE = 100;

// Nullable columns sort their nulls last in both directions; a status sorts by its position in the tenant's workflow.
const SORT_COLUMNS: Record<JobSort, [column: string, nulls?: "last", nullWhen?: string]> = {
  name: ["name"],
  created_at: ["created_at"],
  updated_at: ["updated_at"],
  start_date: ["start_date", "last"],
  due_date: ["due_date", "last"],
  estimated_hours: ["estimated_hours", "last"],
  status: ["status.position", "last", "status_id"],
};

/** What a page of jobs is found by: the id, and the order's columns for a cursor page's positions. */
const jobKeys = {
  id: true,
  uuid: true,
  name: true,
  startDate: true,
  dueDate: true,
  estimatedHours: true,
  createdAt: true,
  updatedAt: true,
  status: { select: { position: true } },
} satisfies Prisma.JobSelect;

/** The list's order: the sort, then uuid (ascending in both directions) so that ties never straddle pages. */
function jobOrder(sort: JobSort, direction: Direction): ListOrder {
  const [column, nulls, nullWhen] = SORT_COLUMNS[sort];
  return [
    [column, direction, nulls, nullWhen],
    ["uuid", "asc"],
  ];
}

/** The list's filters: visibility, the completed flag (by default only open jobs), and the others. */
function listFilters(caller: Caller, query: ListJobsQuery, now: Date) {
  const range = (spec: DateRangeSpec) => dateFilter(spec, caller.user.timezone, now);
  const others: Filter<Prisma.JobWhereInput>[] = [
    query.search !== undefined && { name: containsText(query.search) },
    query.client_uuid !== undefined && { client: { uuid: query.client_uuid } },
    query.users && { assignees: { some: { userId: { in: query.users } } } },
    query.tags && { tags: { some: { tagId: { in: query.tags } } } },
    query.statuses && { status: { slug: { in: query.statuses } } },
    query.start_date_range && { startDate: range(query.start_date_range) },
    query.due_date_range && { dueDate: range(query.due_date_range) },
    query.exclude_subtasks && { parentId: null },
    query.exclude_client_requests && { isClientRequest: false },
    updatedSince(query.updated_since),
  ];
  return { visible: visibleJobs(caller), open: !query.include_completed && { isCompleted: false }, others };
}

const jobsJson = (caller: Caller, rows: { id: number }[]) =>
  wireRows(caller, "jobs", rows, jobListItemWire(todayIn(caller.tenant.timezone)));

/**
 * One page of jobs and the total (a constant number of queries, whatever the page size), or a cursor page, as wire
 * JSON: found by Prisma (filters, visibility, order), written by PostgreSQL.
 */
export async function listJobs(caller: Caller, query: ListJobsQuery, now = new Date()): Promise<WirePage> {
  const filters = listFilters(caller, query, now);
  const where = allOf<Prisma.JobWhereInput>([filters.visible, filters.open, ...filters.others]);
  const order = jobOrder(query.sort_by, query.sort_direction);
  const page = pageOf(query, DEFAULT_JOB_PAGE_SIZE);
  if (query.cursor !== undefined) {
    const { rows, ...cursorPage } = await readCursorPage(
      caller,
      "jobs",
      query,
      order,
      page.perPage,
      (past, take, reversed) =>
        query.sort_by === "status"
          ? findByStatusPast(caller, { AND: [where, past] }, order, take, reversed)
          : caller.db.job.findMany({
              where: { AND: [where, past] },
              select: jobKeys,
              orderBy: prismaOrderBy(order, reversed),
              take,
            }),
    );
    return { ...cursorPage, json: await jobsJson(caller, rows) };
  }
  const counted = !filters.visible && !filters.others.some(Boolean);
  const [total, rows] = await pageAndTotal(
    counted
      ? countedRows(caller.db, "jobs", query.include_completed ? undefined : false)
      : caller.db.job.count({ where }),
    (total) => findPage(caller, where, query, order, page, counted ? total : undefined),
  );
  return { page, total, json: await jobsJson(caller, rows) };
}

/**
 * One page. Seeing every job and filtered by no more than the completed flag, the total is what the triggers keep
 * (lib/db/row-counts.ts), which lets a deep page be found from the end (lib/db/offset-page.ts).
 */
function findPage(
  caller: Caller,
  where: Prisma.JobWhereInput,
  query: ListJobsQuery,
  order: ListOrder,
  page: Page,
  total?: Promise<number>,
) {
  if (query.sort_by === "status") return findPageByStatus(caller, where, order, page);
  return readOffsetPage(
    page,
    {
      ids: ({ skip, take }, reversed) =>
        caller.db.job.findMany({ where, orderBy: prismaOrderBy(order, reversed), skip, take, select: { id: true } }),
      rows: ({ skip, take }, ids) =>
        caller.db.job.findMany({
          where: ids ? { id: { in: ids } } : where,
          select: { id: true },
          orderBy: prismaOrderBy(order),
          skip,
          take,
        }),
    },
    total,
  );
}

// Status sorts order by the status's position. Prisma can ask for nulls last only on the job's own columns, and
// PostgreSQL puts jobs without a status first when descending; so the ordered list is read as two segments, the
// jobs with a status in order, then those without one (by uuid).
const withStatus = (where: Prisma.JobWhereInput): Prisma.JobWhereInput => ({
  AND: [where, { statusId: { not: null } }],
});
const withoutStatus = (where: Prisma.JobWhereInput): Prisma.JobWhereInput => ({ AND: [where, { statusId: null }] });

async function findPageByStatus(caller: Caller, where: Prisma.JobWhereInput, order: ListOrder, page: Page) {
  const ranked = await caller.db.job.count({ where: withStatus(where) });
  const first =
    page.skip < ranked
      ? await caller.db.job.findMany({
          where: withStatus(where),
          select: { id: true },
          orderBy: prismaOrderBy(order),
          skip: page.skip,
          take: Math.min(page.take, ranked - page.skip),
        })
      : [];
  if (first.length === page.take) return first;
  const rest = await caller.db.job.findMany({
    where: withoutStatus(where),
    select: { id: true },
    orderBy: { uuid: "asc" },
    skip: Math.max(0, page.skip - ranked),
    take: page.take - first.length,
  });
  return [...first, ...rest];
}

/**
 * The first `take` jobs of a status sort that match `where` (which holds the keyset condition), or with `reversed` the
 * last ones, read backwards (the jobs without a status, then those with one): no count needed.
 */
async function findByStatusPast(
  caller: Caller,
  where: Prisma.JobWhereInput,
  order: ListOrder,
  take: number,
  reversed: boolean,
) {
  const ranked = () =>
    caller.db.job.findMany({
      where: withStatus(where),
      select: jobKeys,
      orderBy: prismaOrderBy(order, reversed),
      take,
    });
  const unranked = () =>
    caller.db.job.findMany({
      where: withoutStatus(where),
      select: jobKeys,
      orderBy: { uuid: reversed ? "desc" : "asc" },
      take,
    });
  const [segment, next] = reversed ? [unranked, ranked] : [ranked, unranked];
  const first = await segment();
  if (first.length === take) return first;
  return [...first, ...(await next())].slice(0, take);
}

/** The job with this uuid, if the caller may see it: 404 when it exists nowhere, 403 when it is not theirs. */
export function findVisibleJob(caller: Caller, uuid: string) {
  return findVisible("job", uuid, visibleJobs(caller), (extra) =>
    caller.db.job.findFirst({ where: { AND: [{ uuid }, extra] }, select: { id: true } }),
  );
}

/** A visible job's wire JSON (GET /jobs/{uuid}), written by PostgreSQL. */
export function jobJson(caller: Caller, id: number): Promise<string> {
  return wireRecord(caller, "jobs", id, jobWire(caller, todayIn(caller.tenant.timezone)), "Job");
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
