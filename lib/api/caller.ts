// Who is calling: the token's user, its role and tenant, and the tenant-scoped database every query goes through.
import { timingSafeEqual } from "node:crypto";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { ClientAccess } from "@/lib/generated/prisma/enums";
import { tenantDb, type TenantDb } from "@/lib/db/tenant";
import { permissionsOf, type Permission } from "@/lib/auth/permissions";
import { TOKEN_PATTERN, hashToken } from "@/lib/tokens";
import { unauthenticated } from "./errors";

export interface Caller {
  tenant: { id: number; name: string; timezone: string };
  user: {
    id: number;
    firstname: string;
    lastname: string;
    email: string;
    timezone: string;
    clientAccess: ClientAccess;
    isOwner: boolean;
  };
  roleName: string;
  permissions: ReadonlySet<Permission>;
  tokenId: number;
  db: TenantDb;
}

/** `last_used_at` is written at most this often per token, not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function bearerToken(request: Request): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(request.headers.get("authorization") ?? "");
  return match ? match[1] : null;
}

/** Resolves the caller from the bearer token; anything but a known token of an active user is a 401. */
export async function authenticate(client: PrismaClient, token: string | null): Promise<Caller> {
  if (!token || !TOKEN_PATTERN.test(token)) throw unauthenticated();
  const hash = hashToken(token);
  // The one query that runs before the tenant is known: the hash identifies the token and so the tenant.
  const row = await client.apiToken.findFirst({
    where: { tokenHash: hash },
    include: { user: { include: { role: true, tenant: true } } },
  });
  // The lookup already matched on the hash; comparing again in constant time keeps that property explicit.
  if (!row || !timingSafeEqual(Buffer.from(row.tokenHash), Buffer.from(hash))) throw unauthenticated();
  const { user } = row;
  if (user.archivedDate) throw unauthenticated();

  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    // Conditional, so that concurrent requests on many instances still write once per interval.
    await client.apiToken.updateMany({
      where: {
        tenantId: row.tenantId,
        id: row.id,
        OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: new Date(now - LAST_USED_RESOLUTION_MS) } }],
      },
      data: { lastUsedAt: new Date(now) },
    });
  }

  return {
    tenant: { id: user.tenant.id, name: user.tenant.name, timezone: user.tenant.timezone },
    user: {
      id: user.id,
      firstname: user.firstname,
      lastname: user.lastname,
      email: user.email,
      timezone: user.timezone,
      clientAccess: user.clientAccess,
      isOwner: user.isOwner,
    },
    roleName: user.role.name,
    permissions: permissionsOf(user, user.role),
    tokenId: row.id,
    db: tenantDb(client, row.tenantId),
  };
}
