import { accepted, apiRoute, endpoint } from "@/lib/api/route";
import { sendTest } from "@/lib/webhooks/mutations";
import { findWebhook } from "@/lib/webhooks/queries";
import { serializeDelivery } from "@/lib/webhooks/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("webhooks", {
  POST: endpoint({
    permission: "webhooks.manage",
    load: (caller, params) => findWebhook(caller, params.uuid),
    subscribes: ({ record }) => record.events,
    handler: async ({ caller, record }) => accepted(serializeDelivery(await sendTest(caller, record))),
  }),
});
