import { jsonText } from "@/lib/api/pagination";
import { byUuid } from "@/lib/api/records";
import { apiRoute, endpoint } from "@/lib/api/route";
import { updateClient } from "@/lib/clients/mutations";
import { clientJson, clientJsonById, findVisibleClient } from "@/lib/clients/queries";
import { updateClientBody } from "@/lib/clients/schemas";

const load = byUuid("client", findVisibleClient);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("clients", {
  GET: endpoint({
    load: byUuid("client", clientJson),
    handler: async ({ record }) => jsonText(record),
  }),
  PUT: endpoint({
    permission: "clients.update",
    load,
    body: updateClientBody,
    handler: async ({ caller, record, body }) => {
      await updateClient(caller, record.id, body);
      return jsonText(await clientJsonById(caller, record.id));
    },
  }),
});
