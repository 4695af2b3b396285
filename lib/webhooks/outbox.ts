// The outbox: a mutation records its event in its own transaction, with one delivery per enabled endpoint of the
// firm subscribed to the event's type. So a change is never without its event (the event commits with it) and an
// event never without its change (it rolls back with it). The dispatcher (dispatch.ts) sends what is due.
import { randomUUID } from "node:crypto";
import type { Caller } from "@/lib/auth/caller";
import { defer } from "@/lib/core/deferred";
import { logError } from "@/lib/core/log";
import type { TenantDb } from "@/lib/db/tenant";
import { type TokenAccess, tokenAccessSchema } from "@/lib/tokens/access";
import { deliverDue } from "./dispatch";
import type { EventType } from "./events";
import { recordForAccess } from "./serialize";

/** A tenant-scoped interactive transaction (what `caller.db.$transaction(async (tx) => …)` hands over). */
export type Tx = Parameters<Parameters<TenantDb["$transaction"]>[0]>[0];

/**
 * The caller as an event's reader: reads through the transaction (so they see its uncommitted writes) and see the
 * whole record, as an Owner's GET answers it, whoever made the change. The payload goes to the firm's integrations,
 * not back to the caller.
 */
export function eventReader(caller: Caller, tx: Tx): Caller {
  return {
    ...caller,
    db: tx as unknown as TenantDb,
    roleName: "Owner",
    user: { ...caller.user, isOwner: true, clientAccess: "all" },
  };
}

/** `webhook-id`: the same on every attempt of the event, to every endpoint. */
export const newMessageId = () => `msg_${randomUUID().replaceAll("-", "")}`;

/**
 * Writes an event of `type` in the transaction, if an enabled endpoint of the tenant subscribes to it; `data` builds
 * the record (as its GET answers) only then. Each endpoint gets it as a GET with the access it was set up with
 * answers (one event per distinct access). Returns whether anything was written. Only then is a delivery pass
 * asked for, to run once the API's answer is sent (lib/core/deferred.ts): a firm without endpoints costs no pass.
 */
export async function recordEvent(
  tx: Tx,
  tenantId: number,
  type: EventType,
  data: () => Promise<unknown>,
  now = new Date(),
): Promise<boolean> {
  // FOR SHARE: an endpoint deleted meanwhile waits for this transaction or is skipped, never a delivery to a row gone.
  const endpoints = await tx.$queryRaw<{ id: number; access: unknown }[]>`
    SELECT id, access FROM webhook_endpoints
    WHERE tenant_id = ${tenantId} AND enabled AND ${type} = ANY(events) FOR SHARE`;
  if (!endpoints.length) return false;
  const record = await data();
  const byAccess = new Map<string, { access: TokenAccess; ids: number[] }>();
  for (const endpoint of endpoints) {
    const access = tokenAccessSchema.parse(endpoint.access);
    const key = JSON.stringify(access);
    const group = byAccess.get(key) ?? byAccess.set(key, { access, ids: [] }).get(key)!;
    group.ids.push(endpoint.id);
  }
  for (const { access, ids } of byAccess.values()) {
    const body = JSON.stringify({ type, timestamp: now.toISOString(), data: recordForAccess(type, record, access) });
    const event = await tx.webhookEvent.create({
      data: { tenantId, msgId: newMessageId(), type, body },
      select: { id: true },
    });
    await tx.webhookDelivery.createMany({
      data: ids.map((endpointId) => ({ tenantId, endpointId, eventId: event.id })),
    });
  }
  defer(`webhooks:${tenantId}`, async () => {
    await deliverDue({ tenantId }).catch((error) => logError("Webhook delivery failed", error));
  });
  return true;
}
