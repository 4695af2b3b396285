// Personal access tokens: `cjt_` plus 32 random bytes (base64url). Only the SHA-256 hash and the last four
// characters are stored; the value exists once, in the answer to its creation. Used by the CLI and the web page.
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { isStorableText } from "@/lib/core/validation";
import { tenantDb } from "@/lib/db/tenant";
import type { PrismaClient } from "@/lib/generated/prisma/client";

export const TOKEN_PREFIX = "cjt_";
export const TOKEN_PATTERN = /^cjt_[A-Za-z0-9_-]{43}$/;

export const tokenNameSchema = z
  .string()
  .trim()
  .min(1, "Give the token a name.")
  .max(100, "The name may be at most 100 characters.")
  .refine(isStorableText, "The name may not contain NUL or unpaired surrogate characters.");

export function generateTokenValue(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(request.headers.get("authorization") ?? "");
  return match ? match[1] : null;
}

export function hashToken(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export interface TokenSummary {
  id: number;
  name: string;
  lastFour: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const summaryFields = { id: true, name: true, lastFour: true, createdAt: true, lastUsedAt: true } as const;

/** Mints a token for a user and returns its value: the only time the value is ever available. */
export async function createApiToken(
  client: PrismaClient,
  owner: { tenantId: number; userId: number },
  name: string,
  value: string = generateTokenValue(),
): Promise<{ token: string; summary: TokenSummary }> {
  const summary = await tenantDb(client, owner.tenantId).apiToken.create({
    data: {
      tenantId: owner.tenantId,
      userId: owner.userId,
      name: tokenNameSchema.parse(name),
      tokenHash: hashToken(value),
      lastFour: value.slice(-4),
    },
    select: summaryFields,
  });
  return { token: value, summary };
}

export function listApiTokens(client: PrismaClient, owner: { tenantId: number; userId: number }) {
  return tenantDb(client, owner.tenantId).apiToken.findMany({
    where: { userId: owner.userId },
    select: summaryFields,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}

/** Deletes one of the owner's tokens; someone else's token id matches nothing. Returns whether one was deleted. */
export async function revokeApiToken(client: PrismaClient, owner: { tenantId: number; userId: number }, id: number) {
  const { count } = await tenantDb(client, owner.tenantId).apiToken.deleteMany({ where: { id, userId: owner.userId } });
  return count > 0;
}

/** Finds the one active user with this email (in `tenantId` when given) and mints a token for them. */
export async function createApiTokenForEmail(client: PrismaClient, email: string, name: string, tenantId?: number) {
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
  const { token } = await createApiToken(client, { tenantId: user.tenantId, userId: user.id }, name);
  return { token, user };
}
