// The audit entries of jobs' creates and updates (see lib/clients/audit.ts).
import { changesBetween, type Fields, idSet } from "@/lib/audit/entries";
import type { AuditEntry } from "@/lib/audit/mutations";
import { fromDbDateOrNull } from "@/lib/core/dates";
import type { Tx } from "@/lib/webhooks/outbox";
import type { CreateJobBody, UpdateJobBody } from "./schemas";

/** A job's fields as the bodies name them; null clears, as on the wire. */
function jobFields(input: UpdateJobBody): Fields {
  return { ...input, tags: idSet(input.tags) };
}

export function jobCreated(job: { uuid: string; name: string }, input: CreateJobBody): AuditEntry {
  return {
    action: "job.created",
    target: { type: "job", uuid: job.uuid, name: job.name },
    changes: changesBetween({}, jobFields(input)),
  };
}

/** Reads the job as it is before the update and answers the update's entry. */
export async function jobUpdated(tx: Tx, id: number, input: UpdateJobBody) {
  const row = await tx.job.findFirstOrThrow({
    where: { id },
    include: {
      client: input.client_uuid !== undefined ? { select: { uuid: true } } : false,
      status: input.status !== undefined ? { select: { slug: true } } : false,
      assignees: input.user_id !== undefined ? { select: { userId: true } } : false,
      tags: input.tags !== undefined ? { select: { tagId: true } } : false,
    },
  });
  const before: Fields = {
    name: row.name,
    description: row.description,
    client_uuid: row.client?.uuid ?? null,
    status: row.status?.slug ?? null,
    start_date: fromDbDateOrNull(row.startDate),
    due_date: fromDbDateOrNull(row.dueDate),
    internal_due_date: fromDbDateOrNull(row.internalDueDate),
    extended_due_date: fromDbDateOrNull(row.extendedDueDate),
    estimated_hours: row.estimatedHours === null ? null : Number(row.estimatedHours),
    user_id: row.assignees?.[0]?.userId ?? null,
    tags: idSet(row.tags?.map((t) => t.tagId)),
  };
  return {
    action: "job.updated",
    target: { type: "job", uuid: row.uuid, name: input.name ?? row.name },
    changes: changesBetween(
      before,
      jobFields({ ...input, description: input.description === null ? "" : input.description }),
    ),
  } satisfies AuditEntry;
}
