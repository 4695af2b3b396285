// Creating and updating clients. Every write of one request happens in one transaction: on any failure nothing is
// written. Rules zod cannot see (references to other records, uniqueness) are checked here and are 422s.

import { recordAudit } from "@/lib/audit/mutations";
import type { Caller } from "@/lib/auth/caller";
import { contactCreated } from "@/lib/contacts/audit";
import { loadContact } from "@/lib/contacts/queries";
import { serializeContact } from "@/lib/contacts/serialize";
import { type FieldErrors, unknownIdErrors, validationFailed } from "@/lib/core/errors";
import { withoutUndefined } from "@/lib/core/validation";
import type { TenantDb } from "@/lib/db/tenant";
import { withUniqueFields } from "@/lib/db/unique";
import type { Prisma } from "@/lib/generated/prisma/client";
import { eventReader, recordEvent } from "@/lib/webhooks/outbox";
import { clientCreated, clientUpdated } from "./audit";
import { parseCustomValues, tenantCustomFields } from "./custom-fields";
import { loadClient } from "./queries";
import type { CreateClientBody, UpdateClientBody } from "./schemas";
import { serializeClient } from "./serialize";

type Tx = Parameters<Parameters<Caller["db"]["$transaction"]>[0]>[0];
type CustomValue = ReturnType<typeof parseCustomValues>["values"][number];

const UNIQUE_FIELDS = {
  clients_tenant_id_client_ref_key: ["client_id", "This client_id is already used by another client."],
  clients_tenant_id_reg_number_key: ["reg_number", "This registration number is already used by another client."],
  contacts_tenant_id_email_key: ["contact.email", "A contact with this email already exists."],
} as const;

/** Input keys to columns; only the keys that were sent are written. */
function clientColumns(input: UpdateClientBody): Prisma.ClientUncheckedUpdateInput {
  return withoutUndefined<Prisma.ClientUncheckedUpdateInput>({
    name: input.name,
    clientStatus: input.client_status,
    clientRef: input.client_id,
    regNumber: input.reg_number,
    website: input.website,
    countryId: input.country_id,
    accountManagerId: input.user_id,
    state: input.state,
    city: input.city,
    streetAddress: input.street_address,
    postalCode: input.postal_code,
    yearEnd: input.year_end,
    isArchived: input.is_archived,
  });
}

async function knownIds(ids: number[] | undefined, find: (ids: number[]) => Promise<{ id: number }[]>) {
  return ids?.length ? (await find(ids)).map((r) => r.id) : [];
}

/**
 * Checks everything the input refers to, and which values are already taken; throws one 422 with all findings. The
 * tenant's custom fields are read only when the body sends values for some: a write is a statement shorter without.
 */
async function checkInput(
  caller: Caller,
  input: UpdateClientBody & Pick<CreateClientBody, "contact">,
  clientId?: number,
) {
  const db = caller.db;
  const errors: FieldErrors = {};
  const notSelf = clientId ? { NOT: { id: clientId } } : {};
  const sentCustom = input.custom_fields ?? {};
  const [fields, groups, tags, countries, users, clientRefTaken, regNumberTaken, emailTaken] = await Promise.all([
    Object.keys(sentCustom).length ? tenantCustomFields(db) : [],
    knownIds(input.client_groups, (ids) =>
      db.clientGroup.findMany({ where: { id: { in: ids } }, select: { id: true } }),
    ),
    knownIds(input.tags, (ids) => db.tag.findMany({ where: { id: { in: ids } }, select: { id: true } })),
    input.country_id ? db.country.count({ where: { id: input.country_id } }) : 1,
    input.user_id ? db.user.count({ where: { id: input.user_id, archivedDate: null } }) : 1,
    input.client_id ? db.client.count({ where: { clientRef: input.client_id, ...notSelf } }) : 0,
    input.reg_number ? db.client.count({ where: { regNumber: input.reg_number, ...notSelf } }) : 0,
    input.contact ? db.contact.count({ where: { email: input.contact.email } }) : 0,
  ]);
  Object.assign(errors, unknownIdErrors("client_groups", input.client_groups, groups, "No client group has this id."));
  Object.assign(errors, unknownIdErrors("tags", input.tags, tags, "No tag has this id."));
  if (!countries) errors.country_id = ["Unknown country id."];
  if (!users) errors.user_id = ["There is no active user with this id in the firm."];
  if (clientRefTaken) errors.client_id = [UNIQUE_FIELDS.clients_tenant_id_client_ref_key[1]];
  if (regNumberTaken) errors.reg_number = [UNIQUE_FIELDS.clients_tenant_id_reg_number_key[1]];
  if (emailTaken) errors["contact.email"] = [UNIQUE_FIELDS.contacts_tenant_id_email_key[1]];
  const custom = parseCustomValues(sentCustom, fields);
  Object.assign(errors, custom.errors);
  if (Object.keys(errors).length) throw validationFailed(errors);
  return custom.values;
}

/** Replaces the client's groups and tags when they were sent, and writes the sent custom field values. */
async function writeLinks(tx: Tx, tenantId: number, clientId: number, input: UpdateClientBody, values: CustomValue[]) {
  if (input.client_groups) {
    await tx.clientGroupMember.deleteMany({ where: { clientId } });
    await tx.clientGroupMember.createMany({
      data: [...new Set(input.client_groups)].map((groupId) => ({ tenantId, clientId, groupId })),
    });
  }
  if (input.tags) {
    await tx.clientTag.deleteMany({ where: { clientId } });
    await tx.clientTag.createMany({ data: [...new Set(input.tags)].map((tagId) => ({ tenantId, clientId, tagId })) });
  }
  for (const { field, value } of values) {
    const key = { tenantId_clientId_fieldId: { tenantId, clientId, fieldId: field.id } };
    if (value === null) await tx.customFieldValue.deleteMany({ where: { clientId, fieldId: field.id } });
    else
      await tx.customFieldValue.upsert({
        where: key,
        create: { tenantId, clientId, fieldId: field.id, value: value as Prisma.InputJsonValue },
        update: { value: value as Prisma.InputJsonValue },
      });
  }
}

/** A client as its GET answers, read in the transaction that changed it: the data of its webhook events. */
async function clientEventData(caller: Caller, tx: Tx, id: number) {
  return serializeClient(await loadClient(eventReader(caller, tx), id));
}

/** Creates a client (and its first contact, when sent); answers its id. */
export async function createClient(caller: Caller, input: CreateClientBody): Promise<number> {
  const values = await checkInput(caller, input);
  const tenantId = caller.tenant.id;
  return withUniqueFields(UNIQUE_FIELDS, () =>
    caller.db.$transaction(async (tx) => {
      const data = { ...clientColumns(input), tenantId, name: input.name } as Prisma.ClientUncheckedCreateInput;
      const client = await tx.client.create({ data, select: { id: true, uuid: true, name: true } });
      await writeLinks(tx, tenantId, client.id, input, values);
      const audit = [clientCreated(client, input, values)];
      if (input.contact) {
        const { firstname, lastname, email, phone_number, title, include_for_client_requests } = input.contact;
        const contact = await tx.contact.create({
          data: { tenantId, firstname, lastname, preferredName: firstname, email, phoneNumber: phone_number ?? null },
          select: { id: true, uuid: true, firstname: true, lastname: true },
        });
        await tx.clientContact.create({
          data: {
            tenantId,
            clientId: client.id,
            contactId: contact.id,
            isPrimary: true,
            title: title ?? null,
            includeForClientRequests: include_for_client_requests ?? false,
          },
        });
        await recordEvent(tx, tenantId, "contact.created", async () =>
          serializeContact(await loadContact(eventReader(caller, tx), contact.id)),
        );
        audit.push(contactCreated(contact, input.contact));
      }
      await recordEvent(tx, tenantId, "client.created", () => clientEventData(caller, tx, client.id));
      await recordAudit(tx, caller, ...audit);
      return client.id;
    }),
  );
}

/** Updates a client the caller may see (the route has loaded it). */
export async function updateClient(caller: Caller, id: number, input: UpdateClientBody): Promise<void> {
  const values = await checkInput(caller, input, id);
  await withUniqueFields(UNIQUE_FIELDS, () =>
    caller.db.$transaction(async (tx) => {
      await recordAudit(tx, caller, await clientUpdated(tx, id, input, values));
      await tx.client.update({
        where: { tenantId_id: { tenantId: caller.tenant.id, id } },
        data: clientColumns(input),
      });
      await writeLinks(tx, caller.tenant.id, id, input, values);
      await recordEvent(tx, caller.tenant.id, "client.updated", () => clientEventData(caller, tx, id));
    }),
  );
}

/**
 * The spec's transition for accepting a proposal: a prospect becomes active (an active client stays as it is).
 * Proposals have no endpoint in v1; this is the operation that feature calls. Returns whether anything changed.
 */
export async function acceptProposal(db: TenantDb, clientId: number): Promise<boolean> {
  const { count } = await db.client.updateMany({
    where: { id: clientId, clientStatus: "prospect" },
    data: { clientStatus: "active" },
  });
  return count > 0;
}
