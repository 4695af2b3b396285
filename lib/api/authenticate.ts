// Token authentication: the bearer token of a request resolved to its caller (lib/auth/caller.ts).
import { timingSafeEqual } from "node:crypto";
import type { Caller } from "@/lib/auth/caller";
import { permissionsOf } from "@/lib/auth/permissions";
import { tokenCacheOf } from "@/lib/auth/token-cache";
import { clientAddress } from "@/lib/client-address";
import { ApiError, unauthenticated } from "@/lib/core/errors";
import type { Database } from "@/lib/db/client";
import { tenantDb } from "@/lib/db/tenant";
import { Prisma } from "@/lib/generated/prisma/client";
import { hashToken, isWellFormedToken } from "@/lib/tokens";
import type { TokenAccess } from "@/lib/tokens/access";
import { rememberTokenTenant } from "./in-flight";

/** One row of the authentication query: the token, its user's own fields (as the caller carries them), role and tenant. */
type TokenOwnerRow = Omit<Caller["user"], "id"> & {
  id: number;
  tenantId: number;
  tokenHash: string;
  tokenName: string;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  access: TokenAccess;
  userId: number;
  archivedDate: Date | null;
  roleName: string;
  permissions: string[] | null;
  tenantName: string;
  tenantTimezone: string;
};

const pick = <T, K extends keyof T>(from: T, keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, from[k]])) as Pick<T, K>;

/** The token's last use (time, address, user agent) is written at most this often per token, not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** A user agent is kept to this many characters. */
const USER_AGENT_MAX = 300;

/**
 * Resolves the caller from the bearer token; anything but a known token of an active user is a 401. The token's row
 * comes from this instance's cache (lib/auth/token-cache.ts) when it holds it, else from the primary.
 */
export async function authenticate(
  db: Pick<Database, "prisma" | "read" | "kind" | "pglite">,
  token: string | null,
  headers?: Headers,
): Promise<Caller> {
  if (!token || !isWellFormedToken(token)) throw unauthenticated();
  const hash = hashToken(token);
  const cache = tokenCacheOf<TokenOwnerRow>(db);
  let row: TokenOwnerRow | undefined = await cache.get(hash);
  if (!row) {
    const generation = cache.generation();
    row = await lookUp(db, hash);
    if (row) cache.put(hash, row, generation);
  }
  // The lookup already matched on the hash; comparing again in constant time keeps that property explicit.
  if (!row || !timingSafeEqual(Buffer.from(row.tokenHash), Buffer.from(hash))) throw unauthenticated();
  if (row.archivedDate) throw unauthenticated();
  if (row.expiresAt && row.expiresAt.getTime() <= Date.now())
    throw new ApiError(
      401,
      `Unauthenticated: this token expired on ${row.expiresAt.toISOString()}. Create a new one on the API tokens page.`,
    );
  // The front door queues this token's next requests with its tenant's (lib/api/in-flight.ts, fair shares).
  rememberTokenTenant(hash, row.tenantId);

  const address = clientAddress(headers);
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    // Conditional, so that concurrent requests on many instances still write once per interval.
    await db.prisma.apiToken.updateMany({
      where: {
        tenantId: row.tenantId,
        id: row.id,
        OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: new Date(now - LAST_USED_RESOLUTION_MS) } }],
      },
      data: {
        lastUsedAt: new Date(now),
        lastUsedAddress: address,
        lastUsedUserAgent: headers?.get("user-agent")?.slice(0, USER_AGENT_MAX) || null,
      },
    });
    // The cached row (if this is it) then waits its minute too: last use is not an auth change, nothing announces it.
    row.lastUsedAt = new Date(now);
  }

  return {
    tenant: { id: row.tenantId, name: row.tenantName, timezone: row.tenantTimezone },
    user: {
      id: row.userId,
      ...pick(row, ["firstname", "lastname", "email", "timezone", "clientAccess", "isOwner"]),
    },
    roleName: row.roleName,
    permissions: permissionsOf(row, { permissions: row.permissions ?? [] }),
    tokenId: row.id,
    tokenName: row.tokenName,
    address,
    // The database's CHECK keeps it whole (lib/tokens/access.ts): no parsing on every request.
    tokenAccess: row.access,
    db: tenantDb(db.prisma, row.tenantId),
  };
}

/**
 * The one query that runs before the tenant is known: the hash identifies the token and so the tenant. One SQL
 * statement with its joins, since it runs on every request the cache does not answer (Prisma's include would take
 * four round trips).
 */
async function lookUp(db: Pick<Database, "read">, hash: string): Promise<TokenOwnerRow | undefined> {
  const [row] = await db.read<TokenOwnerRow>(Prisma.sql`
    SELECT t.id, t.tenant_id AS "tenantId", t.token_hash AS "tokenHash", t.name AS "tokenName",
           t.last_used_at AS "lastUsedAt",
           t.expires_at AS "expiresAt", t.access,
           u.id AS "userId", u.firstname, u.lastname, u.email::text AS email, u.timezone,
           u.client_access::text AS "clientAccess", u.is_owner AS "isOwner", u.archived_date AS "archivedDate",
           r.name AS "roleName", r.permissions, tn.name AS "tenantName", tn.timezone AS "tenantTimezone"
    FROM api_tokens t
    JOIN users u ON (u.tenant_id, u.id) = (t.tenant_id, t.user_id)
    JOIN roles r ON (r.tenant_id, r.id) = (u.tenant_id, u.role_id)
    JOIN tenants tn ON tn.id = t.tenant_id
    WHERE t.token_hash = ${hash}`);
  return row;
}
