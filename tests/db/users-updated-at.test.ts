// A user's updated_at moves when what the API shows of the user changes, and only then: signing out and changing
// the password (session_version, password_hash) leave it (migration 20261124000001_users_updated_at_visible_columns).
import { beforeEach, describe, expect, it } from "vitest";
import * as userRoute from "@/app/api/v1/users/[id]/route";
import { changePassword, endSessions } from "@/lib/auth/account";
import { prisma } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { call, tokenFor, userByEmail } from "../support/api";

const LONG_AGO = new Date("2020-01-01T00:00:00.000Z");
let user: Awaited<ReturnType<typeof userByEmail>>;

beforeEach(async () => {
  user = await userByEmail("standard@acme.test");
  // Setting updated_at alone changes no shown column: the trigger leaves the value given.
  await (await prisma()).user.update({
    where: { tenantId_id: { tenantId: user.tenantId, id: user.id } },
    data: { updatedAt: LONG_AGO },
  });
});

const stored = async () =>
  (await (await prisma()).user.findFirstOrThrow({ where: { tenantId: user.tenantId, id: user.id } })).updatedAt;
const update = async (data: Prisma.UserUpdateInput) =>
  (await prisma()).user.update({ where: { tenantId_id: { tenantId: user.tenantId, id: user.id } }, data });

describe("users.updated_at", () => {
  it("stays on sign-out everywhere and on a password change", async () => {
    const owner = { tenantId: user.tenantId, userId: user.id };
    await endSessions(owner, user.sessionVersion);
    expect(await stored()).toEqual(LONG_AGO);
    expect(await changePassword(owner, "demo-password", "another-password-1")).not.toBeNull();
    expect(await stored()).toEqual(LONG_AGO);
    const res = await call(userRoute, "GET", `users/${user.id}`, {
      token: await tokenFor("owner@acme.test"),
      params: { id: String(user.id) },
    });
    expect(res.body.updated_at).toBe(LONG_AGO.toISOString());
  });

  it.each<[string, () => Prisma.UserUpdateInput]>([
    ["firstname", () => ({ firstname: "Samuel" })],
    ["lastname", () => ({ lastname: "Standards" })],
    ["email, also only its case", () => ({ email: user.email.toUpperCase() })],
    ["timezone", () => ({ timezone: "Europe/Paris" })],
    ["client_access", () => ({ clientAccess: "client_groups" })],
    ["is_owner", () => ({ isOwner: !user.isOwner })],
    ["avatar_url", () => ({ avatarUrl: "https://example.com/a.png" })],
    ["archived_date", () => ({ archivedDate: new Date("2026-01-01") })],
  ])("moves when %s changes", async (_, data) => {
    await update(data());
    expect((await stored()).getTime()).toBeGreaterThan(LONG_AGO.getTime());
  });

  it("moves when the role changes", async () => {
    const admin = await (await prisma()).role.findFirstOrThrow({ where: { tenantId: user.tenantId, name: "Admin" } });
    await update({ role: { connect: { tenantId_id: { tenantId: user.tenantId, id: admin.id } } } });
    expect((await stored()).getTime()).toBeGreaterThan(LONG_AGO.getTime());
  });

  it("stays when a write sets the shown columns to what they were", async () => {
    await update({ firstname: user.firstname, timezone: user.timezone, sessionVersion: { increment: 1 } });
    expect(await stored()).toEqual(LONG_AGO);
  });
});
