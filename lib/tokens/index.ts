// Personal access tokens: `cjt_` plus 32 random bytes in base62 plus a 6-character base62 CRC32 of what precedes
// it (GitHub's scheme: a mistyped token is refused without a database lookup, and secret scanners can check it).
// Only the SHA-256 hash and the last four characters are stored; the value exists once, in the answer to its
// creation. Used by the CLI and the web page.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { type Actor, cliActor, recordAudit, webActor as webActorOf } from "@/lib/audit/mutations";
import { isStorableText } from "@/lib/core/validation";
import { tenantDb } from "@/lib/db/tenant";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { FULL_ACCESS, type TokenAccess, tokenAccessSchema } from "./access";
import { tokenCreated, tokenEntry } from "./audit";
import { base62, checksum, hashToken, TOKEN_PREFIX, tokenOfAuthorization } from "./format";

export {
  APP_TOKEN_PREFIX,
  hashToken,
  isWellFormedToken,
  TOKEN_PREFIX,
  tokenOfAuthorization,
} from "./format";

export const tokenNameSchema = z
  .string()
  .trim()
  .min(1, "Give the token a name.")
  .max(100, "The name may be at most 100 characters.")
  .refine(isStorableText, "The name may not contain NUL or unpaired surrogate characters.");

/** A new secret value: the prefix, 32 random bytes in base62, and the checksum (also the app tokens' and codes'). */
export function generateTokenValue(prefix = TOKEN_PREFIX): string {
  const body = prefix + base62(BigInt(`0x${randomBytes(32).toString("hex")}`), 43);
  return body + checksum(body);
}

/** The token of an `Authorization: Bearer <token>` header, or null (the one parser: tokenOfAuthorization). */
export function bearerToken(request: Request): string | null {
  return tokenOfAuthorization(request.headers.get("authorization"));
}

export { TOKEN_EXPIRY_DAYS } from "./options";
/** Live (unexpired) tokens a person may hold at once. */
export const MAX_LIVE_TOKENS_PER_USER = 50;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface TokenSummary {
  id: number;
  name: string;
  lastFour: string;
  access: TokenAccess;
  createdAt: Date;
  lastUsedAt: Date | null;
  lastUsedAddress: string | null;
  lastUsedUserAgent: string | null;
  expiresAt: Date | null;
}

const summaryFields = {
  id: true,
  name: true,
  lastFour: true,
  access: true,
  createdAt: true,
  lastUsedAt: true,
  lastUsedAddress: true,
  lastUsedUserAgent: true,
  expiresAt: true,
} as const;

/** A row as read: its access checked against the schema (the database's CHECK keeps it whole as well). */
const summaryOf = <T extends { access: unknown }>(row: T) => ({ ...row, access: tokenAccessSchema.parse(row.access) });

/** A refusal to mint a token, with a message for the person (page) or operator (CLI). */
export class TokenLimitError extends Error {}

export interface NewTokenOptions {
  /** Full access when not given (the old `read_write`). */
  access?: TokenAccess;
  /** Days until it expires; null for never. */
  expiresInDays?: number | null;
  /** The value to store; only tests and seeds pass one. */
  value?: string;
  /** Who makes it, for the audit log (the page's person, the CLI); tests and the demo seed record nothing. */
  actor?: Actor;
}

const TRANSACTION_WAIT = { maxWait: 15_000, timeout: 15_000 };

const liveTokens = (now: Date) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

/** Mints a token for a user and returns its value: the only time the value is ever available. */
export async function createApiToken(
  client: PrismaClient,
  owner: { tenantId: number; userId: number },
  name: string,
  { access = FULL_ACCESS, expiresInDays = null, value = generateTokenValue(), actor }: NewTokenOptions = {},
): Promise<{ token: string; summary: TokenSummary }> {
  const data = {
    tenantId: owner.tenantId,
    userId: owner.userId,
    name: tokenNameSchema.parse(name),
    tokenHash: hashToken(value),
    lastFour: value.slice(-4),
    access: tokenAccessSchema.parse(access),
  };
  const row = await tenantDb(client, owner.tenantId).$transaction(async (tx) => {
    // Serializes one person's creates, so that parallel ones cannot all pass the count (user ids are unique across
    // tenants: one sequence).
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${owner.userId}::int, 1802)`;
    const now = new Date();
    const live = await tx.apiToken.count({ where: { userId: owner.userId, kind: "personal", ...liveTokens(now) } });
    if (live >= MAX_LIVE_TOKENS_PER_USER)
      throw new TokenLimitError(
        `${MAX_LIVE_TOKENS_PER_USER} live tokens is the most one person may have: delete one that is no longer used, or wait for one to expire.`,
      );
    const expiresAt = expiresInDays === null ? null : new Date(now.getTime() + expiresInDays * DAY_MS);
    const created = await tx.apiToken.create({ data: { ...data, expiresAt }, select: summaryFields });
    if (actor) {
      const user = await tx.user.findFirstOrThrow({
        where: { id: owner.userId },
        select: { firstname: true, lastname: true, email: true },
      });
      await recordAudit(tx, { actor }, tokenCreated(summaryOf(created), user));
    }
    return created;
    // Creates queue on the lock: a burst of them waits its turn rather than failing on Prisma's 2 s default.
  }, TRANSACTION_WAIT);
  return { token: value, summary: summaryOf(row) };
}

/** The owner's tokens, newest first, expired ones last. */
export async function listApiTokens(client: PrismaClient, owner: { tenantId: number; userId: number }) {
  const tokens = await tenantDb(client, owner.tenantId).apiToken.findMany({
    where: { userId: owner.userId, kind: "personal" },
    select: summaryFields,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return expiredLast(tokens.map(summaryOf));
}

/** The same order, with expired tokens moved to the end (a stable sort). */
function expiredLast<T extends TokenSummary>(tokens: T[]): T[] {
  const now = Date.now();
  const expired = (t: TokenSummary) => (t.expiresAt && t.expiresAt.getTime() <= now ? 1 : 0);
  return tokens.sort((a, b) => expired(a) - expired(b));
}

/** Deletes one of the owner's tokens; someone else's token id matches nothing. Returns whether one was deleted. */
export async function revokeApiToken(client: PrismaClient, owner: { tenantId: number; userId: number }, id: number) {
  return deleteToken(client, owner.tenantId, { id, userId: owner.userId }, "token.deleted", webActorOf(owner));
}

export interface FirmTokenSummary extends TokenSummary {
  user: { firstname: string; lastname: string; email: string };
}

/** Every token of the tenant, for its Owners and Admins: newest first, expired ones last. */
export async function listFirmTokens(client: PrismaClient, tenantId: number): Promise<FirmTokenSummary[]> {
  const tokens = await tenantDb(client, tenantId).apiToken.findMany({
    // Apps' grants are listed on /settings/connected-apps.
    where: { kind: "personal" },
    select: { ...summaryFields, user: { select: { firstname: true, lastname: true, email: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return expiredLast(tokens.map(summaryOf));
}

/** Deletes any token of the tenant (by `actor`, an Owner or Admin); an id of another tenant's token matches nothing. */
export async function revokeFirmToken(client: PrismaClient, tenantId: number, id: number, actor: Actor) {
  return deleteToken(client, tenantId, { id }, "token.revoked", actor);
}

/** Deletes the token `where` names, with its audit entry, in one transaction; whether there was one. */
function deleteToken(
  client: PrismaClient,
  tenantId: number,
  where: { id: number; userId?: number },
  action: "token.deleted" | "token.revoked",
  actor: Actor | Promise<Actor>,
) {
  return tenantDb(client, tenantId).$transaction(async (tx) => {
    const token = await tx.apiToken.findFirst({
      where: { ...where, kind: "personal" },
      select: { id: true, name: true, userId: true },
    });
    if (!token) return false;
    await tx.apiToken.delete({ where: { tenantId_id: { tenantId, id: token.id } } });
    await recordAudit(tx, { actor: await actor }, tokenEntry(action, token));
    return true;
  });
}

/** Finds the one active user with this email (in `tenantId` when given) and mints a token for them. */
export async function createApiTokenForEmail(
  client: PrismaClient,
  email: string,
  name: string,
  tenantId?: number,
  options: NewTokenOptions = {},
) {
  const users = await client.user.findMany({
    where: { email, archivedDate: null, ...(tenantId ? { tenantId } : {}) },
    include: { tenant: true },
  });
  if (users.length === 0) throw new Error(`No active user with the email ${email}.`);
  if (users.length > 1) {
    const tenants = users.map((u) => `${u.tenantId}: ${u.tenant.name}`).join(", ");
    throw new Error(`${email} is a user in several tenants (${tenants}); choose one with --tenant <id>.`);
  }
  const [user] = users;
  const { token, summary } = await createApiToken(client, { tenantId: user.tenantId, userId: user.id }, name, {
    ...options,
    actor: options.actor ?? cliActor(user.tenantId),
  });
  return { token, summary, user };
}
