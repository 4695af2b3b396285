import { apiRoute, endpoint } from "@/lib/api/route";
import { rotateSecret } from "@/lib/webhooks/mutations";
import { findWebhook } from "@/lib/webhooks/queries";
import { serializeWebhookWithSecret } from "@/lib/webhooks/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("webhooks", {
  POST: endpoint({
    permission: "webhooks.manage",
    load: (caller, params) => findWebhook(caller, params.uuid),
    subscribes: ({ record }) => record.events,
    handler: async ({ caller, record }) => serializeWebhookWithSecret(await rotateSecret(caller, record)),
  }),
});
