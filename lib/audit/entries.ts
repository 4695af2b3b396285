// The entries of the API's writes: what each resource's create and update changed, in the API's field names. An
// update's "before" is read by the write's own transaction just before it writes (one primary-key read, with the
// relations only when they were sent), so it is the value the write replaced.
import type { CreateClientBody, UpdateClientBody } from "@/lib/clients/schemas";
import type { CreateContactBody, UpdateContactBody } from "@/lib/contacts/schemas";
import { fromDbDateOrNull } from "@/lib/core/dates";
import type { WebhookEndpoint } from "@/lib/generated/prisma/client";
import type { CreateJobBody, UpdateJobBody } from "@/lib/jobs/schemas";
import type { Tx } from "@/lib/webhooks/outbox";
import type { CreateWebhookBody, UpdateWebhookBody } from "@/lib/webhooks/schemas";
import type { AuditEntry } from "./mutations";
import type { Changes } from "./schemas";

type Fields = Record<string, unknown>;

/** `[before, after]` of each field of `after` (undefined: not sent) whose value differs from `before`'s. */
export function changesBetween(before: Fields, after: Fields): Changes {
  const changes: Changes = {};
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const was = before[field] ?? null;
    if (JSON.stringify(was) !== JSON.stringify(value)) changes[field] = [was, value];
  }
  return changes;
}

/** A set of ids as the entry shows it: each once, in order. */
const idSet = (ids: number[] | null | undefined) => (ids ? [...new Set(ids)].sort((a, b) => a - b) : ids);

// ---- Clients ----

interface CustomValue {
  field: { id: number; name: string };
  value: unknown;
}

/** A client's fields as the create and update bodies name them (the sent custom fields as `custom_fields.<name>`). */
function clientFields(input: UpdateClientBody, values: CustomValue[]): Fields {
  return {
    ...input,
    // The sent values one by one (below); a nested contact has an entry of its own.
    custom_fields: undefined,
    contact: undefined,
    client_groups: idSet(input.client_groups),
    tags: idSet(input.tags),
    ...Object.fromEntries(values.map(({ field, value }) => [`custom_fields.${field.name}`, value])),
  };
}

export function clientCreated(
  client: { uuid: string; name: string },
  input: CreateClientBody,
  values: CustomValue[],
): AuditEntry {
  return {
    action: "client.created",
    target: { type: "client", uuid: client.uuid, name: client.name },
    changes: changesBetween({}, clientFields(input, values)),
  };
}

/** Reads the client as it is before the update and answers the update's entry. */
export async function clientUpdated(tx: Tx, id: number, input: UpdateClientBody, values: CustomValue[]) {
  const fieldIds = values.map((v) => v.field.id);
  const row = await tx.client.findFirstOrThrow({
    where: { id },
    include: {
      groups: input.client_groups ? { select: { groupId: true } } : false,
      tags: input.tags ? { select: { tagId: true } } : false,
      customValues: fieldIds.length
        ? { where: { fieldId: { in: fieldIds } }, select: { fieldId: true, value: true } }
        : false,
    },
  });
  const before: Fields = {
    name: row.name,
    client_status: row.clientStatus,
    client_id: row.clientRef,
    reg_number: row.regNumber,
    website: row.website,
    country_id: row.countryId,
    user_id: row.accountManagerId,
    state: row.state,
    city: row.city,
    street_address: row.streetAddress,
    postal_code: row.postalCode,
    year_end: row.yearEnd,
    is_archived: row.isArchived,
    client_groups: idSet(row.groups?.map((g) => g.groupId)),
    tags: idSet(row.tags?.map((t) => t.tagId)),
    ...Object.fromEntries(
      values.map(({ field }) => [
        `custom_fields.${field.name}`,
        row.customValues?.find((v) => v.fieldId === field.id)?.value ?? null,
      ]),
    ),
  };
  return {
    action: "client.updated",
    target: { type: "client", uuid: row.uuid, name: input.name ?? row.name },
    changes: changesBetween(before, clientFields(input, values)),
  } satisfies AuditEntry;
}

// ---- Contacts ----

const contactName = (c: { firstname: string; lastname: string }) => `${c.firstname} ${c.lastname}`.trim();

/** A contact created alone, or with a client (the client's nested `contact`). */
export function contactCreated(
  contact: { uuid: string; firstname: string; lastname: string },
  input: Fields & Pick<CreateContactBody, "firstname" | "preferred_name">,
): AuditEntry {
  return {
    action: "contact.created",
    target: { type: "contact", uuid: contact.uuid, name: contactName(contact) },
    changes: changesBetween({}, { ...input, preferred_name: input.preferred_name ?? input.firstname }),
  };
}

/**
 * Reads the contact as it is before the update and answers the update's entry. A sent client_uuid links the contact
 * to that client (or changes the link's title): `client_uuid` changes from null when the link is new.
 */
export async function contactUpdated(tx: Tx, id: number, input: UpdateContactBody, client: { id: number } | null) {
  const row = await tx.contact.findFirstOrThrow({
    where: { id },
    include: { clients: client ? { where: { clientId: client.id }, select: { title: true } } : false },
  });
  const link = row.clients?.[0];
  const before: Fields = {
    firstname: row.firstname,
    lastname: row.lastname,
    preferred_name: row.preferredName,
    email: row.email,
    phone_number: row.phoneNumber,
    portal_enabled: row.portalEnabled,
    client_uuid: link ? input.client_uuid : null,
    title: link?.title ?? null,
  };
  return {
    action: "contact.updated",
    target: { type: "contact", uuid: row.uuid, name: contactName({ ...row, ...withDefined(input) }) },
    changes: changesBetween(before, { ...input, title: client ? input.title : undefined }),
  } satisfies AuditEntry;
}

const withDefined = <T extends object>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;

// ---- Jobs ----

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

// ---- Webhooks ----

const webhookTarget = (endpoint: Pick<WebhookEndpoint, "uuid" | "url">) => ({
  type: "webhook" as const,
  uuid: endpoint.uuid,
  name: endpoint.url,
});

export function webhookCreated(endpoint: WebhookEndpoint, input: CreateWebhookBody): AuditEntry {
  return { action: "webhook.created", target: webhookTarget(endpoint), changes: changesBetween({}, input) };
}

export function webhookUpdated(endpoint: WebhookEndpoint, input: UpdateWebhookBody): AuditEntry {
  return {
    action: "webhook.updated",
    target: webhookTarget({ uuid: endpoint.uuid, url: input.url ?? endpoint.url }),
    changes: changesBetween(endpoint, input),
  };
}

/** An action on a webhook endpoint that changes no field of it (delete, test), or only its secret (rotate). */
export function webhookAction(
  action: "webhook.deleted" | "webhook.tested" | "webhook.secret_rotated",
  endpoint: WebhookEndpoint,
): AuditEntry {
  const changes: Changes = action === "webhook.secret_rotated" ? { secret: "changed" } : {};
  return { action, target: webhookTarget(endpoint), changes };
}

/** The delivery runner disabled an endpoint: its receiver answered 410 Gone (`gone`), or it failed for 5 days. */
export function webhookDisabled(endpoint: WebhookEndpoint, reason: "gone" | "failing"): AuditEntry {
  return {
    action: "webhook.disabled",
    target: webhookTarget(endpoint),
    changes: { enabled: [true, false], disabled_reason: [endpoint.disabledReason, reason] },
  };
}
