// A person's grants to apps: made on the consent page, remembered per person, app, redirect and access, listed and
// revoked on /settings/connected-apps (their own; Owners and Admins every grant of the firm), lowered there. Each
// grant owns an api_tokens row (kind `app`) named after the app, which carries its access and expiry: ending the
// grant is deleting that row (the database removes its codes and tokens, and tells the authentication caches).
import { randomBytes } from "node:crypto";
import { changesBetween } from "@/lib/audit/entries";
import { type Actor, recordAudit } from "@/lib/audit/mutations";
import { tenantDb } from "@/lib/db/tenant";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { hashToken } from "@/lib/tokens";
import { accessWithin, type TokenAccess, tokenAccessSchema } from "@/lib/tokens/access";
import type { AppClient } from "./clients";
import type { Audience } from "./settings";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The audit target of a grant: the app, by the grant's id. */
const grantTarget = (grant: { tokenId: number; token: { name: string } }) => ({
  type: "oauth_app" as const,
  id: grant.tokenId,
  name: grant.token.name,
});

export function grantRevoked(grant: { tokenId: number; token: { name: string } }, reason: string) {
  return { action: "oauth_app.revoked" as const, target: grantTarget(grant), changes: { reason: [null, reason] } } as {
    action: "oauth_app.revoked";
    target: ReturnType<typeof grantTarget>;
    changes: Record<string, [unknown, unknown]>;
  };
}

export interface Consent {
  tenantId: number;
  userId: number;
  app: AppClient;
  audience: Audience;
  redirectUri: string;
  access: TokenAccess;
  offline: boolean;
  expiresInDays: number | null;
}

/**
 * Records the person's consent: a new grant, or the app's existing grant at this resource given the new access,
 * redirect and expiry. Returns the grant's id. A dynamic registration is kept from then on.
 */
export async function grantConsent(client: PrismaClient, consent: Consent, actor: Actor): Promise<number> {
  const db = tenantDb(client, consent.tenantId);
  const expiresAt = consent.expiresInDays === null ? null : new Date(Date.now() + consent.expiresInDays * DAY_MS);
  const access = tokenAccessSchema.parse(consent.access);
  const grantId = await db.$transaction(async (tx) => {
    const existing = await tx.oAuthGrant.findFirst({
      where: { userId: consent.userId, clientId: consent.app.id, audience: consent.audience },
      select: { tokenId: true, offline: true, redirectUri: true, token: { select: { access: true, expiresAt: true } } },
    });
    const after = {
      access,
      offline_access: consent.offline,
      redirect_uri: consent.redirectUri,
      expires_at: expiresAt?.toISOString() ?? null,
    };
    if (existing) {
      await tx.apiToken.update({
        where: { tenantId_id: { tenantId: consent.tenantId, id: existing.tokenId } },
        data: { access, expiresAt, name: consent.app.name },
      });
      await tx.oAuthGrant.update({
        where: { tenantId_tokenId: { tenantId: consent.tenantId, tokenId: existing.tokenId } },
        data: { redirectUri: consent.redirectUri, offline: consent.offline },
      });
      const before = {
        access: existing.token.access,
        offline_access: existing.offline,
        redirect_uri: existing.redirectUri,
        expires_at: existing.token.expiresAt?.toISOString() ?? null,
      };
      await recordAudit(
        tx,
        { actor },
        {
          action: "oauth_app.authorized",
          target: grantTarget({ tokenId: existing.tokenId, token: { name: consent.app.name } }),
          changes: changesBetween(before, after),
        },
      );
      return existing.tokenId;
    }
    // The grant's token row holds the hash of a value no one is given: no bearer can ever match it.
    const token = await tx.apiToken.create({
      data: {
        tenantId: consent.tenantId,
        userId: consent.userId,
        kind: "app",
        name: consent.app.name,
        tokenHash: hashToken(randomBytes(32).toString("hex")),
        lastFour: "",
        access,
        expiresAt,
      },
      select: { id: true },
    });
    await tx.oAuthGrant.create({
      data: {
        tenantId: consent.tenantId,
        tokenId: token.id,
        userId: consent.userId,
        clientId: consent.app.id,
        audience: consent.audience,
        redirectUri: consent.redirectUri,
        offline: consent.offline,
      },
    });
    await recordAudit(
      tx,
      { actor },
      {
        action: "oauth_app.authorized",
        target: grantTarget({ tokenId: token.id, token: { name: consent.app.name } }),
        changes: changesBetween({}, { client_id: consent.app.id, ...after }),
      },
    );
    return token.id;
  });
  if (consent.app.kind === "dynamic")
    await client.oAuthClient.updateMany({ where: { id: consent.app.id }, data: { unusedExpiresAt: null } });
  return grantId;
}

/**
 * The grant that already covers this request (same app, resource and redirect; at least this access and offline
 * use; not expired), whose consent is then remembered: no page is shown. Null when the person must be asked.
 */
export async function rememberedGrant(
  client: PrismaClient,
  request: Omit<Consent, "expiresInDays" | "app"> & { clientId: string },
): Promise<number | null> {
  const grant = await tenantDb(client, request.tenantId).oAuthGrant.findFirst({
    where: { userId: request.userId, clientId: request.clientId, audience: request.audience },
    select: { tokenId: true, offline: true, redirectUri: true, token: { select: { access: true, expiresAt: true } } },
  });
  if (!grant || grant.redirectUri !== request.redirectUri) return null;
  if (grant.token.expiresAt && grant.token.expiresAt.getTime() <= Date.now()) return null;
  if (request.offline && !grant.offline) return null;
  const held = tokenAccessSchema.parse(grant.token.access);
  return accessWithin(request.access, held) ? grant.tokenId : null;
}

export interface GrantSummary {
  id: number;
  appName: string;
  clientId: string;
  clientKind: string;
  audience: string;
  redirectUri: string;
  access: TokenAccess;
  offline: boolean;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedAddress: string | null;
  lastUsedUserAgent: string | null;
  user: { id: number; firstname: string; lastname: string; email: string };
}

/** Grants of the firm, newest first: one person's (`userId`), or everyone's. */
export async function listGrants(client: PrismaClient, tenantId: number, userId?: number): Promise<GrantSummary[]> {
  const rows = await tenantDb(client, tenantId).oAuthGrant.findMany({
    where: userId === undefined ? {} : { userId },
    select: {
      tokenId: true,
      clientId: true,
      audience: true,
      redirectUri: true,
      offline: true,
      createdAt: true,
      client: { select: { name: true, kind: true } },
      user: { select: { id: true, firstname: true, lastname: true, email: true } },
      token: {
        select: { access: true, expiresAt: true, lastUsedAt: true, lastUsedAddress: true, lastUsedUserAgent: true },
      },
    },
    orderBy: [{ createdAt: "desc" }, { tokenId: "desc" }],
  });
  return rows.map((row) => ({
    id: row.tokenId,
    appName: row.client.name,
    clientId: row.clientId,
    clientKind: row.client.kind,
    audience: row.audience,
    redirectUri: row.redirectUri,
    access: tokenAccessSchema.parse(row.token.access),
    offline: row.offline,
    createdAt: row.createdAt,
    expiresAt: row.token.expiresAt,
    lastUsedAt: row.token.lastUsedAt,
    lastUsedAddress: row.token.lastUsedAddress,
    lastUsedUserAgent: row.token.lastUsedUserAgent,
    user: row.user,
  }));
}

/**
 * Ends a grant: the person's own (`ownerId`), or any of the firm's (Owners and Admins: no `ownerId`). Whether there
 * was one.
 */
export async function revokeGrant(
  client: PrismaClient,
  tenantId: number,
  grantId: number,
  actor: Actor,
  ownerId?: number,
): Promise<boolean> {
  return tenantDb(client, tenantId).$transaction(async (tx) => {
    const grant = await tx.oAuthGrant.findFirst({
      where: { tokenId: grantId, ...(ownerId === undefined ? {} : { userId: ownerId }) },
      select: { tokenId: true, token: { select: { name: true } } },
    });
    if (!grant) return false;
    await tx.apiToken.deleteMany({ where: { id: grant.tokenId } });
    const reason = ownerId === undefined ? "revoked for the firm" : "revoked by its person";
    await recordAudit(tx, { actor }, grantRevoked(grant, reason));
    return true;
  });
}

/** Lowers the access of one of the person's own grants (never raises it: that takes the app asking again). */
export async function lowerGrantAccess(
  client: PrismaClient,
  tenantId: number,
  ownerId: number,
  grantId: number,
  access: TokenAccess,
  actor: Actor,
): Promise<"lowered" | "not-lower" | "missing"> {
  return tenantDb(client, tenantId).$transaction(async (tx) => {
    const grant = await tx.oAuthGrant.findFirst({
      where: { tokenId: grantId, userId: ownerId },
      select: { tokenId: true, token: { select: { name: true, access: true } } },
    });
    if (!grant) return "missing";
    const held = tokenAccessSchema.parse(grant.token.access);
    if (!accessWithin(access, held)) return "not-lower";
    await tx.apiToken.update({ where: { tenantId_id: { tenantId, id: grant.tokenId } }, data: { access } });
    const changes = changesBetween({ access: held }, { access });
    if (Object.keys(changes).length)
      await recordAudit(tx, { actor }, { action: "oauth_app.access_changed", target: grantTarget(grant), changes });
    return "lowered";
  });
}
