// Input and output shapes of /api/v1/webhooks: the single source for validation and the OpenAPI document.
import { z } from "zod";
import { component, requestBody } from "@/lib/core/openapi-registry";
import { queryInt, text } from "@/lib/core/validation";
import { urlProblem } from "./address";
import { EVENT_TYPES, TEST_EVENT } from "./events";

const url = text(2000)
  .min(1)
  .superRefine((value, ctx) => {
    const problem = urlProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .describe(
    "Where events are POSTed: https on a public address (no private, loopback or link-local address, checked again " +
      "on the resolved address at every delivery), unless the server runs with WEBHOOKS_ALLOW_PRIVATE=true",
  );

const events = z
  .array(z.enum(EVENT_TYPES))
  .min(1)
  .max(EVENT_TYPES.length)
  .transform((list) => [...new Set(list)])
  .describe("The event types to send");

export const createWebhookBody = requestBody(
  z.object({
    url,
    events,
    description: text(500).optional().describe("What the endpoint is for"),
  }),
  "WebhookCreate",
  {
    url: "https://hooks.firm.example/cjt",
    events: ["client.created", "client.updated", "job.completed"],
    description: "Invoicing sync",
  },
);

export const updateWebhookBody = requestBody(
  z.object({
    url: url.optional(),
    events: events.optional(),
    description: text(500).optional(),
    enabled: z
      .boolean()
      .optional()
      .describe(
        "false disables the endpoint (nothing is sent to it); true enables it again and clears disabled_reason",
      ),
  }),
  "WebhookUpdate",
  { events: ["job.created", "job.updated", "job.completed"], enabled: true },
);

export type CreateWebhookBody = z.output<typeof createWebhookBody>;
export type UpdateWebhookBody = z.output<typeof updateWebhookBody>;

export const listDeliveriesQuery = z.object({
  limit: queryInt(z.number().int().min(1).max(100))
    .default(50)
    .describe("How many of the most recent deliveries, 1 to 100 (default 50)"),
});
export type ListDeliveriesQuery = z.output<typeof listDeliveriesQuery>;

const timestamp = () => z.iso.datetime().describe("ISO 8601 UTC");

/** An endpoint as the API answers it: never its secret, except right after create or rotate. */
export const webhookObject = component(
  z.object({
    uuid: z.uuid(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.enum(EVENT_TYPES)),
    enabled: z.boolean(),
    disabled_reason: z
      .enum(["manual", "gone", "failing"])
      .nullable()
      .describe(
        "manual: disabled through the API or page; gone: the receiver answered 410; failing: five days of failures",
      ),
    failing_since: timestamp().nullable().describe("The first failure since the last success"),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
  "Webhook",
);

export const webhookWithSecretObject = component(
  webhookObject.extend({
    secret: z
      .string()
      .describe("whsec_ + base64 of the signing key. Shown only now: keep it to verify the webhook-signature header"),
  }),
  "WebhookWithSecret",
);

const webhookExample = {
  uuid: "7e2b9c41-5a3d-4f86-b1e0-9c4d2a6f8b13",
  url: "https://hooks.firm.example/cjt",
  description: "Invoicing sync",
  events: ["client.created", "client.updated", "job.completed"],
  enabled: true,
  disabled_reason: null,
  failing_since: null,
  created_at: "2026-11-20T09:00:00.000Z",
  updated_at: "2026-11-20T09:00:00.000Z",
};

export const webhookListObject = component(z.object({ data: z.array(webhookObject) }), "WebhookList", {
  data: [webhookExample],
});

export const deliveryObject = component(
  z.object({
    uuid: z.uuid(),
    event_id: z.string().describe("The webhook-id header: the same on every attempt"),
    event_type: z.enum([...EVENT_TYPES, TEST_EVENT]),
    status: z.enum(["pending", "succeeded", "failed"]).describe("pending: another attempt is due; failed: given up"),
    attempts: z.number().int().describe("Attempts made so far"),
    response_status: z.number().int().nullable().describe("The HTTP status of the last attempt's answer"),
    response_body: z.string().nullable().describe("At most 1 KB of the last answer's body"),
    duration_ms: z.number().int().nullable().describe("How long the last attempt took"),
    error: z.string().nullable().describe("Why the last attempt failed without an answer (timeout, refused target…)"),
    last_attempt_at: timestamp().nullable(),
    attempt_history: z
      .array(
        z.object({
          attempted_at: timestamp(),
          response_status: z
            .number()
            .int()
            .nullable()
            .describe("The receiver's HTTP status; null when it did not answer"),
          error: z
            .string()
            .nullable()
            .describe("Why there was no answer (timeout, refused target, connection failure)"),
          duration_ms: z.number().int().describe("How long the attempt took"),
        }),
      )
      .describe("Every attempt so far, newest first: why the delivery was retried"),
    next_attempt_at: timestamp().nullable().describe("When the next attempt is due; null when none is"),
    created_at: timestamp(),
  }),
  "WebhookDelivery",
);

export const deliveryListObject = component(z.object({ data: z.array(deliveryObject) }), "WebhookDeliveryList", {
  data: [
    {
      uuid: "2f8d6b1e-9c3a-4e57-a0b4-6d1c8e3f7a92",
      event_id: "msg_2f8d6b1e9c3a4e57a0b46d1c8e3f7a92",
      event_type: "job.completed",
      status: "succeeded",
      attempts: 3,
      response_status: 204,
      response_body: "",
      duration_ms: 183,
      error: null,
      last_attempt_at: "2026-11-21T14:07:11.407Z",
      attempt_history: [
        { attempted_at: "2026-11-21T14:07:11.407Z", response_status: 204, error: null, duration_ms: 183 },
        { attempted_at: "2026-11-21T14:02:16.511Z", response_status: 500, error: null, duration_ms: 95 },
        {
          attempted_at: "2026-11-21T14:02:11.224Z",
          response_status: null,
          error: "No complete answer within 15 s.",
          duration_ms: 15000,
        },
      ],
      next_attempt_at: null,
      created_at: "2026-11-21T14:02:11.210Z",
    },
  ],
});
