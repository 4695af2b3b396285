// Managing a firm's webhook endpoints (permission webhooks.manage, checked by the route). Secrets are made here and
// answered only by create and rotate.

import { type Acting, recordAudit } from "@/lib/audit/mutations";
import { defer } from "@/lib/core/deferred";
import { notFound, validationFailed } from "@/lib/core/errors";
import type { TenantDb, TenantScope } from "@/lib/db/tenant";
import type { WebhookEndpoint } from "@/lib/generated/prisma/client";
import { FULL_ACCESS, type TokenAccess } from "@/lib/tokens/access";
import { webhookAction, webhookCreated, webhookUpdated } from "./audit";
import { deliverDue } from "./dispatch";
import { MAX_ENDPOINTS, TEST_EVENT } from "./events";
import { newMessageId } from "./outbox";
import type { CreateWebhookBody, UpdateWebhookBody } from "./schemas";
import { DELIVERY_INCLUDE } from "./serialize";
import { newSecret } from "./signing";

/**
 * A write to an endpoint that was deleted after the route loaded it (a concurrent DELETE): a 404, as if the request
 * had come a moment later, rather than Prisma's "record not found" (P2025) or a foreign-key failure (P2003).
 */
function goneMeanwhile(error: unknown): never {
  const code = (error as { code?: unknown })?.code;
  if (code === "P2025" || code === "P2003") throw notFound("Webhook");
  throw error;
}

/** After a rotation the old secret keeps signing (a second signature) for this long. */
export const PREVIOUS_SECRET_MS = 24 * 3600 * 1000;

/** The caller's tenant-scoped database and who acts (an API caller, or the settings page's signed-in person). */
type Db = TenantScope & Acting;

/**
 * The access an endpoint keeps from whoever sets it up (decisions.md): a token's own, or the role's for the settings
 * page (full: the page is only for roles with webhooks.manage, and payloads are read as an Owner reads).
 */
const accessOf = (caller: Db): TokenAccess => ("tokenAccess" in caller ? caller.tokenAccess : FULL_ACCESS);

export async function createWebhook(caller: Db, input: CreateWebhookBody): Promise<WebhookEndpoint> {
  const tenantId = caller.tenant.id;
  return caller.db.$transaction(async (tx) => {
    // Serializes creates of one firm, so that two at once cannot both pass the count.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${tenantId}::int, 1801)`;
    if ((await tx.webhookEndpoint.count({ where: { tenantId } })) >= MAX_ENDPOINTS)
      throw validationFailed({ url: [`A firm can have at most ${MAX_ENDPOINTS} webhook endpoints.`] });
    const endpoint = await tx.webhookEndpoint.create({
      data: {
        tenantId,
        url: input.url,
        events: input.events,
        description: input.description ?? "",
        secret: newSecret(),
        access: accessOf(caller),
      },
    });
    await recordAudit(tx, caller, webhookCreated(endpoint, input));
    return endpoint;
  });
}

/** Fails the endpoint's pending deliveries: nothing more is sent to a disabled endpoint. */
function abandonPending(db: TenantDb, endpointId: number, error: string) {
  return db.webhookDelivery.updateMany({
    where: { endpointId, status: "pending" },
    data: { status: "failed", nextAttemptAt: null, error },
  });
}

export async function updateWebhook(
  caller: Db,
  endpoint: WebhookEndpoint,
  input: UpdateWebhookBody,
): Promise<WebhookEndpoint> {
  const enabling = input.enabled === true && !endpoint.enabled;
  const disabling = input.enabled === false && endpoint.enabled;
  const [updated] = await caller.db
    .$transaction([
      caller.db.webhookEndpoint.update({
        where: { tenantId_id: { tenantId: caller.tenant.id, id: endpoint.id } },
        data: {
          url: input.url,
          events: input.events,
          description: input.description,
          enabled: input.enabled,
          access: accessOf(caller),
          ...(enabling ? { disabledReason: null, failingSince: null } : {}),
          ...(disabling ? { disabledReason: "manual" } : {}),
        },
      }),
      recordAudit(caller.db, caller, webhookUpdated(endpoint, input)),
      ...(disabling ? [abandonPending(caller.db, endpoint.id, "The endpoint was disabled.")] : []),
    ])
    .catch(goneMeanwhile);
  return updated;
}

export async function deleteWebhook(caller: Db, endpoint: WebhookEndpoint): Promise<void> {
  await caller.db
    .$transaction([
      recordAudit(caller.db, caller, webhookAction("webhook.deleted", endpoint)),
      caller.db.webhookEndpoint.delete({ where: { tenantId_id: { tenantId: caller.tenant.id, id: endpoint.id } } }),
    ])
    .catch(goneMeanwhile);
}

/** A new secret; the old one keeps signing for 24 hours, so receivers can switch without losing events. */
export async function rotateSecret(caller: Db, endpoint: WebhookEndpoint, now = new Date()): Promise<WebhookEndpoint> {
  const [rotated] = await caller.db
    .$transaction([
      caller.db.webhookEndpoint.update({
        where: { tenantId_id: { tenantId: caller.tenant.id, id: endpoint.id } },
        data: {
          secret: newSecret(),
          previousSecret: endpoint.secret,
          previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_MS),
        },
      }),
      recordAudit(caller.db, caller, webhookAction("webhook.secret_rotated", endpoint)),
    ])
    .catch(goneMeanwhile);
  return rotated;
}

/**
 * Records a `webhook.test` event for the endpoint (enabled or not, whatever it subscribes to) and answers its delivery
 * as recorded, before any attempt: the attempt runs once the answer is sent (lib/core/deferred.ts; the webhook timer
 * or cron route otherwise), so no request waits on the receiver (decisions.md, Capacity). It is delivered, retried and
 * listed like any other delivery.
 */
export async function sendTest(caller: Db, endpoint: WebhookEndpoint, now = new Date()) {
  const tenantId = caller.tenant.id;
  const body = JSON.stringify({
    type: TEST_EVENT,
    timestamp: now.toISOString(),
    data: { webhook_uuid: endpoint.uuid, message: "A test event: your endpoint receives and verifies webhooks." },
  });
  const recorded = await caller.db
    .$transaction(async (tx) => {
      const event = await tx.webhookEvent.create({
        data: { tenantId, msgId: newMessageId(), type: TEST_EVENT, body },
        select: { id: true },
      });
      await recordAudit(tx, caller, webhookAction("webhook.tested", endpoint));
      return tx.webhookDelivery.create({
        data: { tenantId, endpointId: endpoint.id, eventId: event.id },
        include: DELIVERY_INCLUDE,
      });
    })
    .catch(goneMeanwhile);
  defer(`webhook-test:${recorded.id}`, async () => {
    await deliverDue({ tenantId, deliveryId: recorded.id });
  });
  return recorded;
}
