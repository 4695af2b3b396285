import { describe, expect, it } from "vitest";
import * as me from "@/app/api/v1/me/route";
import { prisma } from "@/lib/db/client";
import { createApiTokenForEmail, listApiTokens, revokeApiToken } from "@/lib/tokens";
import { call, userByEmail } from "../support/api";

describe("minting a token from the terminal (npm run token:create)", () => {
  it("mints a working token for a user found by email, shown once", async () => {
    const client = await prisma();
    const { token, user } = await createApiTokenForEmail(client, "ADMIN@acme.test", "From the CLI");
    expect(token).toMatch(/^cjt_[0-9A-Za-z]{49}$/);
    expect(user.email).toBe("admin@acme.test");
    const res = await call(me, "GET", "me", { token });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe("admin@acme.test");
    const listed = await listApiTokens(client, { tenantId: user.tenantId, userId: user.id });
    expect(listed.find((t) => t.name === "From the CLI")).toMatchObject({
      lastFour: token.slice(-4),
      lastUsedAt: expect.any(Date),
    });
    expect(JSON.stringify(listed)).not.toContain(token);
  });

  it("refuses unknown and archived users, and names that are empty or too long", async () => {
    const client = await prisma();
    await expect(createApiTokenForEmail(client, "nobody@acme.test", "x")).rejects.toThrow(/No active user/);
    await expect(createApiTokenForEmail(client, "archived@acme.test", "x")).rejects.toThrow(/No active user/);
    await expect(createApiTokenForEmail(client, "owner@acme.test", "   ")).rejects.toThrow(/name/);
    await expect(createApiTokenForEmail(client, "owner@acme.test", "x".repeat(101))).rejects.toThrow(/100/);
    await expect(createApiTokenForEmail(client, "owner@acme.test", "nul\u0000name")).rejects.toThrow(/NUL/);
  });

  it("revokes only the owner's own tokens", async () => {
    const client = await prisma();
    const { user } = await createApiTokenForEmail(client, "owner@acme.test", "mine");
    const other = await userByEmail("admin@acme.test");
    const [mine] = await listApiTokens(client, { tenantId: user.tenantId, userId: user.id });
    expect(await revokeApiToken(client, { tenantId: other.tenantId, userId: other.id }, mine.id)).toBe(false);
    expect(await revokeApiToken(client, { tenantId: user.tenantId, userId: user.id }, mine.id)).toBe(true);
  });
});
