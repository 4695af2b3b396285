import { apiRoute, endpoint } from "@/lib/api/route";
import { findWebhook, listDeliveries } from "@/lib/webhooks/queries";
import { listDeliveriesQuery } from "@/lib/webhooks/schemas";
import { serializeDelivery } from "@/lib/webhooks/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("webhooks", {
  GET: endpoint({
    permission: "webhooks.manage",
    load: (caller, params) => findWebhook(caller, params.uuid),
    query: listDeliveriesQuery,
    handler: async ({ caller, record, query }) => ({
      data: (await listDeliveries(caller, record.id, query)).map(serializeDelivery),
    }),
  }),
});
