// Creating and updating jobs. Rules zod cannot see (references to other records, dates against stored dates) are
// checked here and are 422s.

import { recordAudit } from "@/lib/audit/mutations";
import type { Caller } from "@/lib/auth/caller";
import { visibleClients } from "@/lib/auth/visibility";
import { toDbDate, todayIn } from "@/lib/core/dates";
import { type FieldErrors, forbidden, unknownIdErrors, validationFailed } from "@/lib/core/errors";
import { withoutUndefined } from "@/lib/core/validation";
import type { Prisma } from "@/lib/generated/prisma/client";
import { eventReader, recordEvent, type Tx } from "@/lib/webhooks/outbox";
import { jobCreated, jobUpdated } from "./audit";
import { loadJob } from "./queries";
import type { CreateJobBody, UpdateJobBody } from "./schemas";
import { serializeJob } from "./serialize";

/** A job as its GET answers, read in the transaction that changed it: the data of its webhook events. */
async function jobEventData(caller: Caller, tx: Tx, id: number, now: Date) {
  return serializeJob(await loadJob(eventReader(caller, tx), id), todayIn(caller.tenant.timezone, now));
}

/**
 * Looks up what the input refers to, and throws one 422 naming every field that names something the tenant does not
 * have or the caller cannot see (plus `extra` findings of the caller's own).
 */
async function checkReferences(caller: Caller, db: Tx, input: UpdateJobBody, extra: FieldErrors = {}) {
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

  const errors: FieldErrors = { ...extra };
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
  return { client, status, assignee, tagIds };
}

const date = (day: string | null | undefined) => (day ? toDbDate(day) : null);
/** A date column's new value: undefined (not sent) leaves it, null clears it. */
const dateUpdate = (day: string | null | undefined) => (day === undefined ? undefined : date(day));

/** "Today" for the person who completed the job, in their time zone. */
const completionDate = (caller: Caller, now: Date) => toDbDate(todayIn(caller.user.timezone, now));

/**
 * Creates a job after checking what it refers to (422 on the field that names something the tenant does not have
 * or the caller cannot see). The job, its assignee and its tags are one nested create, in one transaction with its
 * webhook events (job.completed too when it is created completed).
 */
export async function createJob(caller: Caller, input: CreateJobBody, now = new Date()): Promise<number> {
  const { client, status, assignee, tagIds } = await checkReferences(caller, caller.db, input);
  const completed = status?.isCompleted ?? false;
  const tenantId = caller.tenant.id;
  return caller.db.$transaction(async (tx) => {
    const job = await tx.job.create({
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
        completedDate: completed ? completionDate(caller, now) : null,
        assignees: assignee ? { create: [{ userId: assignee.id }] } : undefined,
        tags: tagIds.length ? { create: tagIds.map((tagId) => ({ tagId })) } : undefined,
      },
      select: { id: true, uuid: true, name: true },
    });
    const { id } = job;
    await recordAudit(tx, caller, jobCreated(job, input));
    await recordEvent(tx, tenantId, "job.created", () => jobEventData(caller, tx, id, now), now);
    if (completed) await recordEvent(tx, tenantId, "job.completed", () => jobEventData(caller, tx, id, now), now);
    return id;
  });
}

/** A job already completed keeps the day it was completed when it moves between completed statuses. */
function completedDateUpdate(caller: Caller, completed: boolean, wasCompleted: boolean, now: Date) {
  if (!completed) return null;
  return wasCompleted ? undefined : completionDate(caller, now);
}

/** start_date ≤ due_date, where a date not sent is the stored one: the error names the date that was sent. */
function dateOrderErrors(input: UpdateJobBody, stored: { startDate: Date | null; dueDate: Date | null }): FieldErrors {
  const start = input.start_date === undefined ? stored.startDate : date(input.start_date);
  const due = input.due_date === undefined ? stored.dueDate : date(input.due_date);
  if (!start || !due || start <= due) return {};
  return input.start_date !== undefined
    ? { start_date: ["Must be on or before due_date."] }
    : { due_date: ["Must be on or after start_date."] };
}

/**
 * decisions.md: a user whose client access is limited may change a job's assignees only when the job's client is
 * visible to them through that access. Following the job, or being assigned to it, gives no right: an assignment
 * feeds `assigned_clients`, so it would hand them (or whoever they add) the job's client. Judged on the stored job in
 * the write's transaction with its row locked (lockedJob), before any change: neither a client_uuid in the same body
 * nor a move of the job committed meanwhile by someone else can put it under another client than the one judged.
 */
async function assertMayChangeAssignees(caller: Caller, tx: Tx, jobId: number, assignee: number | null) {
  const clients = visibleClients(caller);
  if (!clients) return;
  const userId = caller.user.id;
  // Sending the assignees the job has (a client writing back what it read) changes nothing.
  const current = await tx.jobAssignee.findMany({ where: { jobId }, select: { userId: true } });
  if (current.map((a) => a.userId).join() === (assignee === null ? "" : String(assignee))) return;
  // assigned_clients counts this job's own assignment too: only the account manager, or another job, gives access.
  const throughAccess: Prisma.ClientWhereInput =
    caller.user.clientAccess === "assigned_clients"
      ? {
          OR: [
            { accountManagerId: userId },
            { jobs: { some: { id: { not: jobId }, assignees: { some: { userId } } } } },
          ],
        }
      : clients;
  if (!(await tx.job.count({ where: { id: jobId, client: throughAccess } })))
    throw forbidden("You may change this job's assignees only if your client access includes its client.");
}

/**
 * Updates a job the caller may see (the route has loaded it): only the fields sent change. A move to a completed
 * status completes the job today; a move to an open status, or to none, reopens it. `user_id` and `tags` replace
 * the sets. One transaction.
 */
export async function updateJob(caller: Caller, id: number, input: UpdateJobBody, now = new Date()): Promise<void> {
  const tenantId = caller.tenant.id;
  await caller.db.$transaction(async (tx) => {
    const stored = await lockedJob(tx, tenantId, id);
    if (input.user_id !== undefined) await assertMayChangeAssignees(caller, tx, id, input.user_id);
    const { client, status, assignee, tagIds } = await checkReferences(
      caller,
      tx,
      input,
      dateOrderErrors(input, stored),
    );
    const completed = input.status === undefined ? undefined : (status?.isCompleted ?? false);
    const data = withoutUndefined<Prisma.JobUncheckedUpdateInput>({
      name: input.name,
      description: input.description === undefined ? undefined : (input.description ?? ""),
      clientId: input.client_uuid === undefined ? undefined : (client?.id ?? null),
      statusId: input.status === undefined ? undefined : (status?.id ?? null),
      startDate: dateUpdate(input.start_date),
      dueDate: dateUpdate(input.due_date),
      internalDueDate: dateUpdate(input.internal_due_date),
      extendedDueDate: dateUpdate(input.extended_due_date),
      estimatedHours: input.estimated_hours === undefined ? undefined : (input.estimated_hours?.toFixed(2) ?? null),
      isCompleted: completed,
      completedDate:
        completed === undefined ? undefined : completedDateUpdate(caller, completed, stored.isCompleted, now),
    });
    await recordAudit(tx, caller, await jobUpdated(tx, id, input));
    await tx.job.update({ where: { tenantId_id: { tenantId, id } }, data });
    if (input.user_id !== undefined) {
      await tx.jobAssignee.deleteMany({ where: { jobId: id } });
      if (assignee) await tx.jobAssignee.create({ data: { tenantId, jobId: id, userId: assignee.id } });
    }
    if (input.tags !== undefined) {
      await tx.jobTag.deleteMany({ where: { jobId: id } });
      await tx.jobTag.createMany({ data: tagIds.map((tagId) => ({ tenantId, jobId: id, tagId })) });
    }
    await recordEvent(tx, tenantId, "job.updated", () => jobEventData(caller, tx, id, now), now);
    if (completed && !stored.isCompleted)
      await recordEvent(tx, tenantId, "job.completed", () => jobEventData(caller, tx, id, now), now);
  });
}

/** The job's row, locked until the transaction ends, with what an update checks against. */
async function lockedJob(tx: Tx, tenantId: number, id: number) {
  await tx.$queryRaw`SELECT 1 FROM jobs WHERE tenant_id = ${tenantId} AND id = ${id} FOR UPDATE`;
  return tx.job.findFirstOrThrow({ where: { id }, select: { startDate: true, dueDate: true, isCompleted: true } });
}
