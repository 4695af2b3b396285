// Works off due deliveries: claims them (FOR UPDATE SKIP LOCKED, so several instances never take one attempt at
// once), sends each signed, and records the outcome: success, or the next attempt on the retry schedule, or the end
// (410 disables the endpoint; five days of failures disable it; after the last attempt the delivery has failed).
// Runs right after a write (lib/api/route.ts, through Next's after()), from the cron route on Vercel, and from an
// in-process timer on one machine (timer.ts).

import { auditedChange, systemActor } from "@/lib/audit/mutations";
import { prisma } from "@/lib/db/client";
import { inSpan } from "@/lib/observability/spans";
import { webhookDisabled } from "./audit";
import { deliveriesPerTenant, heldSlots, takeSlots } from "./delivery-slots";
import {
  FAILING_DISABLES_AFTER_MS,
  MAX_ATTEMPTS,
  RESPONSE_BODY_LIMIT,
  RETENTION_MS,
  RETRY_DELAYS_S,
  TEST_EVENT,
} from "./events";
import { httpSender, type Sender } from "./sender";
import { signatureHeaders } from "./signing";

/** A claimed attempt is not claimed again for this long: well past the 15 s an attempt may take. */
const LEASE_MS = 60_000;

export interface DispatchOptions {
  /** The clock (tests move it). */
  now?: () => Date;
  /** At most this many deliveries in one pass. */
  limit?: number;
  /** Only this firm's deliveries (the pass right after one of its writes). */
  tenantId?: number;
  /** Only this delivery, due or not, if it has not been attempted yet ("send a test"). */
  deliveryId?: number;
  send?: Sender;
}

/** What a claim leaves to others: each firm's attempts at most `perTenant`, counting those `busy` already runs. */
interface ClaimShares {
  perTenant?: number;
  busy?: { tenantIds: number[]; held: number[] };
}

interface Claimed {
  tenant_id: number;
  id: number;
  attempts: number;
  endpoint_id: number;
  event_id: number;
}

/** When attempt `attempts + 1` is due after attempt `attempts` failed at `now`; null when that was the last. */
export function nextAttemptAt(attempts: number, now: Date): Date | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  return new Date(now.getTime() + RETRY_DELAYS_S[attempts - 1] * 1000);
}

/** Runs one SQL statement with positional parameters: Prisma's raw query, or a test's own connection. */
export type RawQuery = <T>(sql: string, ...params: unknown[]) => Promise<T[]>;

/**
 * Claims up to `limit` due deliveries in one statement: each claimed row has its attempt counted and its next
 * attempt moved a lease ahead, and rows another instance holds locked are skipped rather than waited for. The firms
 * take turns (each one's first due delivery, then each one's second, …), each up to `perTenant` attempts open with
 * those it already runs (`busy`), so that one firm's backlog never holds back another's deliveries.
 */
export function claimDue(
  query: RawQuery,
  now: Date,
  { limit = 20, tenantId, deliveryId, perTenant, busy }: DispatchOptions & ClaimShares,
) {
  const lease = new Date(now.getTime() + LEASE_MS);
  const due =
    deliveryId === undefined
      ? "dd.next_attempt_at <= $1 AND $4::int IS NULL"
      : "dd.id = $4::int AND dd.tenant_id = $3::int AND dd.attempts = 0";
  return query<Claimed>(
    `WITH ranked AS (
       SELECT dd.tenant_id, dd.id, dd.next_attempt_at,
              row_number() OVER (PARTITION BY dd.tenant_id ORDER BY dd.next_attempt_at, dd.id) AS nth
         FROM webhook_deliveries dd
        WHERE dd.status = 'pending' AND ${due} AND ($3::int IS NULL OR dd.tenant_id = $3::int)),
     picked AS (
       SELECT r.tenant_id, r.id FROM ranked r
         LEFT JOIN unnest($7::int[], $8::int[]) AS busy(tenant_id, held) ON busy.tenant_id = r.tenant_id
        WHERE $6::int IS NULL OR r.nth <= $6::int - coalesce(busy.held, 0)
        ORDER BY r.nth, r.next_attempt_at, r.id
        LIMIT $5),
     due AS (
       SELECT dd.tenant_id, dd.id FROM webhook_deliveries dd JOIN picked USING (tenant_id, id)
        WHERE dd.status = 'pending' AND ${due}
          FOR UPDATE OF dd SKIP LOCKED)
   UPDATE webhook_deliveries d
      SET attempts = d.attempts + 1, next_attempt_at = $2, last_attempt_at = $1
     FROM due
    WHERE d.tenant_id = due.tenant_id AND d.id = due.id
RETURNING d.tenant_id, d.id, d.attempts, d.endpoint_id, d.event_id`,
    now,
    lease,
    tenantId ?? null,
    deliveryId ?? null,
    limit,
    perTenant ?? null,
    busy?.tenantIds ?? [],
    busy?.held ?? [],
  );
}

async function claim(now: Date, options: DispatchOptions & ClaimShares): Promise<Claimed[]> {
  const db = await prisma();
  return claimDue((sql, ...params) => db.$queryRawUnsafe(sql, ...params), now, options);
}

export interface DispatchResult {
  claimed: number;
  succeeded: number;
  failed: number;
}

/**
 * One pass: claims what is due, as much as this instance's free delivery slots allow (lib/webhooks/delivery-slots.ts),
 * and delivers it (concurrently, each bounded by the 15 s timeout). What finds no slot stays due for a later pass.
 */
export async function deliverDue(options: DispatchOptions = {}): Promise<DispatchResult> {
  const now = options.now ?? (() => new Date());
  const busy = heldSlots();
  const slots = takeSlots(options.limit ?? 20, options.tenantId);
  let claimed: Claimed[];
  try {
    claimed =
      slots.granted > 0
        ? await claim(now(), { ...options, limit: slots.granted, perTenant: deliveriesPerTenant(), busy })
        : [];
  } catch (error) {
    slots.release();
    throw error;
  }
  const send = options.send ?? httpSender();
  const attempts = claimed.map((row) =>
    slots.run(row.tenant_id, () =>
      inSpan(
        "webhook delivery",
        { "cjt.tenant.id": row.tenant_id, "cjt.webhook.delivery.id": row.id, "cjt.webhook.attempt": row.attempts },
        () => deliver(row, send, now),
      ),
    ),
  );
  slots.release();
  const outcomes = await Promise.all(attempts);
  return {
    claimed: claimed.length,
    succeeded: outcomes.filter((ok) => ok).length,
    failed: outcomes.filter((ok) => !ok).length,
  };
}

/** Passes until nothing is due (or the time budget is spent): what the cron route and the timer run. */
export async function deliverAllDue(options: DispatchOptions & { budgetMs?: number } = {}): Promise<DispatchResult> {
  const total = { claimed: 0, succeeded: 0, failed: 0 };
  const started = Date.now();
  for (;;) {
    const pass = await deliverDue(options);
    total.claimed += pass.claimed;
    total.succeeded += pass.succeeded;
    total.failed += pass.failed;
    if (pass.claimed === 0 || Date.now() - started > (options.budgetMs ?? 30_000)) return total;
  }
}

async function deliver(row: Claimed, send: Sender, now: () => Date): Promise<boolean> {
  const db = await prisma();
  const key = { tenantId: row.tenant_id };
  const [endpoint, event] = await Promise.all([
    db.webhookEndpoint.findUnique({ where: { tenantId_id: { ...key, id: row.endpoint_id } } }),
    db.webhookEvent.findUnique({ where: { tenantId_id: { ...key, id: row.event_id } } }),
  ]);
  // Only the claim that counted this attempt may record its outcome.
  const mine = { tenantId: row.tenant_id, id: row.id, attempts: row.attempts, status: "pending" };
  if (!endpoint || !event) return false; // deleted meanwhile: the cascade took the delivery too
  if (!endpoint.enabled && event.type !== TEST_EVENT) {
    await db.webhookDelivery.updateMany({
      where: mine,
      data: { status: "failed", nextAttemptAt: null, error: "The endpoint is disabled." },
    });
    return false;
  }
  const started = now();
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > started)
    secrets.push(endpoint.previousSecret);
  const headers = signatureHeaders(secrets, event.msgId, Math.floor(started.getTime() / 1000), event.body);
  const result = await send(endpoint.url, headers, event.body);
  const at = now();
  const outcome = {
    responseStatus: result.status ?? null,
    responseBody: result.body?.slice(0, RESPONSE_BODY_LIMIT) ?? null,
    durationMs: result.durationMs,
    error: result.error ?? null,
  };
  // Every attempt is kept, so that a delivery shows why it was retried (the delivery row holds only the last).
  const kept = await db.webhookDeliveryAttempt
    .create({
      data: {
        tenantId: row.tenant_id,
        deliveryId: row.id,
        attemptedAt: started,
        responseStatus: outcome.responseStatus,
        error: outcome.error,
        durationMs: outcome.durationMs,
      },
    })
    .then(
      () => true,
      // The endpoint was deleted while the attempt ran, and its deliveries with it: nothing is left to record.
      (error: { code?: string }) => (error?.code === "P2003" ? false : Promise.reject(error)),
    );
  if (!kept) return false;
  const endpointKey = { tenantId_id: { ...key, id: endpoint.id } };

  if (result.status !== undefined && result.status >= 200 && result.status < 300) {
    await db.webhookDelivery.updateMany({
      where: mine,
      data: { ...outcome, status: "succeeded", nextAttemptAt: null },
    });
    if (endpoint.failingSince) await db.webhookEndpoint.update({ where: endpointKey, data: { failingSince: null } });
    return true;
  }

  const gone = result.status === 410;
  // A test sent to a disabled endpoint is not retried: nothing else goes there until it is enabled.
  const testOfDisabled = event.type === TEST_EVENT && !endpoint.enabled;
  const next = gone || testOfDisabled ? null : nextAttemptAt(row.attempts, at);
  await db.webhookDelivery.updateMany({
    where: mine,
    data: { ...outcome, status: next ? "pending" : "failed", nextAttemptAt: next },
  });
  if (testOfDisabled) return false;
  const failingSince = endpoint.failingSince ?? at;
  const failedTooLong = at.getTime() - failingSince.getTime() >= FAILING_DISABLES_AFTER_MS;
  if (gone || failedTooLong) {
    const reason = gone ? "gone" : "failing";
    // Disabled once, by whichever attempt gets there first: only that one records it.
    await auditedChange(db, { actor: systemActor(row.tenant_id) }, async (tx) => {
      const { count } = await tx.webhookEndpoint.updateMany({
        where: { ...key, id: endpoint.id, enabled: true },
        data: { enabled: false, disabledReason: reason, failingSince },
      });
      await tx.webhookDelivery.updateMany({
        where: { ...key, endpointId: endpoint.id, status: "pending" },
        data: {
          status: "failed",
          nextAttemptAt: null,
          error: gone ? "The receiver answered 410 Gone: endpoint disabled." : "Failing for 5 days: endpoint disabled.",
        },
      });
      return { result: undefined, entries: count ? [webhookDisabled(endpoint, reason)] : [] };
    });
  } else if (!endpoint.failingSince) {
    await db.webhookEndpoint.updateMany({
      where: { ...key, id: endpoint.id, failingSince: null },
      data: { failingSince },
    });
  }
  return false;
}

/** Deletes deliveries and events older than 30 days. */
export async function pruneDeliveries(now = new Date()): Promise<number> {
  const db = await prisma();
  const before = new Date(now.getTime() - RETENTION_MS);
  const { count } = await db.webhookDelivery.deleteMany({ where: { createdAt: { lt: before } } });
  await db.webhookEvent.deleteMany({ where: { createdAt: { lt: before } } });
  return count;
}
