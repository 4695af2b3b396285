// The store of Idempotency-Keys (table idempotency_keys): who holds a key, and the first answer given to it. The
// database decides who runs a request, so that the rule holds across processes and instances: of two requests
// racing with one key, only one INSERT of the key succeeds.
//
// A holder that dies (kill -9, a lost machine) must not keep its key for long, and a write must never run twice:
// - each claim has its own id, and a lease the living holder renews while it runs (renewLease);
// - the write's own transaction marks the row `written` only while the claim is still its own (writeFence, part of
//   the audit entry's statement that every API write runs in its transaction, lib/audit/mutations.ts). That UPDATE
//   locks the row until the write commits or rolls back;
// - a retry takes the key over only when the lease has run out and nothing was written. Its claim waits on the row
//   lock of a write in progress: if that write commits, the row says written and the retry does not run; if the
//   holder died, PostgreSQL rolls its transaction back and the retry runs. A holder that was only slow finds its
//   claim gone at its write, which then fails and rolls back.
// Raw SQL, with the tenant named in every statement; no session state, so it works through a transaction pooler.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TenantScope } from "./tenant";

/** How long a key and its answer are kept. */
const KEPT_FOR = "24 hours";
/** A holder's lease, renewed every LEASE_RENEWAL_MS while it runs: a retry waits this long after a holder died. */
const LEASE = "6 seconds";
export const LEASE_RENEWAL_MS = 2000;

/** A key is the token's: another token's same key is another key. */
export interface KeyHandle {
  tokenId: number;
  key: string;
}

/** A request's hold on a key: the key, in its tenant, and the id of this claim. */
export interface Claim extends KeyHandle {
  tenantId: number;
  claim: string;
}

/** What a request with a key that another request already holds meets. */
export interface HeldKey {
  fingerprint: string;
  /** Null while the first request has not answered. */
  status: number | null;
  responseBody: string | null;
  /** The first request's write committed. */
  written: boolean;
  /** The first request is still renewing its lease, so it is alive. */
  live: boolean;
}

/**
 * Takes the key for a request with this fingerprint: the claim when it was free (or expired, or left by a dead holder
 * that wrote nothing) and is now this request's to answer; otherwise what holds it. Expired keys of the tenant are
 * deleted on the way.
 */
export async function claimKey(
  { db, tenant }: TenantScope,
  { tokenId, key }: KeyHandle,
  fingerprint: string,
): Promise<{ claim: Claim } | { held: HeldKey }> {
  await db.$executeRaw`DELETE FROM idempotency_keys WHERE tenant_id = ${tenant.id} AND expires_at <= now()`;
  const claim = randomUUID();
  // A key freed by a failed first request (5xx) between the INSERT and the SELECT is claimed on the next round.
  for (let round = 0; round < 3; round++) {
    // On a conflict the row is locked before the WHERE is judged: a write in progress under the old claim is waited
    // for, and the WHERE sees what it left (written, or rolled back).
    const claimed = await db.$queryRaw<unknown[]>`
      INSERT INTO idempotency_keys (tenant_id, token_id, key, fingerprint, expires_at, claim, lease_until)
      VALUES (${tenant.id}, ${tokenId}, ${key}, ${fingerprint}, now() + ${KEPT_FOR}::interval, ${claim}::uuid,
              now() + ${LEASE}::interval)
      ON CONFLICT (tenant_id, token_id, key) DO UPDATE
        SET fingerprint = EXCLUDED.fingerprint, status = NULL, response_body = NULL, created_at = now(),
            expires_at = EXCLUDED.expires_at, claim = EXCLUDED.claim, lease_until = EXCLUDED.lease_until,
            written = false
        WHERE idempotency_keys.expires_at <= now()
           OR (idempotency_keys.status IS NULL AND NOT idempotency_keys.written
               AND idempotency_keys.lease_until <= now())
      RETURNING 1`;
    if (claimed.length) return { claim: { tenantId: tenant.id, tokenId, key, claim } };
    const [held] = await db.$queryRaw<HeldKey[]>`
      SELECT fingerprint, status, response_body AS "responseBody", written, lease_until > now() AS live
      FROM idempotency_keys WHERE tenant_id = ${tenant.id} AND token_id = ${tokenId} AND key = ${key}`;
    if (held) return { held };
  }
  throw new Error("An Idempotency-Key was neither free nor held after three rounds");
}

/** Keeps the holder's lease while it runs. */
export async function renewLease({ db }: TenantScope, { tenantId, tokenId, key, claim }: Claim) {
  await db.$executeRaw`
    UPDATE idempotency_keys SET lease_until = now() + ${LEASE}::interval
    WHERE tenant_id = ${tenantId} AND token_id = ${tokenId} AND key = ${key} AND claim = ${claim}::uuid
      AND status IS NULL`;
}

/** Keeps the answer of the request that holds the key, for replays: false when a retry took the key over. */
export async function keepAnswer(
  { db }: TenantScope,
  { tenantId, tokenId, key, claim }: Claim,
  status: number,
  responseBody: string,
): Promise<boolean> {
  const kept = await db.$executeRaw`
    UPDATE idempotency_keys SET status = ${status}, response_body = ${responseBody}
    WHERE tenant_id = ${tenantId} AND token_id = ${tokenId} AND key = ${key} AND claim = ${claim}::uuid`;
  return kept === 1;
}

/**
 * After a server error: frees the key, so that a retry runs again, unless the write had committed (then it must not
 * run again: the lease ends, so that a retry is told at once). False when a retry had taken the key over.
 */
export async function releaseKey({ db }: TenantScope, { tenantId, tokenId, key, claim }: Claim): Promise<boolean> {
  const [mine] = await db.$queryRaw<{ written: boolean }[]>`
    WITH released AS (
      DELETE FROM idempotency_keys
      WHERE tenant_id = ${tenantId} AND token_id = ${tokenId} AND key = ${key} AND claim = ${claim}::uuid
        AND status IS NULL AND NOT written
      RETURNING written
    ), ended AS (
      UPDATE idempotency_keys SET lease_until = now()
      WHERE tenant_id = ${tenantId} AND token_id = ${tokenId} AND key = ${key} AND claim = ${claim}::uuid
        AND status IS NULL AND written
      RETURNING written
    )
    SELECT written FROM released UNION ALL SELECT written FROM ended`;
  return mine !== undefined;
}

/** Whether the claim is still the key's (a retry takes over only a dead holder's key, or one it thought dead). */
export async function stillHeld({ db }: TenantScope, { tenantId, tokenId, key, claim }: Claim): Promise<boolean> {
  const rows = await db.$queryRaw<unknown[]>`
    SELECT 1 FROM idempotency_keys
    WHERE tenant_id = ${tenantId} AND token_id = ${tokenId} AND key = ${key} AND claim = ${claim}::uuid`;
  return rows.length === 1;
}

/** The claim of the request running in this async context, for its write's fence. */
const running = new AsyncLocalStorage<Claim>();

/** Runs `work` (a request's handler) as the holder of `claim`: its writes are fenced by it. */
export const holding = <T>(claim: Claim, work: () => Promise<T>): Promise<T> => running.run(claim, work);

/**
 * For the statement every write of an API request runs in its transaction (the audit entry's INSERT): a `WITH` that
 * marks the held key written, and the condition that fails that statement, and so rolls back the whole transaction,
 * when the claim is no longer this request's. Empty outside a request holding a key of this tenant and token.
 */
export function writeFence(tenantId: number, tokenId: number | null): { with: Prisma.Sql; where: Prisma.Sql } {
  const claim = running.getStore();
  if (!claim || claim.tenantId !== tenantId || claim.tokenId !== tokenId)
    return { with: Prisma.empty, where: Prisma.empty };
  return {
    with: Prisma.sql`WITH idempotency_fence AS (
      UPDATE idempotency_keys SET written = true
      WHERE tenant_id = ${claim.tenantId} AND token_id = ${claim.tokenId} AND key = ${claim.key}
        AND claim = ${claim.claim}::uuid
      RETURNING 1)`,
    // A division by zero when the claim was taken over: no statement-level way to raise an error without a function.
    where: Prisma.sql`WHERE (SELECT 1 / count(*)::int FROM idempotency_fence) = 1`,
  };
}
