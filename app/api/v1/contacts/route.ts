import { listEnvelope } from "@/lib/api/pagination";
import { apiRoute, created, endpoint } from "@/lib/api/route";
import { createContact } from "@/lib/contacts/mutations";
import { listContacts } from "@/lib/contacts/queries";
import { createContactBody, listContactsQuery } from "@/lib/contacts/schemas";
import { serializeContact } from "@/lib/contacts/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("contacts", {
  GET: endpoint({
    query: listContactsQuery,
    handler: async ({ request, caller, query }) =>
      listEnvelope(request, await listContacts(caller, query), serializeContact),
  }),
  POST: endpoint({
    permission: "contacts.create",
    body: createContactBody,
    handler: async ({ caller, body }) => created(serializeContact(await createContact(caller, body))),
  }),
});
