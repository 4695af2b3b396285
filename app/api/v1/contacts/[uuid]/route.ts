import { jsonText } from "@/lib/api/pagination";
import { byUuid } from "@/lib/api/records";
import { apiRoute, endpoint } from "@/lib/api/route";
import { updateContact } from "@/lib/contacts/mutations";
import { contactJson, contactJsonById, findVisibleContact } from "@/lib/contacts/queries";
import { updateContactBody } from "@/lib/contacts/schemas";

const load = byUuid("contact", findVisibleContact);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("contacts", {
  GET: endpoint({
    load: byUuid("contact", contactJson),
    handler: async ({ record }) => jsonText(record),
  }),
  PUT: endpoint({
    permission: "contacts.update",
    load,
    body: updateContactBody,
    handler: async ({ caller, record, body }) => {
      await updateContact(caller, record.id, body);
      return jsonText(await contactJsonById(caller, record.id));
    },
  }),
});
