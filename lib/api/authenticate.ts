// Token authentication: the bearer token of a request resolved to its caller (lib/auth/caller.ts). Two kinds of
// bearer: a person's own token (`cjt_`), and an app's access token (`cjo_`, lib/oauth), which acts for the person who
// granted it with the grant's access ∩ the firm's cap for the app, and only at the resource it was issued for.
import { timingSafeEqual } from "node:crypto";
import type { Caller } from "@/lib/auth/caller";
import { permissionsOf } from "@/lib/auth/permissions";
import { tokenCacheOf } from "@/lib/auth/token-cache";
import { clientAddress } from "@/lib/client-address";
import { ApiError } from "@/lib/core/errors";
import type { Database } from "@/lib/db/client";
import { tenantDb } from "@/lib/db/tenant";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Audience } from "@/lib/oauth/settings";
import { APP_TOKEN_PREFIX, hashToken, isWellFormedToken } from "@/lib/tokens";
import { FULL_ACCESS, intersectAccess, type TokenAccess } from "@/lib/tokens/access";
import { rememberTokenTenant } from "./in-flight";

/** One row of the authentication query: the token, its user's own fields (as the caller carries them), role and tenant. */
type TokenOwnerRow = Omit<Caller["user"], "id"> & {
  /** The api_tokens row: the personal token, or the app's grant. */
  id: number;
  tenantId: number;
  tokenHash: string;
  tokenName: string;
  lastUsedAt: Date | null;
  /** The personal token's expiry, or the app's grant's. */
  expiresAt: Date | null;
  access: TokenAccess;
  userId: number;
  archivedDate: Date | null;
  roleName: string;
  permissions: string[] | null;
  tenantName: string;
  tenantTimezone: string;
  personalTokensAtMcp: boolean;
  /** Set for an app's access token. */
  app?: AppTokenFields;
};

/** What an app's access token adds: its own expiry and resource, the app, and the firm's policy for it. */
interface AppTokenFields {
  accessExpiresAt: Date;
  audience: Audience;
  clientId: string;
  appName: string;
  /** The firm's cap for this app; null when the firm has not listed it. */
  cap: TokenAccess | null;
  onlyListedApps: boolean;
}

const pick = <T, K extends keyof T>(from: T, keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, from[k]])) as Pick<T, K>;

/** The token's last use (time, address, user agent) is written at most this often per token, not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** A user agent is kept to this many characters. */
const USER_AGENT_MAX = 300;

/**
 * A 401 with its RFC 6750 challenge: `Bearer` alone when no token was sent, `error="invalid_token"` for one that is
 * not (or no longer, or not here) valid.
 */
function unauthenticated(
  message = "Unauthenticated: send a valid token as 'Authorization: Bearer <token>'.",
  invalidToken = true,
) {
  return new ApiError(401, message, undefined, {
    "WWW-Authenticate": invalidToken ? 'Bearer error="invalid_token"' : "Bearer",
  });
}

const AUDIENCE_NAMES: Record<Audience, string> = { api: "the REST API (/api/v1)", mcp: "the MCP endpoint (/api/mcp)" };

/**
 * Resolves the caller from the bearer token; anything but a known token of an active user, valid at `audience`, is a
 * 401. The token's row comes from this instance's cache (lib/auth/token-cache.ts) when it holds it, else from the
 * primary. An app's token is judged here too (its resource, expiry, the firm's policy), so no caller can forget it.
 */
export async function authenticate(
  db: Pick<Database, "prisma" | "read" | "kind" | "pglite">,
  token: string | null,
  headers?: Headers,
  audience: Audience = "api",
): Promise<Caller> {
  if (!token) throw unauthenticated(undefined, false);
  if (!isWellFormedToken(token)) throw unauthenticated();
  const hash = hashToken(token);
  const isApp = token.startsWith(APP_TOKEN_PREFIX);
  const cache = tokenCacheOf<TokenOwnerRow>(db);
  let row: TokenOwnerRow | undefined = await cache.get(hash);
  if (!row) {
    const generation = cache.generation();
    row = isApp ? await lookUpAppToken(db, hash) : await lookUp(db, hash);
    if (row) cache.put(hash, row, generation);
  }
  // The lookup already matched on the hash; comparing again in constant time keeps that property explicit.
  if (!row || !timingSafeEqual(Buffer.from(row.tokenHash), Buffer.from(hash))) throw unauthenticated();
  if (row.archivedDate) throw unauthenticated();
  const now = Date.now();
  const app = row.app;
  if (app) {
    if (app.accessExpiresAt.getTime() <= now)
      throw unauthenticated(
        `Unauthenticated: this access token expired on ${app.accessExpiresAt.toISOString()}. Use the refresh token for a new one.`,
      );
    if (app.audience !== audience)
      throw unauthenticated(
        `Unauthenticated: this access token was issued for ${AUDIENCE_NAMES[app.audience]}, not ${AUDIENCE_NAMES[audience]}.`,
      );
    if (app.onlyListedApps && !app.cap)
      throw unauthenticated("Unauthenticated: your firm allows only the apps it listed, and not this one.");
  } else if (audience === "mcp" && !row.personalTokensAtMcp)
    throw unauthenticated(
      "Unauthenticated: your firm does not allow personal tokens here; connect your assistant as an app (OAuth).",
    );
  if (row.expiresAt && row.expiresAt.getTime() <= now)
    throw unauthenticated(
      app
        ? `Unauthenticated: your access for this app expired on ${row.expiresAt.toISOString()}. Connect the app again.`
        : `Unauthenticated: this token expired on ${row.expiresAt.toISOString()}. Create a new one on the API tokens page.`,
    );
  // The front door queues this token's next requests with its tenant's (lib/api/in-flight.ts, fair shares).
  rememberTokenTenant(hash, row.tenantId);

  const address = clientAddress(headers);
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
    // The database's CHECK keeps it whole (lib/tokens/access.ts): no parsing on every request. An app's is its
    // grant's within the firm's cap; the role's permissions are checked after, as for any token.
    tokenAccess: app ? intersectAccess(row.access, app.cap ?? FULL_ACCESS) : row.access,
    ...(app && { app: { clientId: app.clientId, name: app.appName, accessExpiresAt: app.accessExpiresAt } }),
    db: tenantDb(db.prisma, row.tenantId),
  };
}

/** The columns both lookups read of the token's (or grant's) row, its user, role and tenant. */
const OWNER_COLUMNS = Prisma.sql`
  t.id, t.tenant_id AS "tenantId", t.name AS "tokenName", t.last_used_at AS "lastUsedAt",
  t.expires_at AS "expiresAt", t.access,
  u.id AS "userId", u.firstname, u.lastname, u.email::text AS email, u.timezone,
  u.client_access::text AS "clientAccess", u.is_owner AS "isOwner", u.archived_date AS "archivedDate",
  r.name AS "roleName", r.permissions, tn.name AS "tenantName", tn.timezone AS "tenantTimezone",
  tn.personal_tokens_at_mcp AS "personalTokensAtMcp"`;
const OWNER_JOINS = Prisma.sql`
  JOIN users u ON (u.tenant_id, u.id) = (t.tenant_id, t.user_id)
  JOIN roles r ON (r.tenant_id, r.id) = (u.tenant_id, u.role_id)
  JOIN tenants tn ON tn.id = t.tenant_id`;

/**
 * The one query that runs before the tenant is known: the hash identifies the token and so the tenant. One SQL
 * statement with its joins, since it runs on every request the cache does not answer (Prisma's include would take
 * four round trips).
 */
async function lookUp(db: Pick<Database, "read">, hash: string): Promise<TokenOwnerRow | undefined> {
  const [row] = await db.read<TokenOwnerRow>(Prisma.sql`
    SELECT ${OWNER_COLUMNS}, t.token_hash AS "tokenHash"
    FROM api_tokens t ${OWNER_JOINS}
    WHERE t.token_hash = ${hash} AND t.kind = 'personal'`);
  return row;
}

/** The same for an app's access token: its grant's row, the app, and the firm's listing (cap) of it. */
async function lookUpAppToken(db: Pick<Database, "read">, hash: string): Promise<TokenOwnerRow | undefined> {
  const [row] = await db.read<Omit<TokenOwnerRow, "app"> & AppTokenFields>(Prisma.sql`
    SELECT ${OWNER_COLUMNS}, a.token_hash AS "tokenHash", a.expires_at AS "accessExpiresAt", g.audience,
           g.client_id AS "clientId", c.name AS "appName", fa.access_cap AS cap,
           tn.only_listed_apps AS "onlyListedApps"
    FROM oauth_access_tokens a
    JOIN oauth_grants g ON (g.tenant_id, g.token_id) = (a.tenant_id, a.grant_id)
    JOIN oauth_clients c ON c.id = g.client_id
    JOIN api_tokens t ON (t.tenant_id, t.id) = (g.tenant_id, g.token_id)
    ${OWNER_JOINS}
    LEFT JOIN oauth_firm_apps fa ON (fa.tenant_id, fa.client_id) = (g.tenant_id, g.client_id)
    WHERE a.token_hash = ${hash}`);
  if (!row) return undefined;
  const { accessExpiresAt, audience, clientId, appName, cap, onlyListedApps, ...owner } = row;
  return { ...owner, app: { accessExpiresAt, audience, clientId, appName, cap, onlyListedApps } };
}
