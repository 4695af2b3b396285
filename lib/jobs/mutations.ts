// Creating jobs. Rules zod cannot see (references to other records) are checked here and are 422s.
import type { Caller } from "@/lib/auth/caller";
import { visibleClients } from "@/lib/auth/visibility";
import { toDbDate, todayIn } from "@/lib/core/dates";
import { type FieldErrors, unknownIdErrors, validationFailed } from "@/lib/core/errors";
import { loadJob } from "./queries";
import type { CreateJobBody } from "./schemas";

/**
 * Creates a job after checking what it refers to (422 on the field that names something the tenant does not have
 * or the caller cannot see). The job, its assignee and its tags are one nested create, so one transaction.
 */
export async function createJob(caller: Caller, input: CreateJobBody, now = new Date()) {
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
  Object.assign(
    errors,
    unknownIdErrors(
      "tags",
      input.tags,
      tags.map((t) => t.id),
      "No tag has this id.",
    ),
  );
  if (Object.keys(errors).length) throw validationFailed(errors);

  const date = (day: string | null | undefined) => (day ? toDbDate(day) : null);
  const completed = status?.isCompleted ?? false;
  const { id } = await db.job.create({
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
    select: { id: true },
  });
  return loadJob(caller, id);
}
