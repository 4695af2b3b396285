// Creating and updating contacts, each request in one transaction.

import { recordAudit } from "@/lib/audit/mutations";
import type { Caller } from "@/lib/auth/caller";
import { visibleClients } from "@/lib/auth/visibility";
import { type FieldErrors, validationFailed } from "@/lib/core/errors";
import { withoutUndefined } from "@/lib/core/validation";
import { withUniqueFields } from "@/lib/db/unique";
import type { Prisma } from "@/lib/generated/prisma/client";
import { eventReader, recordEvent, type Tx } from "@/lib/webhooks/outbox";
import { contactCreated, contactUpdated } from "./audit";
import { loadContact } from "./queries";
import type { CreateContactBody, UpdateContactBody } from "./schemas";
import { serializeContact } from "./serialize";

const EMAIL_TAKEN = "A contact with this email already exists.";
const UNIQUE_FIELDS = { contacts_tenant_id_email_key: ["email", EMAIL_TAKEN] } as const;

/** The client to link, which must be one the caller can see; and whether the email is free. One 422 for both. */
async function checkInput(caller: Caller, input: UpdateContactBody, contactId?: number) {
  const errors: FieldErrors = {};
  const visible = visibleClients(caller);
  const [client, emailTaken] = await Promise.all([
    input.client_uuid
      ? caller.db.client.findFirst({
          where: { AND: [{ uuid: input.client_uuid }, visible ?? {}] },
          select: { id: true },
        })
      : null,
    input.email
      ? caller.db.contact.count({ where: { email: input.email, ...(contactId ? { NOT: { id: contactId } } : {}) } })
      : 0,
  ]);
  if (input.client_uuid && !client) errors.client_uuid = ["There is no client with this uuid that you can see."];
  if (emailTaken) errors.email = [EMAIL_TAKEN];
  if (Object.keys(errors).length) throw validationFailed(errors);
  return client;
}

function contactColumns(input: UpdateContactBody): Prisma.ContactUncheckedUpdateInput {
  return withoutUndefined<Prisma.ContactUncheckedUpdateInput>({
    firstname: input.firstname,
    lastname: input.lastname,
    preferredName: input.preferred_name,
    email: input.email,
    phoneNumber: input.phone_number,
    portalEnabled: input.portal_enabled,
  });
}

/** A contact as its GET answers, read in the transaction that changed it: the data of its webhook events. */
async function contactEventData(caller: Caller, tx: Tx, id: number) {
  return serializeContact(await loadContact(eventReader(caller, tx), id));
}

/** Creates a contact (linked to a client when one is named); answers its id. */
export async function createContact(caller: Caller, input: CreateContactBody): Promise<number> {
  const client = await checkInput(caller, input);
  const tenantId = caller.tenant.id;
  return withUniqueFields(UNIQUE_FIELDS, () =>
    caller.db.$transaction(async (tx) => {
      const data = {
        ...contactColumns(input),
        tenantId,
        preferredName: input.preferred_name ?? input.firstname,
      } as Prisma.ContactUncheckedCreateInput;
      const contact = await tx.contact.create({
        data,
        select: { id: true, uuid: true, firstname: true, lastname: true },
      });
      if (client)
        await tx.clientContact.create({
          data: { tenantId, clientId: client.id, contactId: contact.id, title: input.title ?? null },
        });
      await recordEvent(tx, tenantId, "contact.created", () => contactEventData(caller, tx, contact.id));
      await recordAudit(tx, caller, contactCreated(contact, input));
      return contact.id;
    }),
  );
}

/** Updates a contact the caller may see (the route has loaded it). */
export async function updateContact(caller: Caller, id: number, input: UpdateContactBody): Promise<void> {
  const client = await checkInput(caller, input, id);
  const tenantId = caller.tenant.id;
  await withUniqueFields(UNIQUE_FIELDS, () =>
    caller.db.$transaction(async (tx) => {
      await recordAudit(tx, caller, await contactUpdated(tx, id, input, client));
      await tx.contact.update({ where: { tenantId_id: { tenantId, id } }, data: contactColumns(input) });
      if (client) {
        // Linking again to the same client updates the title of that link.
        const link = { tenantId_clientId_contactId: { tenantId, clientId: client.id, contactId: id } };
        const title = input.title === undefined ? {} : { title: input.title };
        await tx.clientContact.upsert({
          where: link,
          create: { tenantId, clientId: client.id, contactId: id, ...title },
          update: title,
        });
      }
      await recordEvent(tx, tenantId, "contact.updated", () => contactEventData(caller, tx, id));
    }),
  );
}
