import { beforeEach, describe, expect, it, vi } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import * as me from "@/app/api/v1/me/route";
import { createToken, deleteToken, revokeFirmTokenAction } from "@/app/settings/api-tokens/actions";
import type { SignedInUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db/client";
import { createApiToken, listApiTokens, MAX_LIVE_TOKENS_PER_USER } from "@/lib/tokens";
import { FULL_ACCESS, NO_ACCESS, READ_ONLY } from "@/lib/tokens/access";
import { call, userByEmail } from "../support/api";

// The actions read the signed-in person from the session; here the test decides who that is.
const session = vi.hoisted(() => ({ user: null as SignedInUser | null }));
vi.mock("@/lib/auth/session", () => ({
  requireSignedInUser: async () => {
    if (!session.user) throw new Error("not signed in");
    return session.user;
  },
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

async function signInAs(email: string) {
  const user = await userByEmail(email);
  session.user = {
    tenantId: user.tenantId,
    userId: user.id,
    name: user.firstname,
    email: user.email,
    timezone: user.timezone,
  };
  return session.user;
}

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

/** The custom access selects: every resource "none" but those given. */
const customAccess = (levels: Record<string, string>) =>
  Object.fromEntries(Object.entries({ ...NO_ACCESS, ...levels }).map(([r, level]) => [`access.${r}`, level]));

/** The creation form as the page sends it, with its defaults. */
const newToken = (fields: Record<string, string>) =>
  form({ name: "Script", expires: "never", preset: "full", ...fields });

beforeEach(() => {
  session.user = null;
});

describe("the create token action", () => {
  it("creates a token of the signed-in person and answers its value once", async () => {
    const user = await signInAs("standard@acme.test");
    const state = await createToken({ status: "idle" }, newToken({ name: "  Reports  " }));
    if (state.status !== "created") throw new Error(`expected a token, got ${JSON.stringify(state)}`);
    expect(state.name).toBe("Reports");
    expect((await call(me, "GET", "me", { token: state.token })).body.email).toBe("standard@acme.test");
    expect((await listApiTokens(await prisma(), user)).map((t) => t.name)).toContain("Reports");
  });

  it("answers a message and creates nothing for a blank or too long name", async () => {
    const user = await signInAs("viewer@acme.test");
    const refusal = (error: string) => ({ status: "invalid", error, values: expect.any(Object) });
    expect(await createToken({ status: "idle" }, newToken({ name: "   " }))).toEqual(refusal("Give the token a name."));
    expect(await createToken({ status: "idle" }, newToken({ name: "x".repeat(101) }))).toEqual(
      refusal("The name may be at most 100 characters."),
    );
    expect(await createToken({ status: "idle" }, newToken({ expires: "1000" }))).toEqual(
      refusal("Choose an expiry and the access."),
    );
    for (const fields of [
      { preset: "admin" },
      { preset: "custom" },
      { preset: "custom", ...customAccess({ time_logs: "write" }) },
      { preset: "custom", ...customAccess({ clients: "all" }) },
    ])
      expect(await createToken({ status: "idle" }, newToken(fields))).toEqual(
        refusal("Choose an expiry and the access."),
      );
    expect(await listApiTokens(await prisma(), user)).toEqual([]);
  });

  it("refuses a token with no access at all, which could do nothing", async () => {
    const user = await signInAs("viewer@acme.test");
    expect(await createToken({ status: "idle" }, newToken({ preset: "custom", ...customAccess({}) }))).toMatchObject({
      status: "invalid",
      error: "Give the token access to at least one resource: with none, it can do nothing.",
    });
    expect(await listApiTokens(await prisma(), user)).toEqual([]);
  });

  it("answers what was sent with a refusal, for the form to show again", async () => {
    await signInAs("viewer@acme.test");
    const sent = newToken({
      name: "x".repeat(101),
      expires: "30",
      preset: "custom",
      ...customAccess({ jobs: "read" }),
    });
    const state = await createToken({ status: "idle" }, sent);
    expect(state).toMatchObject({
      status: "invalid",
      values: { name: "x".repeat(101), expires: "30", preset: "custom", access: { ...NO_ACCESS, jobs: "read" } },
    });
  });

  it("gives the token the chosen expiry and access", async () => {
    const user = await signInAs("admin@acme.test");
    const week = await createToken({ status: "idle" }, newToken({ name: "week", expires: "7", preset: "read" }));
    const forever = await createToken({ status: "idle" }, newToken({ name: "forever", expires: "never" }));
    if (week.status !== "created" || forever.status !== "created") throw new Error("expected two tokens");
    const listed = await listApiTokens(await prisma(), user);
    const byId = (id: number) => listed.find((t) => t.id === id)!;
    expect(byId(week.id).access).toEqual(READ_ONLY);
    expect(byId(week.id).expiresAt!.getTime()).toBeGreaterThan(Date.now() + 6.99 * 86_400_000);
    expect(byId(week.id).expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000);
    expect(byId(forever.id)).toMatchObject({ access: FULL_ACCESS, expiresAt: null });
    expect((await call(clients, "POST", "clients", { token: week.token, body: { name: "X" } })).status).toBe(403);
  });

  it("gives a custom token the levels chosen per resource", async () => {
    const user = await signInAs("admin@acme.test");
    const state = await createToken(
      { status: "idle" },
      newToken({ name: "custom", preset: "custom", ...customAccess({ clients: "read", jobs: "write" }) }),
    );
    if (state.status !== "created") throw new Error(`expected a token, got ${JSON.stringify(state)}`);
    const listed = (await listApiTokens(await prisma(), user)).find((t) => t.id === state.id)!;
    expect(listed.access).toEqual({ ...NO_ACCESS, clients: "read", jobs: "write" });
    expect((await call(clients, "GET", "clients", { token: state.token })).status).toBe(200);
    const refused = await call(clients, "POST", "clients", { token: state.token, body: { name: "X" } });
    expect(refused).toMatchObject({ status: 403, body: { message: "This token can only read clients." } });
  });

  it("says so when the person already has the most live tokens", async () => {
    const user = await signInAs("assigned@acme.test");
    const held = (await listApiTokens(await prisma(), user)).length;
    for (let i = held; i < MAX_LIVE_TOKENS_PER_USER; i++) await createApiToken(await prisma(), user, `t${i}`);
    const state = await createToken({ status: "idle" }, newToken({ name: "one more" }));
    expect(state).toMatchObject({ status: "invalid", error: expect.stringMatching(/^50 live tokens is the most/) });
  });
});

describe("the delete token action", () => {
  it("deletes nothing when given the id of someone else's token, in the same tenant or another", async () => {
    const client = await prisma();
    const colleague = await userByEmail("owner@acme.test");
    const outsider = await userByEmail("owner@birch.test");
    const colleagues = await createApiToken(
      client,
      { tenantId: colleague.tenantId, userId: colleague.id },
      "colleague's",
    );
    const outsiders = await createApiToken(client, { tenantId: outsider.tenantId, userId: outsider.id }, "outsider's");

    await signInAs("admin@acme.test");
    await deleteToken(form({ id: String(colleagues.summary.id) }));
    await deleteToken(form({ id: String(outsiders.summary.id) }));
    await deleteToken(form({ id: "not a number" }));

    expect((await call(me, "GET", "me", { token: colleagues.token })).status).toBe(200);
    expect((await call(me, "GET", "me", { token: outsiders.token })).status).toBe(200);
  });

  it("deletes the signed-in person's own token, which stops working at once", async () => {
    const user = await signInAs("groups@acme.test");
    const { token, summary } = await createApiToken(await prisma(), user, "mine");
    await deleteToken(form({ id: String(summary.id) }));
    expect((await call(me, "GET", "me", { token })).status).toBe(401);
    expect(await listApiTokens(await prisma(), user)).toEqual([]);
  });
});

describe("the revoke firm token action", () => {
  async function tokenOf(email: string) {
    const user = await userByEmail(email);
    return createApiToken(await prisma(), { tenantId: user.tenantId, userId: user.id }, `${email}'s`);
  }

  it("lets an Admin revoke a colleague's token, which stops working at once", async () => {
    const colleague = await tokenOf("standard@acme.test");
    await signInAs("admin@acme.test");
    await revokeFirmTokenAction(form({ id: String(colleague.summary.id) }));
    expect((await call(me, "GET", "me", { token: colleague.token })).status).toBe(401);
  });

  it("matches nothing in another tenant, even for its Owner", async () => {
    const outsider = await tokenOf("standard@birch.test");
    await signInAs("owner@acme.test");
    await revokeFirmTokenAction(form({ id: String(outsider.summary.id) }));
    expect((await call(me, "GET", "me", { token: outsider.token })).status).toBe(200);
  });

  it("refuses a Standard user, whose colleague's token keeps working", async () => {
    const colleague = await tokenOf("admin@acme.test");
    await signInAs("standard@acme.test");
    // No such form on a Standard user's page: a forged one revokes nothing, and is no 500 (the action does not throw).
    await expect(revokeFirmTokenAction(form({ id: String(colleague.summary.id) }))).resolves.toBeUndefined();
    expect((await call(me, "GET", "me", { token: colleague.token })).status).toBe(200);
  });
});
