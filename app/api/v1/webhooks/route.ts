import { apiRoute, created, endpoint } from "@/lib/api/route";
import { createWebhook } from "@/lib/webhooks/mutations";
import { listWebhooks } from "@/lib/webhooks/queries";
import { createWebhookBody } from "@/lib/webhooks/schemas";
import { serializeWebhook, serializeWebhookWithSecret } from "@/lib/webhooks/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("webhooks", {
  GET: endpoint({
    permission: "webhooks.manage",
    handler: async ({ caller }) => ({ data: (await listWebhooks(caller)).map(serializeWebhook) }),
  }),
  POST: endpoint({
    permission: "webhooks.manage",
    body: createWebhookBody,
    subscribes: ({ requested }) => requested ?? [],
    handler: async ({ caller, body }) => created(serializeWebhookWithSecret(await createWebhook(caller, body))),
  }),
});
