// The store of Idempotency-Keys (table idempotency_keys): who holds a key, and the first answer given to it. The
// database decides who runs a request, so that the rule holds across processes and instances: of two requests
// racing with one key, only one INSERT of the key succeeds. Raw SQL, with the tenant named in every statement.
import type { TenantScope } from "./tenant";

/** How long a key and its answer are kept. */
const KEPT_FOR = "24 hours";
// A key whose request has run this long without answering was left by a process that died mid-request; the next
// request with it may run. Requests end far sooner (statements time out, decisions.md: 503 within 10 s).
const ABANDONED_AFTER = "5 minutes";

/** A key is the token's: another token's same key is another key. */
export interface KeyHandle {
  tokenId: number;
  key: string;
}

/** What a request with a key that another request already holds meets. */
export interface HeldKey {
  fingerprint: string;
  /** Null while the first request is still running. */
  status: number | null;
  responseBody: string | null;
}

/**
 * Takes the key for a request with this fingerprint: null when it was free (or expired, or abandoned) and is now
 * this request's to answer; otherwise what holds it. Expired keys of the tenant are deleted on the way.
 */
export async function claimKey(
  { db, tenant }: TenantScope,
  { tokenId, key }: KeyHandle,
  fingerprint: string,
): Promise<HeldKey | null> {
  await db.$executeRaw`DELETE FROM idempotency_keys WHERE tenant_id = ${tenant.id} AND expires_at <= now()`;
  // A key freed by a failed first request (5xx) between the INSERT and the SELECT is claimed on the next round.
  for (let round = 0; round < 3; round++) {
    const claimed = await db.$queryRaw<unknown[]>`
      INSERT INTO idempotency_keys (tenant_id, token_id, key, fingerprint, expires_at)
      VALUES (${tenant.id}, ${tokenId}, ${key}, ${fingerprint}, now() + ${KEPT_FOR}::interval)
      ON CONFLICT (tenant_id, token_id, key) DO UPDATE
        SET fingerprint = EXCLUDED.fingerprint, status = NULL, response_body = NULL, created_at = now(),
            expires_at = EXCLUDED.expires_at
        WHERE idempotency_keys.expires_at <= now()
           OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at < now() - ${ABANDONED_AFTER}::interval)
      RETURNING 1`;
    if (claimed.length) return null;
    const [held] = await db.$queryRaw<HeldKey[]>`
      SELECT fingerprint, status, response_body AS "responseBody" FROM idempotency_keys
      WHERE tenant_id = ${tenant.id} AND token_id = ${tokenId} AND key = ${key}`;
    if (held) return held;
  }
  throw new Error("An Idempotency-Key was neither free nor held after three rounds");
}

/** Keeps the answer of the request that holds the key, for replays. */
export async function keepAnswer(
  { db, tenant }: TenantScope,
  { tokenId, key }: KeyHandle,
  status: number,
  responseBody: string,
) {
  await db.$executeRaw`
    UPDATE idempotency_keys SET status = ${status}, response_body = ${responseBody}
    WHERE tenant_id = ${tenant.id} AND token_id = ${tokenId} AND key = ${key}`;
}

/** Frees the key of a request that failed with a server error, so that a retry runs again. */
export async function releaseKey({ db, tenant }: TenantScope, { tokenId, key }: KeyHandle) {
  await db.$executeRaw`
    DELETE FROM idempotency_keys
    WHERE tenant_id = ${tenant.id} AND token_id = ${tokenId} AND key = ${key} AND status IS NULL`;
}
