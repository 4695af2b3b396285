// Codes and tokens (RFC 6749 §4.1, §6; OAuth 2.1 §4.3.1 on refresh rotation; RFC 7636 PKCE; RFC 7009 revocation).
// Every value is random (lib/tokens's scheme with its own prefix) and stored only as its SHA-256. Refresh tokens
// rotate on every use; a used one keeps its successor pair for 30 s, encrypted with a key derived from its own value
// (so the stored pair is useless without the old token), for a refresh that raced it; a use after that ends the grant.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { type Actor, recordAudit } from "@/lib/audit/mutations";
import { tenantDb } from "@/lib/db/tenant";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { APP_TOKEN_PREFIX, generateTokenValue, hashToken } from "@/lib/tokens";
import { type TokenAccess, tokenAccessSchema } from "@/lib/tokens/access";
import type { AppClient } from "./clients";
import { OAuthError } from "./errors";
import { grantRevoked } from "./grants";
import { verifierMatches } from "./pkce";
import { scopeOf } from "./scopes";
import {
  ACCESS_TOKEN_SECONDS,
  type Audience,
  CODE_SECONDS,
  REFRESH_IDLE_DAYS,
  REFRESH_REPLAY_GRACE_MS,
  resourceUrl,
} from "./settings";

export const REFRESH_TOKEN_PREFIX = "cjr_";
export const CODE_PREFIX = "cjk_";
const DAY_MS = 24 * 60 * 60 * 1000;

/** RFC 6749 §5.1's answer. */
export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

/** A new single-use code for a grant, bound to the redirect URI and the PKCE challenge of its request. */
export async function issueCode(
  client: PrismaClient,
  grant: { tenantId: number; grantId: number },
  request: { redirectUri: string; codeChallenge: string },
): Promise<string> {
  const code = generateTokenValue(CODE_PREFIX);
  await tenantDb(client, grant.tenantId).oAuthCode.create({
    data: {
      tenantId: grant.tenantId,
      grantId: grant.grantId,
      codeHash: hashToken(code),
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      expiresAt: new Date(Date.now() + CODE_SECONDS * 1000),
    },
  });
  return code;
}

/** A `resource` sent to the token endpoint must name the grant's own (RFC 8707 §2.2). */
function checkResource(resource: string | null, audience: Audience) {
  if (resource !== null && resource.replace(/\/$/, "") !== resourceUrl(audience))
    throw new OAuthError("invalid_target", `This grant's tokens are for ${resourceUrl(audience)} only.`);
}

interface GrantRow {
  tenantId: number;
  tokenId: number;
  userId: number;
  clientId: string;
  audience: string;
  offline: boolean;
  token: { name: string; access: unknown; expiresAt: Date | null };
}
const grantFields = {
  tenantId: true,
  tokenId: true,
  userId: true,
  clientId: true,
  audience: true,
  offline: true,
  token: { select: { name: true, access: true, expiresAt: true } },
} as const;

/** The grant's app acting, for the audit entries of what it does at the token endpoints. */
export const appActor = (grant: GrantRow, address: string | null): Actor => ({
  tenantId: grant.tenantId,
  via: "oauth",
  userId: grant.userId,
  tokenId: grant.tokenId,
  tokenName: grant.token.name,
  address,
});

/** RFC 6749 §4.1.3: a code for tokens. A second use of a code revokes every token issued from it (§4.1.2). */
export async function exchangeCode(
  client: PrismaClient,
  app: AppClient,
  params: { code: string; redirectUri: string | null; codeVerifier: string | null; resource: string | null },
): Promise<TokenResponse> {
  const hash = hashToken(params.code);
  const found = await client.oAuthCode.findFirst({ where: { codeHash: hash }, select: { tenantId: true } });
  if (!found) throw new OAuthError("invalid_grant", "Unknown or expired authorization code.");
  const db = tenantDb(client, found.tenantId);
  const outcome = await db.$transaction(async (tx) => {
    // Locked: of two requests with one code, the second waits and then sees it used.
    const [code] = await tx.$queryRaw<
      {
        id: number;
        grantId: number;
        redirectUri: string;
        codeChallenge: string;
        expiresAt: Date;
        usedAt: Date | null;
      }[]
    >`SELECT id, grant_id AS "grantId", redirect_uri AS "redirectUri", code_challenge AS "codeChallenge",
             expires_at AS "expiresAt", used_at AS "usedAt"
      FROM oauth_codes WHERE tenant_id = ${found.tenantId} AND code_hash = ${hash} FOR UPDATE`;
    if (!code) return { error: new OAuthError("invalid_grant", "Unknown or expired authorization code.") };
    const grant = await tx.oAuthGrant.findFirst({ where: { tokenId: code.grantId }, select: grantFields });
    if (!grant || grant.clientId !== app.id)
      return { error: new OAuthError("invalid_grant", "This code was issued to another client.") };
    if (code.usedAt) {
      await tx.oAuthAccessToken.deleteMany({ where: { codeId: code.id } });
      await tx.oAuthRefreshToken.deleteMany({ where: { codeId: code.id } });
      return {
        error: new OAuthError("invalid_grant", "This code was used already: the tokens issued for it are revoked."),
      };
    }
    if (code.expiresAt.getTime() <= Date.now())
      return { error: new OAuthError("invalid_grant", "Unknown or expired authorization code.") };
    if (params.redirectUri !== code.redirectUri)
      return { error: new OAuthError("invalid_grant", "redirect_uri is not the one of the authorization request.") };
    if (!params.codeVerifier || !verifierMatches(params.codeVerifier, code.codeChallenge))
      return { error: new OAuthError("invalid_grant", "code_verifier does not match the code_challenge (S256).") };
    checkResource(params.resource, grant.audience as Audience);
    await tx.oAuthCode.update({
      where: { tenantId_id: { tenantId: found.tenantId, id: code.id } },
      data: { usedAt: new Date() },
    });
    return { tokens: await issueTokens(tx, grant, code.id) };
  });
  if (outcome.error) throw outcome.error;
  return outcome.tokens!;
}

type Tx = Parameters<Parameters<ReturnType<typeof tenantDb>["$transaction"]>[0]>[0];

/** A new access token (an hour, never past the grant's expiry) and, for an offline grant, a refresh token. */
async function issueTokens(tx: Tx, grant: GrantRow, codeId: number): Promise<TokenResponse> {
  const now = Date.now();
  const grantEnds = grant.token.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
  if (grantEnds <= now) throw new OAuthError("invalid_grant", "This grant has expired: connect the app again.");
  const accessExpires = Math.min(now + ACCESS_TOKEN_SECONDS * 1000, grantEnds);
  const accessToken = generateTokenValue(APP_TOKEN_PREFIX);
  // Expired access tokens of the grant are of no use to anyone: removed as new ones are made.
  await tx.oAuthAccessToken.deleteMany({ where: { grantId: grant.tokenId, expiresAt: { lte: new Date(now) } } });
  await tx.oAuthAccessToken.create({
    data: {
      tenantId: grant.tenantId,
      grantId: grant.tokenId,
      codeId,
      tokenHash: hashToken(accessToken),
      expiresAt: new Date(accessExpires),
    },
  });
  const access = tokenAccessSchema.parse(grant.token.access) as TokenAccess;
  const response: TokenResponse = {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: Math.max(1, Math.floor((accessExpires - now) / 1000)),
    scope: scopeOf(access, grant.offline),
  };
  if (grant.offline) {
    const refreshToken = generateTokenValue(REFRESH_TOKEN_PREFIX);
    await tx.oAuthRefreshToken.create({
      data: {
        tenantId: grant.tenantId,
        grantId: grant.tokenId,
        codeId,
        tokenHash: hashToken(refreshToken),
        expiresAt: new Date(Math.min(now + REFRESH_IDLE_DAYS * DAY_MS, grantEnds)),
      },
    });
    response.refresh_token = refreshToken;
  }
  return response;
}

/**
 * RFC 6749 §6 with rotation: the successor pair for a refresh token. Within 30 s of its first use the same pair
 * again (for a refresh that raced it); after that, the grant ends and the audit log says why.
 */
export async function refreshTokens(
  client: PrismaClient,
  app: AppClient,
  params: { refreshToken: string; resource: string | null; address: string | null },
): Promise<TokenResponse> {
  const hash = hashToken(params.refreshToken);
  const found = await client.oAuthRefreshToken.findFirst({ where: { tokenHash: hash }, select: { tenantId: true } });
  if (!found) throw new OAuthError("invalid_grant", "Unknown, expired or revoked refresh token.");
  const outcome = await tenantDb(client, found.tenantId).$transaction(async (tx) => {
    // Locked: two refreshes with one token run one after the other, the second seeing the first's successor.
    const [token] = await tx.$queryRaw<
      { id: number; grantId: number; codeId: number; expiresAt: Date; usedAt: Date | null; successor: Buffer | null }[]
    >`SELECT id, grant_id AS "grantId", code_id AS "codeId", expires_at AS "expiresAt", used_at AS "usedAt", successor
      FROM oauth_refresh_tokens WHERE tenant_id = ${found.tenantId} AND token_hash = ${hash} FOR UPDATE`;
    if (!token) return { error: new OAuthError("invalid_grant", "Unknown, expired or revoked refresh token.") };
    const grant = await tx.oAuthGrant.findFirst({ where: { tokenId: token.grantId }, select: grantFields });
    if (!grant || grant.clientId !== app.id)
      return { error: new OAuthError("invalid_grant", "This refresh token was issued to another client.") };
    checkResource(params.resource, grant.audience as Audience);
    if (token.usedAt) {
      if (Date.now() - token.usedAt.getTime() <= REFRESH_REPLAY_GRACE_MS && token.successor)
        return { tokens: decryptSuccessor(params.refreshToken, token.successor) };
      // Used twice, apart: one of the two holders is not the app. The whole grant ends.
      await tx.apiToken.deleteMany({ where: { id: grant.tokenId } });
      await recordAudit(
        tx,
        { actor: appActor(grant, params.address) },
        grantRevoked(grant, "a refresh token was used again after it had been replaced"),
      );
      return {
        error: new OAuthError("invalid_grant", "This refresh token was used already: the app's access is revoked."),
      };
    }
    if (token.expiresAt.getTime() <= Date.now())
      return { error: new OAuthError("invalid_grant", "This refresh token lapsed: connect the app again.") };
    const tokens = await issueTokens(tx, grant, token.codeId);
    await tx.oAuthRefreshToken.update({
      where: { tenantId_id: { tenantId: found.tenantId, id: token.id } },
      data: { usedAt: new Date(), successor: encryptSuccessor(params.refreshToken, tokens) },
    });
    return { tokens };
  });
  if (outcome.error) throw outcome.error;
  return outcome.tokens!;
}

/** The key that seals a refresh token's successor pair: derived from the refresh token itself (HKDF-SHA256). */
const successorKey = (refreshToken: string) =>
  Buffer.from(hkdfSync("sha256", refreshToken, "", "cjt oauth refresh successor", 32));

function encryptSuccessor(refreshToken: string, tokens: TokenResponse): Uint8Array<ArrayBuffer> {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", successorKey(refreshToken), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(tokens), "utf8"), cipher.final()]);
  return new Uint8Array(Buffer.concat([iv, cipher.getAuthTag(), sealed]));
}

function decryptSuccessor(refreshToken: string, stored: Uint8Array): TokenResponse {
  const bytes = Buffer.from(stored);
  const decipher = createDecipheriv("aes-256-gcm", successorKey(refreshToken), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  const tokens = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8"));
  return tokens as TokenResponse;
}

/**
 * RFC 7009 §2: revokes an access token (that token) or a refresh token (the whole grant) of the app that asks; an
 * unknown token, or another app's, changes nothing and is answered the same.
 */
export async function revokeToken(
  client: PrismaClient,
  app: AppClient,
  token: string,
  address: string | null,
): Promise<void> {
  const hash = hashToken(token);
  const [access, refresh] = await Promise.all([
    client.oAuthAccessToken.findFirst({
      where: { tokenHash: hash },
      select: { tenantId: true, id: true, grantId: true },
    }),
    client.oAuthRefreshToken.findFirst({ where: { tokenHash: hash }, select: { tenantId: true, grantId: true } }),
  ]);
  const found = access ?? refresh;
  if (!found) return;
  const db = tenantDb(client, found.tenantId);
  await db.$transaction(async (tx) => {
    const grant = await tx.oAuthGrant.findFirst({ where: { tokenId: found.grantId }, select: grantFields });
    if (!grant || grant.clientId !== app.id) return;
    if (access) {
      await tx.oAuthAccessToken.deleteMany({ where: { id: access.id } });
      return;
    }
    await tx.apiToken.deleteMany({ where: { id: grant.tokenId } });
    await recordAudit(
      tx,
      { actor: appActor(grant, address) },
      grantRevoked(grant, "the app revoked its refresh token"),
    );
  });
}
