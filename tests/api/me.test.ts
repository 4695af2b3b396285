import { describe, expect, it, vi } from "vitest";
import * as me from "@/app/api/v1/me/route";
import { prisma } from "@/lib/db/client";
import { createApiToken, generateTokenValue, hashToken, revokeApiToken } from "@/lib/tokens";
import { call, tokenFor, userByEmail } from "../support/api";

const UNAUTHENTICATED = { message: expect.stringMatching(/^Unauthenticated/) };

describe("GET /me", () => {
  it("answers the token owner's profile with exactly the spec's fields", async () => {
    const res = await call(me, "GET", "me", { token: await tokenFor("owner@acme.test") });
    const owner = await userByEmail("owner@acme.test");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      id: owner.id,
      firstname: "Olivia",
      lastname: "Owner",
      email: "owner@acme.test",
      fullname: "Olivia Owner",
      timezone: "Europe/London",
      active: true,
    });
  });

  it("acts as the user of the token, in that user's tenant", async () => {
    const res = await call(me, "GET", "me", { token: await tokenFor("owner@birch.test") });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: "owner@birch.test", fullname: "Bea Birch", timezone: "Europe/Dublin" });
  });
});

describe("token authentication", () => {
  it("is 401 without an Authorization header", async () => {
    const res = await call(me, "GET", "me");
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHENTICATED);
  });

  it.each([
    ["another scheme", `Basic ${Buffer.from("a:b").toString("base64")}`],
    ["no token after Bearer", "Bearer "],
    ["a token without the prefix", `Bearer ${"a".repeat(43)}`],
    ["a token of the wrong length", "Bearer cjt_abc"],
    ["two tokens", `Bearer ${generateTokenValue()} ${generateTokenValue()}`],
    ["SQL in the header", "Bearer ' OR 1=1 --"],
  ])("is 401 for a malformed header: %s", async (_, authorization) => {
    const res = await call(me, "GET", "me", { headers: { Authorization: authorization } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHENTICATED);
  });

  it("is 401 for a well-formed token that was never issued", async () => {
    const res = await call(me, "GET", "me", { token: generateTokenValue() });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHENTICATED);
  });

  it("is 401 once the token is revoked", async () => {
    const client = await prisma();
    const owner = await userByEmail("admin@acme.test");
    const { token, summary } = await createApiToken(
      client,
      { tenantId: owner.tenantId, userId: owner.id },
      "to revoke",
    );
    expect((await call(me, "GET", "me", { token })).status).toBe(200);
    expect(await revokeApiToken(client, { tenantId: owner.tenantId, userId: owner.id }, summary.id)).toBe(true);
    const res = await call(me, "GET", "me", { token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHENTICATED);
  });

  it("is 401 for a token of an archived user", async () => {
    const client = await prisma();
    const archived = await userByEmail("archived@acme.test");
    const { token } = await createApiToken(client, { tenantId: archived.tenantId, userId: archived.id }, "old");
    const res = await call(me, "GET", "me", { token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHENTICATED);
  });

  it("accepts the scheme name in any case", async () => {
    const res = await call(me, "GET", "me", {
      headers: { Authorization: `bearer ${await tokenFor("owner@acme.test")}` },
    });
    expect(res.status).toBe(200);
  });

  it("stores only the token's hash and last four characters", async () => {
    const client = await prisma();
    const owner = await userByEmail("owner@acme.test");
    const { token, summary } = await createApiToken(client, { tenantId: owner.tenantId, userId: owner.id }, "stored");
    const row = await client.apiToken.findFirstOrThrow({ where: { tenantId: owner.tenantId, id: summary.id } });
    expect(row.tokenHash).toBe(hashToken(token));
    expect(row.lastFour).toBe(token.slice(-4));
    expect(JSON.stringify(row)).not.toContain(token.slice(4, 40));
  });

  it("records last use at most once a minute", async () => {
    const client = await prisma();
    const owner = await userByEmail("standard@acme.test");
    const { token, summary } = await createApiToken(client, { tenantId: owner.tenantId, userId: owner.id }, "usage");
    const where = { tenantId: owner.tenantId, id: summary.id };
    const lastUsed = async () => (await client.apiToken.findFirstOrThrow({ where })).lastUsedAt;
    expect(await lastUsed()).toBeNull();

    await call(me, "GET", "me", { token });
    const first = await lastUsed();
    expect(first).not.toBeNull();

    // The clock moves, not the stored time: an instance may hold the token's row in its cache (lib/auth/token-cache.ts).
    const now = vi.spyOn(Date, "now");
    try {
      now.mockReturnValue(first!.getTime() + 30_000);
      await call(me, "GET", "me", { token });
      expect(await lastUsed()).toEqual(first);

      now.mockReturnValue(first!.getTime() + 61_000);
      await call(me, "GET", "me", { token });
      expect(await lastUsed()).toEqual(new Date(first!.getTime() + 61_000));
    } finally {
      now.mockRestore();
    }
  });
});
