// Wire shapes of jobs: the list shape, and the single-job shape that adds everything else.

import type { z } from "zod";
import { fromDbDateOrNull } from "@/lib/core/dates";
import type { Prisma } from "@/lib/generated/prisma/client";
import { serializeUserSummary } from "@/lib/users/serialize";
import type { jobListItemObject, jobObject } from "./schemas";

/** What the list shape needs; also how subtasks are read inside a single job. */
export const jobListSelect = {
  uuid: true,
  name: true,
  startDate: true,
  dueDate: true,
  estimatedHours: true,
  isCompleted: true,
  repeatSettings: true,
  updatedAt: true,
  status: { select: { slug: true } },
  client: { select: { uuid: true } },
} satisfies Prisma.JobSelect;

export type JobListRow = Prisma.JobGetPayload<{ select: typeof jobListSelect }>;

const userSummary = {
  user: { select: { id: true, firstname: true, lastname: true, email: true, avatarUrl: true } },
} as const;

/** Everything of one job; `subTasks` takes the caller's visibility filter. */
export function jobDetailInclude(visibleSubTasks: Prisma.JobWhereInput | undefined) {
  return {
    status: { select: { slug: true, name: true } },
    client: { select: { uuid: true, name: true } },
    parent: { select: { uuid: true, name: true } },
    assignees: { select: userSummary, orderBy: { userId: "asc" } },
    followers: { select: userSummary, orderBy: { userId: "asc" } },
    tags: { select: { tag: { select: { id: true, name: true } } }, orderBy: { tagId: "asc" } },
    subTasks: {
      where: visibleSubTasks,
      select: jobListSelect,
      orderBy: [{ dueDate: { sort: "asc", nulls: "last" } }, { uuid: "asc" }],
    },
  } satisfies Prisma.JobInclude;
}

export type JobDetailRow = Prisma.JobGetPayload<{ include: ReturnType<typeof jobDetailInclude> }>;

/**
 * The list shape. `today` is the date in the tenant's time zone: a job is overdue when it is not completed and its
 * due date is before today (decisions.md).
 */
export function serializeJobListItem(job: JobListRow, today: string): z.output<typeof jobListItemObject> {
  const dueDate = fromDbDateOrNull(job.dueDate);
  return {
    uuid: job.uuid,
    name: job.name,
    status: job.status?.slug ?? null,
    client_uuid: job.client?.uuid ?? null,
    estimated_hours: job.estimatedHours === null ? null : job.estimatedHours.toNumber(),
    start_date: fromDbDateOrNull(job.startDate),
    due_date: dueDate,
    is_overdue: !job.isCompleted && dueDate !== null && dueDate < today,
    is_completed: job.isCompleted,
    is_repeating: job.repeatSettings !== null,
    updated_at: job.updatedAt.toISOString(),
  };
}

export function serializeJob(job: JobDetailRow, today: string): z.output<typeof jobObject> {
  return {
    ...serializeJobListItem(job, today),
    description: job.description,
    status_name: job.status?.name ?? null,
    client: job.client,
    users: job.assignees.map((a) => serializeUserSummary(a.user)),
    followers: job.followers.map((f) => serializeUserSummary(f.user)),
    tags: job.tags.map((t) => t.tag),
    internal_due_date: fromDbDateOrNull(job.internalDueDate),
    extended_due_date: fromDbDateOrNull(job.extendedDueDate),
    completed_date: fromDbDateOrNull(job.completedDate),
    is_subtask: job.parentId !== null,
    parent_uuid: job.parent?.uuid ?? null,
    parent: job.parent,
    sub_tasks: job.subTasks.map((s) => serializeJobListItem(s, today)),
  };
}
