// The clients endpoints, each declared once (lib/api/endpoint.ts): served by the route files under app/api/v1/clients,
// described by the OpenAPI document, offered as tools by the MCP server.
import { BODY_ERRORS, endpoint, uuidParam } from "@/lib/api/endpoint";
import { jsonText, listResponse } from "@/lib/api/pagination";
import { byUuid } from "@/lib/api/records";
import { listAnswerSchema } from "@/lib/core/pagination";
import { createClient, updateClient } from "./mutations";
import { clientJson, clientJsonById, findVisibleClient, listClients, searchClients } from "./queries";
import {
  clientObject,
  clientSearchResults,
  createClientBody,
  listClientsQuery,
  searchClientsQuery,
  updateClientBody,
} from "./schemas";

// The client the path names, if the caller may have it: as wire JSON for a read, as its row for a write. (Declared
// apart: inside the declaration TypeScript would not infer the record's type through byUuid.)
const wireAtPath = byUuid("client", clientJson);
const visibleAtPath = byUuid("client", findVisibleClient);
const tag = "Clients";

export const clientEndpoints = {
  list: endpoint({
    id: "listClients",
    tool: "list_clients",
    method: "get",
    path: "/clients",
    resource: "clients",
    tag,
    summary: "List clients",
    description: "Archived clients are left out unless include_archived=true. Restricted users see only their clients.",
    query: listClientsQuery,
    response: {
      status: 200,
      schema: listAnswerSchema(clientObject, "Client"),
      description: "A page of clients; with cursor=, a cursor page",
    },
    errors: [422],
    handler: async ({ request, caller, query }) => listResponse(request, await listClients(caller, query)),
  }),

  create: endpoint({
    id: "createClient",
    tool: "create_client",
    method: "post",
    path: "/clients",
    resource: "clients",
    tag,
    summary: "Create a client",
    description: "With `contact`, also creates that contact and links it as the primary contact, in one transaction.",
    permission: "clients.create",
    body: createClientBody,
    response: { status: 201, schema: clientObject, description: "The created client" },
    errors: [403, ...BODY_ERRORS],
    handler: async ({ caller, body }) => jsonText(await clientJsonById(caller, await createClient(caller, body)), 201),
  }),

  search: endpoint({
    id: "searchClients",
    tool: "search_clients",
    method: "get",
    path: "/clients/search",
    resource: "clients",
    tag,
    summary: "Quick search of clients by name",
    description: "At most 10 results, names that start with q first; archived clients are left out.",
    // Type-ahead search is cheap to call and costly to answer: a lower limit than the API-wide one.
    rateLimit: "search",
    query: searchClientsQuery,
    response: { status: 200, schema: clientSearchResults, description: "Matching clients" },
    errors: [422],
    handler: async ({ caller, query }) => searchClients(caller, query),
  }),

  get: endpoint({
    id: "getClient",
    tool: "get_client",
    method: "get",
    path: "/clients/{uuid}",
    resource: "clients",
    tag,
    summary: "Get a client",
    params: { uuid: uuidParam },
    load: wireAtPath,
    response: { status: 200, schema: clientObject, description: "The client" },
    errors: [403, 404],
    handler: async ({ record }) => jsonText(record),
  }),

  update: endpoint({
    id: "updateClient",
    tool: "update_client",
    method: "put",
    path: "/clients/{uuid}",
    resource: "clients",
    tag,
    summary: "Update a client",
    description:
      "Only the fields sent change; null clears an optional field. `tags` and `client_groups` replace the sets.",
    params: { uuid: uuidParam },
    permission: "clients.update",
    load: visibleAtPath,
    body: updateClientBody,
    response: { status: 200, schema: clientObject, description: "The updated client" },
    errors: [403, 404, ...BODY_ERRORS],
    handler: async ({ caller, record, body }) => {
      await updateClient(caller, record.id, body);
      return jsonText(await clientJsonById(caller, record.id));
    },
  }),
};
