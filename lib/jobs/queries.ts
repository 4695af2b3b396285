// Jobs of the caller's tenant, limited to what the caller may see (lib/auth/visibility.ts).

import type { Caller } from "@/lib/api/caller";
import { type DateRangeSpec, dateFilter } from "@/lib/api/date-ranges";
import { toDbDate, todayIn } from "@/lib/api/dates";
import { type FieldErrors, validationFailed } from "@/lib/api/errors";
import { allOf, containsText } from "@/lib/api/filters";
import { type Page, pageOf } from "@/lib/api/pagination";
import { findVisible } from "@/lib/api/records";
import { visibleClients, visibleJobs } from "@/lib/auth/visibility";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { JobCreateBody, JobListQuery, JobSort } from "./schemas";
import { jobDetailInclude, jobListSelect } from "./serialize";

export const DEFAULT_JOB_PAGE_SIZE = 100;

type Direction = "asc" | "desc";

// Nullable columns sort their nulls last in both directions.
const COLUMN_ORDER: Record<Exclude<JobSort, "status">, (direction: Direction) => Prisma.JobOrderByWithRelationInput> = {
  name: (direction) => ({ name: direction }),
  created_at: (direction) => ({ createdAt: direction }),
  start_date: (direction) => ({ startDate: { sort: direction, nulls: "last" } }),
  due_date: (direction) => ({ dueDate: { sort: direction, nulls: "last" } }),
  estimated_hours: (direction) => ({ estimatedHours: { sort: direction, nulls: "last" } }),
};

function listWhere(caller: Caller, query: JobListQuery, now: Date): Prisma.JobWhereInput {
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
  ]);
}

/** One page of jobs and the total: a constant number of queries, whatever the page size. */
export async function listJobs(caller: Caller, query: JobListQuery, now = new Date()) {
  const where = listWhere(caller, query, now);
  const page = pageOf(query, DEFAULT_JOB_PAGE_SIZE);
  const [rows, total] = await Promise.all([findPage(caller, where, query, page), caller.db.job.count({ where })]);
  return { page, total, rows };
}

function findPage(caller: Caller, where: Prisma.JobWhereInput, query: JobListQuery, page: Page) {
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

/** One job by uuid: 404 when it exists nowhere, 403 in another tenant or outside the caller's visibility. */
export async function getJob(caller: Caller, uuid: string) {
  const visible = visibleJobs(caller);
  const { id } = await findVisible("job", uuid, visible, (extra) =>
    caller.db.job.findFirst({ where: { AND: [{ uuid }, extra] }, select: { id: true } }),
  );
  const job = await caller.db.job.findFirstOrThrow({ where: { id }, include: jobDetailInclude(visible) });
  // A subtask may be visible (assigned to the caller) while its parent is not: then the parent is not named.
  const parentHidden =
    job.parentId !== null &&
    visible &&
    (await caller.db.job.count({ where: { AND: [{ id: job.parentId }, visible] } })) === 0;
  return parentHidden ? { ...job, parent: null } : job;
}

/**
 * Creates a job after checking what it refers to (422 on the field that names something the tenant does not have
 * or the caller cannot see). The job, its assignee and its tags are one nested create, so one transaction.
 */
export async function createJob(caller: Caller, input: JobCreateBody, now = new Date()) {
  const { db } = caller;
  const tagIds = [...new Set(input.tags ?? [])];
  const clients = visibleClients(caller);
  const [client, status, assignee, tags] = await Promise.all([
    input.client_uuid
      ? db.client.findFirst({ where: { AND: [{ uuid: input.client_uuid }, clients ?? {}] }, select: { id: true } })
      : null,
    input.status
      ? db.jobStatus.findFirst({ where: { slug: input.status }, select: { id: true, isCompleted: true } })
      : null,
    input.user_id
      ? db.user.findFirst({ where: { id: input.user_id }, select: { id: true, archivedDate: true } })
      : null,
    tagIds.length ? db.tag.findMany({ where: { id: { in: tagIds } }, select: { id: true } }) : [],
  ]);

  const errors: FieldErrors = {};
  if (input.client_uuid && !client) errors.client_uuid = ["No client you can see has this uuid."];
  if (input.status && !status) errors.status = ["No job status has this slug."];
  if (input.user_id && !assignee) errors.user_id = ["No user has this id."];
  else if (assignee?.archivedDate) errors.user_id = ["This user is archived and cannot be assigned."];
  const knownTags = new Set(tags.map((t) => t.id));
  (input.tags ?? []).forEach((id, i) => {
    if (!knownTags.has(id)) errors[`tags.${i}`] = ["No tag has this id."];
  });
  if (Object.keys(errors).length) throw validationFailed(errors);

  const date = (day: string | null | undefined) => (day ? toDbDate(day) : null);
  const completed = status?.isCompleted ?? false;
  return db.job.create({
    data: {
      tenantId: caller.tenant.id,
      name: input.name,
      description: input.description ?? "",
      clientId: client?.id ?? null,
      statusId: status?.id ?? null,
      startDate: date(input.start_date),
      dueDate: date(input.due_date),
      internalDueDate: date(input.internal_due_date),
      extendedDueDate: date(input.extended_due_date),
      estimatedHours: input.estimated_hours?.toFixed(2) ?? null,
      isCompleted: completed,
      // "Today" for the person who completed it, in their time zone.
      completedDate: completed ? toDbDate(todayIn(caller.user.timezone, now)) : null,
      assignees: assignee ? { create: [{ userId: assignee.id }] } : undefined,
      tags: tagIds.length ? { create: tagIds.map((tagId) => ({ tagId })) } : undefined,
    },
    include: jobDetailInclude(visibleJobs(caller)),
  });
}
