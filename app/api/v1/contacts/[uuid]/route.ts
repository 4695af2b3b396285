import { byUuid } from "@/lib/api/records";
import { apiRoute, endpoint } from "@/lib/api/route";
import { updateContact } from "@/lib/contacts/mutations";
import { findVisibleContact, loadContact } from "@/lib/contacts/queries";
import { updateContactBody } from "@/lib/contacts/schemas";
import { serializeContact } from "@/lib/contacts/serialize";

const load = byUuid("contact", findVisibleContact);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("contacts", {
  GET: endpoint({
    load,
    handler: async ({ caller, record }) => serializeContact(await loadContact(caller, record.id)),
  }),
  PUT: endpoint({
    permission: "contacts.update",
    load,
    body: updateContactBody,
    handler: async ({ caller, record, body }) => serializeContact(await updateContact(caller, record.id, body)),
  }),
});
