import { jsonText, listResponse } from "@/lib/api/pagination";
import { apiRoute, endpoint } from "@/lib/api/route";
import { createContact } from "@/lib/contacts/mutations";
import { contactJsonById, listContacts } from "@/lib/contacts/queries";
import { createContactBody, listContactsQuery } from "@/lib/contacts/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("contacts", {
  GET: endpoint({
    query: listContactsQuery,
    handler: async ({ request, caller, query }) => listResponse(request, await listContacts(caller, query)),
  }),
  POST: endpoint({
    permission: "contacts.create",
    body: createContactBody,
    handler: async ({ caller, body }) =>
      jsonText(await contactJsonById(caller, await createContact(caller, body)), 201),
  }),
});
