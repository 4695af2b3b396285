// The contacts endpoints, each declared once (lib/api/endpoint.ts): served by the route files under
// app/api/v1/contacts, described by the OpenAPI document, offered as tools by the MCP server.
import { BODY_ERRORS, endpoint, uuidParam } from "@/lib/api/endpoint";
import { jsonText, listResponse } from "@/lib/api/pagination";
import { byUuid } from "@/lib/api/records";
import { listAnswerSchema } from "@/lib/core/pagination";
import { createContact, updateContact } from "./mutations";
import { contactJson, contactJsonById, findVisibleContact, listContacts } from "./queries";
import { contactObject, createContactBody, listContactsQuery, updateContactBody } from "./schemas";

// The contact the path names, if the caller may have it: as wire JSON for a read, as its row for a write. (Declared
// apart: inside the declaration TypeScript would not infer the record's type through byUuid.)
const wireAtPath = byUuid("contact", contactJson);
const visibleAtPath = byUuid("contact", findVisibleContact);
const tag = "Contacts";

export const contactEndpoints = {
  list: endpoint({
    id: "listContacts",
    tool: "list_contacts",
    method: "get",
    path: "/contacts",
    resource: "contacts",
    tag,
    summary: "List contacts",
    query: listContactsQuery,
    response: {
      status: 200,
      schema: listAnswerSchema(contactObject, "Contact"),
      description: "A page of contacts; with cursor=, a cursor page",
    },
    errors: [422],
    handler: async ({ request, caller, query }) => listResponse(request, await listContacts(caller, query)),
  }),

  create: endpoint({
    id: "createContact",
    tool: "create_contact",
    method: "post",
    path: "/contacts",
    resource: "contacts",
    tag,
    summary: "Create a contact",
    permission: "contacts.create",
    body: createContactBody,
    response: { status: 201, schema: contactObject, description: "The created contact" },
    errors: [403, ...BODY_ERRORS],
    handler: async ({ caller, body }) =>
      jsonText(await contactJsonById(caller, await createContact(caller, body)), 201),
  }),

  get: endpoint({
    id: "getContact",
    tool: "get_contact",
    method: "get",
    path: "/contacts/{uuid}",
    resource: "contacts",
    tag,
    summary: "Get a contact",
    params: { uuid: uuidParam },
    load: wireAtPath,
    response: { status: 200, schema: contactObject, description: "The contact" },
    errors: [403, 404],
    handler: async ({ record }) => jsonText(record),
  }),

  update: endpoint({
    id: "updateContact",
    tool: "update_contact",
    method: "put",
    path: "/contacts/{uuid}",
    resource: "contacts",
    tag,
    summary: "Update a contact",
    description:
      "Only the fields sent change. With client_uuid, links the contact to that client (title sets the link's title).",
    params: { uuid: uuidParam },
    permission: "contacts.update",
    load: visibleAtPath,
    body: updateContactBody,
    response: { status: 200, schema: contactObject, description: "The updated contact" },
    errors: [403, 404, ...BODY_ERRORS],
    handler: async ({ caller, record, body }) => {
      await updateContact(caller, record.id, body);
      return jsonText(await contactJsonById(caller, record.id));
    },
  }),
};
