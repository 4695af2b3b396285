import { apiRoute, endpoint } from "@/lib/api/route";
import { deleteWebhook, updateWebhook } from "@/lib/webhooks/mutations";
import { findWebhook } from "@/lib/webhooks/queries";
import { updateWebhookBody } from "@/lib/webhooks/schemas";
import { serializeWebhook } from "@/lib/webhooks/serialize";

const load = (caller: Parameters<typeof findWebhook>[0], params: Record<string, unknown>) =>
  findWebhook(caller, params.uuid);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("webhooks", {
  GET: endpoint({ permission: "webhooks.manage", load, handler: async ({ record }) => serializeWebhook(record) }),
  PUT: endpoint({
    permission: "webhooks.manage",
    load,
    body: updateWebhookBody,
    subscribes: ({ requested, record }) => requested ?? record.events,
    handler: async ({ caller, record, body }) => serializeWebhook(await updateWebhook(caller, record, body)),
  }),
  DELETE: endpoint({
    permission: "webhooks.manage",
    load,
    handler: async ({ caller, record }) => {
      await deleteWebhook(caller, record);
      return new Response(null, { status: 204 });
    },
  }),
});
