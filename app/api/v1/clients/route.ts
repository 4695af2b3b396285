import { listEnvelope } from "@/lib/api/pagination";
import { apiRoute, created, endpoint } from "@/lib/api/route";
import { createClient } from "@/lib/clients/mutations";
import { listClients } from "@/lib/clients/queries";
import { createClientBody, listClientsQuery } from "@/lib/clients/schemas";
import { serializeClient } from "@/lib/clients/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("clients", {
  GET: endpoint({
    query: listClientsQuery,
    handler: async ({ request, caller, query }) =>
      listEnvelope(request, await listClients(caller, query), serializeClient),
  }),
  POST: endpoint({
    permission: "clients.create",
    body: createClientBody,
    handler: async ({ caller, body }) => created(serializeClient(await createClient(caller, body))),
  }),
});
