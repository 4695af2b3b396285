// The audit entries of clients' creates and updates: what changed, in the API's field names. An update's "before" is
// read by the write's own transaction just before it writes (one primary-key read, with the relations only when they
// were sent), so it is the value the write replaced.
import { changesBetween, type Fields, idSet } from "@/lib/audit/entries";
import type { AuditEntry } from "@/lib/audit/mutations";
import type { Tx } from "@/lib/webhooks/outbox";
import type { CreateClientBody, UpdateClientBody } from "./schemas";

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
