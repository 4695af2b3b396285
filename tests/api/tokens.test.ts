import { randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import * as me from "@/app/api/v1/me/route";
import { authenticate } from "@/lib/api/authenticate";
import { prisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import {
  createApiToken,
  generateTokenValue,
  isWellFormedToken,
  listApiTokens,
  MAX_LIVE_TOKENS_PER_USER,
  type NewTokenOptions,
  TokenLimitError,
} from "@/lib/tokens";
import { FULL_ACCESS, READ_ONLY } from "@/lib/tokens/access";
import { call, userByEmail } from "../support/api";

/** The same token with one character of its random part changed: the checksum no longer matches. */
function mistyped(token: string): string {
  const i = 10;
  return token.slice(0, i) + (token[i] === "a" ? "b" : "a") + token.slice(i + 1);
}

describe("token format", () => {
  it("is cjt_, 43 base62 characters and a 6-character base62 checksum", () => {
    const tokens = Array.from({ length: 200 }, generateTokenValue);
    for (const token of tokens) {
      expect(token).toMatch(/^cjt_[0-9A-Za-z]{49}$/);
      expect(isWellFormedToken(token)).toBe(true);
      expect(isWellFormedToken(mistyped(token))).toBe(false);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it("refuses a bad checksum with a 401 without querying the database", async () => {
    const read = vi.fn();
    const db = { read, prisma: {} as PrismaClient, kind: "postgres" as const };
    await expect(authenticate(db, mistyped(generateTokenValue()))).rejects.toMatchObject({ status: 401 });
    expect(read).not.toHaveBeenCalled();
  });

  it("answers 401 for an issued token with one character mistyped", async () => {
    const user = await userByEmail("owner@acme.test");
    const { token } = await createApiToken(await prisma(), { tenantId: user.tenantId, userId: user.id }, "typo");
    expect((await call(me, "GET", "me", { token })).status).toBe(200);
    expect((await call(me, "GET", "me", { token: mistyped(token) })).status).toBe(401);
  });

  it("keeps accepting tokens of the old format (base64url, no checksum)", async () => {
    const user = await userByEmail("owner@acme.test");
    const old = `cjt_${randomBytes(32).toString("base64url")}`;
    await createApiToken(await prisma(), { tenantId: user.tenantId, userId: user.id }, "old format", { value: old });
    const res = await call(me, "GET", "me", { token: old });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe("owner@acme.test");
  });
});

async function tokenOf(email: string, options: NewTokenOptions = {}) {
  const user = await userByEmail(email);
  return createApiToken(await prisma(), { tenantId: user.tenantId, userId: user.id }, "test", options);
}

describe("token expiry", () => {
  it("works until it expires, then answers 401 saying it expired", async () => {
    const { token, summary } = await tokenOf("admin@acme.test", { expiresInDays: 7 });
    const days = (summary.expiresAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    expect((await call(me, "GET", "me", { token })).status).toBe(200);

    const user = await userByEmail("admin@acme.test");
    await (await prisma()).apiToken.updateMany({
      where: { tenantId: user.tenantId, id: summary.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await call(me, "GET", "me", { token });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/expired/);
  });

  it("never expires without an expiry", async () => {
    const { token, summary } = await tokenOf("admin@acme.test", { expiresInDays: null });
    expect(summary.expiresAt).toBeNull();
    expect((await call(me, "GET", "me", { token })).status).toBe(200);
  });
});

describe("the Read-only preset (the old read scope)", () => {
  it("lets a read-only token read and refuses its writes with 403 before the body is looked at", async () => {
    const { token, summary } = await tokenOf("owner@acme.test", { access: READ_ONLY });
    expect(summary.access).toEqual(READ_ONLY);
    expect((await call(clients, "GET", "clients", { token })).status).toBe(200);
    for (const body of [{ name: "Read-only Ltd" }, {}]) {
      const res = await call(clients, "POST", "clients", { token, body });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "This token is read-only." });
    }
    const user = await userByEmail("owner@acme.test");
    expect(await (await prisma()).client.count({ where: { tenantId: user.tenantId, name: "Read-only Ltd" } })).toBe(0);
  });

  it("lets a token made without an access (Full access) write", async () => {
    const { token, summary } = await tokenOf("owner@acme.test");
    expect(summary.access).toEqual(FULL_ACCESS);
    const res = await call(clients, "POST", "clients", { token, body: { name: "Read-write Ltd" } });
    expect(res.status).toBe(201);
  });
});

describe("the live token limit", () => {
  it(`allows ${MAX_LIVE_TOKENS_PER_USER} live tokens per person; expired ones do not count`, async () => {
    const client = await prisma();
    const user = await userByEmail("viewer@acme.test");
    const owner = { tenantId: user.tenantId, userId: user.id };
    const held = (await listApiTokens(client, owner)).length;
    for (let i = held; i < MAX_LIVE_TOKENS_PER_USER; i++) await createApiToken(client, owner, `token ${i}`);
    await expect(createApiToken(client, owner, "one too many")).rejects.toThrow(/50 live tokens is the most/);

    const [oldest] = (await listApiTokens(client, owner)).slice(-1);
    await client.apiToken.updateMany({
      where: { tenantId: owner.tenantId, id: oldest.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await createApiToken(client, owner, "replaces an expired one");
    await expect(createApiToken(client, owner, "one too many")).rejects.toThrow(/50 live tokens is the most/);
    // Expired tokens are listed last.
    expect((await listApiTokens(client, owner)).at(-1)!.id).toBe(oldest.id);
  });

  it("holds under 60 concurrent creates", async () => {
    const client = await prisma();
    const user = await userByEmail("assigned@acme.test");
    const owner = { tenantId: user.tenantId, userId: user.id };
    const held = (await listApiTokens(client, owner)).length;
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => createApiToken(client, owner, `parallel ${i}`)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_LIVE_TOKENS_PER_USER - held);
    for (const result of results)
      if (result.status === "rejected") expect(result.reason).toBeInstanceOf(TokenLimitError);
    expect(await client.apiToken.count({ where: { tenantId: owner.tenantId, userId: owner.userId } })).toBe(
      MAX_LIVE_TOKENS_PER_USER,
    );
  });
});

describe("the token's last use", () => {
  it("keeps time, address (from a trusted proxy only) and user agent, written at most once a minute", async () => {
    const client = await prisma();
    const { token, summary } = await tokenOf("admin@acme.test");
    const stored = async () =>
      client.apiToken.findFirstOrThrow({
        where: { tenantId: (await userByEmail("admin@acme.test")).tenantId, id: summary.id },
      });
    const headers = { "User-Agent": "report-script/1.0", "X-Forwarded-For": "203.0.113.7" };
    vi.stubEnv("TRUST_PROXY", "false");
    await call(me, "GET", "me", { token, headers });
    expect(await stored()).toMatchObject({ lastUsedAddress: null, lastUsedUserAgent: "report-script/1.0" });

    // Within the minute nothing is written, whatever the request says.
    vi.stubEnv("TRUST_PROXY", "true");
    await call(me, "GET", "me", { token, headers: { ...headers, "User-Agent": "other/2.0" } });
    const first = await stored();
    expect(first.lastUsedUserAgent).toBe("report-script/1.0");

    // A minute on (the clock moves, not the stored time: the instance may hold the token's row in its cache).
    vi.spyOn(Date, "now").mockReturnValue(first.lastUsedAt!.getTime() + 61_000);
    await call(me, "GET", "me", { token, headers: { ...headers, "User-Agent": "other/2.0" } });
    expect(await stored()).toMatchObject({ lastUsedAddress: "203.0.113.7", lastUsedUserAgent: "other/2.0" });
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });
});
