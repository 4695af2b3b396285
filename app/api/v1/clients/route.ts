import { jsonText, listResponse } from "@/lib/api/pagination";
import { apiRoute, endpoint } from "@/lib/api/route";
import { createClient } from "@/lib/clients/mutations";
import { clientJsonById, listClients } from "@/lib/clients/queries";
import { createClientBody, listClientsQuery } from "@/lib/clients/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("clients", {
  GET: endpoint({
    query: listClientsQuery,
    handler: async ({ request, caller, query }) => listResponse(request, await listClients(caller, query)),
  }),
  POST: endpoint({
    permission: "clients.create",
    body: createClientBody,
    handler: async ({ caller, body }) => jsonText(await clientJsonById(caller, await createClient(caller, body)), 201),
  }),
});
