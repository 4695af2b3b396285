// Wire shapes of webhook endpoints and deliveries.
import type { z } from "zod";
import { clientObject } from "@/lib/clients/schemas";
import { contactObject } from "@/lib/contacts/schemas";
import { type NestedRecord, nestedRecordOf } from "@/lib/core/references";
import type { Prisma, WebhookDelivery, WebhookDeliveryAttempt, WebhookEndpoint } from "@/lib/generated/prisma/client";
import { jobObject } from "@/lib/jobs/schemas";
import { readsNested, type TokenAccess, type TokenResource } from "@/lib/tokens/access";
import type { EventType } from "./events";
import type { deliveryObject, webhookObject, webhookWithSecretObject } from "./schemas";

type Reason = "manual" | "gone" | "failing";

export function serializeWebhook(endpoint: WebhookEndpoint): z.output<typeof webhookObject> {
  return {
    uuid: endpoint.uuid,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events as EventType[],
    enabled: endpoint.enabled,
    disabled_reason: endpoint.enabled ? null : ((endpoint.disabledReason as Reason | null) ?? "manual"),
    failing_since: endpoint.failingSince?.toISOString() ?? null,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

/** Only the answers of create and rotate carry the secret. */
export function serializeWebhookWithSecret(endpoint: WebhookEndpoint): z.output<typeof webhookWithSecretObject> {
  return { ...serializeWebhook(endpoint), secret: endpoint.secret };
}

/** What a delivery is read with: its event's id and type, and its attempts, newest first. */
export const DELIVERY_INCLUDE = {
  event: { select: { msgId: true, type: true } },
  attemptHistory: { orderBy: [{ attemptedAt: "desc" }, { id: "desc" }] },
} satisfies Prisma.WebhookDeliveryInclude;

export type DeliveryRow = WebhookDelivery & {
  event: { msgId: string; type: string };
  attemptHistory: WebhookDeliveryAttempt[];
};

export function serializeDelivery(delivery: DeliveryRow): z.output<typeof deliveryObject> {
  return {
    uuid: delivery.uuid,
    event_id: delivery.event.msgId,
    event_type: delivery.event.type as z.output<typeof deliveryObject>["event_type"],
    status: delivery.status as "pending" | "succeeded" | "failed",
    attempts: delivery.attempts,
    response_status: delivery.responseStatus,
    response_body: delivery.responseBody,
    duration_ms: delivery.durationMs,
    error: delivery.error,
    last_attempt_at: delivery.lastAttemptAt?.toISOString() ?? null,
    attempt_history: delivery.attemptHistory.map((attempt) => ({
      attempted_at: attempt.attemptedAt.toISOString(),
      response_status: attempt.responseStatus,
      error: attempt.error,
      duration_ms: attempt.durationMs,
    })),
    next_attempt_at: delivery.status === "pending" ? (delivery.nextAttemptAt?.toISOString() ?? null) : null,
    created_at: delivery.createdAt.toISOString(),
  };
}

/** The record of each event's type as the document describes it: its nested records are the fields orIdentifier made. */
const RECORDS: Record<string, z.ZodObject> = { client: clientObject, contact: contactObject, job: jobObject };

/**
 * An event's record as a GET with the endpoint's access answers it (decisions.md): nested records of a resource that
 * access cannot read reduced to their identifier, as the record's schema says (the SQL wire builders follow the same
 * schemas; tests/api/wire-style.test.ts holds a payload to the GET's bytes). `record` is the whole record, as an
 * Owner reads it.
 */
export function recordForAccess(type: EventType, record: unknown, access: TokenAccess): unknown {
  const reduced = { ...(record as Record<string, unknown>) };
  const only = (key: NestedRecord["key"], value: unknown) =>
    value && typeof value === "object" ? { [key]: (value as Record<string, unknown>)[key] } : value;
  for (const [field, schema] of Object.entries(RECORDS[type.split(".")[0]]?.shape ?? {})) {
    const nested = nestedRecordOf(schema as z.ZodType);
    if (!nested || readsNested(access, nested.resource as TokenResource) || !(field in reduced)) continue;
    const value = reduced[field];
    reduced[field] = Array.isArray(value) ? value.map((item) => only(nested.key, item)) : only(nested.key, value);
  }
  return reduced;
}
