// The webhooks endpoints, each declared once (lib/api/endpoint.ts): served by the route files under
// app/api/v1/webhooks and described by the OpenAPI document. Owners and Admins (webhooks.manage) manage the firm's
// endpoints. They are no MCP tools: an assistant does not set where the firm's data is sent.
import { BODY_ERRORS, endpoint } from "@/lib/api/endpoint";
import { accepted, created, type PathParams } from "@/lib/api/route";
import type { Caller } from "@/lib/auth/caller";
import { uuidString } from "@/lib/core/references";
import { createWebhook, deleteWebhook, rotateSecret, sendTest, updateWebhook } from "./mutations";
import { findWebhook, listDeliveries, listWebhooks } from "./queries";
import {
  createWebhookBody,
  deliveryListObject,
  deliveryObject,
  listDeliveriesQuery,
  updateWebhookBody,
  webhookListObject,
  webhookObject,
  webhookWithSecretObject,
} from "./schemas";
import { serializeDelivery, serializeWebhook, serializeWebhookWithSecret } from "./serialize";

const params = { uuid: uuidString().describe("The webhook endpoint's uuid (either case)") };
const tag = "Webhooks";
const resource = "webhooks";
const permission = "webhooks.manage";
const load = (caller: Caller, { uuid }: PathParams) => findWebhook(caller, uuid);

export const webhookEndpoints = {
  list: endpoint({
    id: "listWebhooks",
    method: "get",
    path: "/webhooks",
    resource,
    tag,
    summary: "List webhook endpoints",
    description: "Needs the webhooks.manage permission (Owners and Admins). Secrets are never listed.",
    permission,
    response: { status: 200, schema: webhookListObject, description: "The firm's endpoints" },
    errors: [403],
    handler: async ({ caller }) => ({ data: (await listWebhooks(caller)).map(serializeWebhook) }),
  }),

  create: endpoint({
    id: "createWebhook",
    method: "post",
    path: "/webhooks",
    resource,
    tag,
    summary: "Create a webhook endpoint",
    description:
      "Answers the signing secret (whsec_…) once. Events are POSTed as {type, timestamp, data} (data: the record " +
      "as its GET answers), signed by the Standard Webhooks scheme (webhook-id, webhook-timestamp, " +
      "webhook-signature), retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h until a 2xx arrives within 15 s. " +
      "A 410 answer, or five days of failures, disables the endpoint. At most 20 endpoints per firm.",
    permission,
    body: createWebhookBody,
    subscribes: ({ requested }) => requested ?? [],
    response: { status: 201, schema: webhookWithSecretObject, description: "The endpoint, with its secret" },
    errors: [403, ...BODY_ERRORS],
    handler: async ({ caller, body }) => created(serializeWebhookWithSecret(await createWebhook(caller, body))),
  }),

  get: endpoint({
    id: "getWebhook",
    method: "get",
    path: "/webhooks/{uuid}",
    resource,
    tag,
    summary: "Get a webhook endpoint",
    params,
    permission,
    load,
    response: { status: 200, schema: webhookObject, description: "The endpoint (without its secret)" },
    errors: [403, 404],
    handler: async ({ record }) => serializeWebhook(record),
  }),

  update: endpoint({
    id: "updateWebhook",
    method: "put",
    path: "/webhooks/{uuid}",
    resource,
    tag,
    summary: "Update a webhook endpoint",
    description:
      "Only the fields sent change. enabled=false stops deliveries (pending ones are given up); enabled=true " +
      "re-enables an endpoint, also one disabled by a 410 or by five days of failures.",
    params,
    permission,
    load,
    body: updateWebhookBody,
    subscribes: ({ requested, record }) => requested ?? record.events,
    response: { status: 200, schema: webhookObject, description: "The updated endpoint" },
    errors: [403, 404, ...BODY_ERRORS],
    handler: async ({ caller, record, body }) => serializeWebhook(await updateWebhook(caller, record, body)),
  }),

  delete: endpoint({
    id: "deleteWebhook",
    method: "delete",
    path: "/webhooks/{uuid}",
    resource,
    tag,
    summary: "Delete a webhook endpoint",
    description: "Deletes the endpoint and its deliveries; nothing more is sent to it.",
    params,
    permission,
    load,
    response: { status: 204, description: "Deleted" },
    errors: [403, 404],
    handler: async ({ caller, record }) => {
      await deleteWebhook(caller, record);
      return new Response(null, { status: 204 });
    },
  }),

  rotateSecret: endpoint({
    id: "rotateWebhookSecret",
    method: "post",
    path: "/webhooks/{uuid}/rotate-secret",
    resource,
    tag,
    summary: "Rotate a webhook endpoint's secret",
    description:
      "Answers the new secret once. For 24 hours the old secret signs too: webhook-signature then carries both " +
      "signatures, separated by a space.",
    params,
    permission,
    load,
    subscribes: ({ record }) => record.events,
    response: { status: 200, schema: webhookWithSecretObject, description: "The endpoint, with its new secret" },
    errors: [403, 404],
    handler: async ({ caller, record }) => serializeWebhookWithSecret(await rotateSecret(caller, record)),
  }),

  sendTest: endpoint({
    id: "sendWebhookTest",
    method: "post",
    path: "/webhooks/{uuid}/test",
    resource,
    tag,
    summary: "Send a test event",
    description:
      "Records a webhook.test event for the endpoint, whatever it subscribes to, and answers its delivery at once, " +
      "before the first attempt (status pending, no attempts yet): the attempt follows within moments and shows " +
      "in GET /webhooks/{uuid}/deliveries under the same uuid. A failed test is retried like any delivery.",
    params,
    permission,
    load,
    subscribes: ({ record }) => record.events,
    response: {
      status: 202,
      schema: deliveryObject,
      description: "The test delivery, recorded and not yet attempted",
    },
    errors: [403, 404],
    handler: async ({ caller, record }) => accepted(serializeDelivery(await sendTest(caller, record))),
  }),

  deliveries: endpoint({
    id: "listWebhookDeliveries",
    method: "get",
    path: "/webhooks/{uuid}/deliveries",
    resource,
    tag,
    summary: "List an endpoint's recent deliveries",
    description:
      "Newest first, each with its attempts (attempt_history, newest first: time, status or error, duration). " +
      "Deliveries are kept 30 days.",
    params,
    permission,
    load,
    query: listDeliveriesQuery,
    response: { status: 200, schema: deliveryListObject, description: "The most recent deliveries" },
    errors: [403, 404, 422],
    handler: async ({ caller, record, query }) => ({
      data: (await listDeliveries(caller, record.id, query)).map(serializeDelivery),
    }),
  }),
};
