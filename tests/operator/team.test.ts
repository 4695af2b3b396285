// A firm's people from the command line (npm run user:create, user:archive), on the demo firms.
import { describe, expect, it } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import * as me from "@/app/api/v1/me/route";
import { verifyCredentials } from "@/lib/auth/sign-in";
import { prisma } from "@/lib/db/client";
import { archiveUser, createUser } from "@/lib/team/mutations";
import { createApiTokenForEmail } from "@/lib/tokens";
import { call } from "../support/api";
import { refusal } from "../support/operator";

const acmeUsers = async () => (await prisma()).user.count({ where: { tenant: { name: "Acme Accounting" } } });

describe("adding a person to a firm", () => {
  it("adds them with a role, client access and client groups (made when new), and a password that signs in", async () => {
    const client = await prisma();
    const { tenant, user, role, password, createdGroups } = await createUser(client, {
      tenant: "acme accounting",
      email: "new.person@acme.test",
      name: "New Person",
      role: "viewer",
      clientAccess: "client_groups",
      clientGroups: ["North", "Audit"],
    });
    expect(role).toBe("Viewer");
    expect(createdGroups).toEqual(["Audit"]);
    expect(user).toMatchObject({ isOwner: false, clientAccess: "client_groups", timezone: tenant.timezone });
    const groups = await client.userClientGroup.findMany({
      where: { tenantId: tenant.id, userId: user.id },
      include: { group: true },
    });
    expect(groups.map((g) => g.group.name).sort()).toEqual(["Audit", "North"]);
    expect(await verifyCredentials(client, "new.person@acme.test", password)).toMatchObject({ userId: user.id });
    const { token } = await createApiTokenForEmail(client, "new.person@acme.test", "t");
    expect((await call(me, "GET", "me", { token })).body).toMatchObject({ email: "new.person@acme.test" });
    // A Viewer reads but may not write.
    expect((await call(clients, "POST", "clients", { token, body: { name: "Nope" } })).status).toBe(403);
  });

  it("finds the firm by id too, and defaults to Standard with access to all clients", async () => {
    const client = await prisma();
    const birch = await client.tenant.findFirstOrThrow({ where: { name: "Birch Bookkeeping" } });
    const { user, role } = await createUser(client, { tenant: String(birch.id), email: "x@birch.test", name: "X Y" });
    expect([role, user.clientAccess, user.tenantId]).toEqual(["Standard", "all", birch.id]);
  });

  it("refuses an email the firm has (any case, archived too), a second Owner, an unknown role or firm", async () => {
    const client = await prisma();
    const before = await acmeUsers();
    const base = { tenant: "Acme Accounting", name: "Someone" };
    expect((await refusal(createUser(client, { ...base, email: "ADMIN@acme.test" }))).email).toEqual([
      "Acme Accounting already has a user with the email ADMIN@acme.test.",
    ]);
    expect((await refusal(createUser(client, { ...base, email: "archived@acme.test" }))).email).toHaveLength(1);
    expect((await refusal(createUser(client, { ...base, email: "o2@acme.test", role: "Owner" }))).role).toEqual([
      "A firm has one Owner, made with the firm. Choose one of: Admin, Standard, Viewer.",
    ]);
    expect((await refusal(createUser(client, { ...base, email: "o2@acme.test", role: "Boss" }))).role[0]).toMatch(
      /Acme Accounting has no role "Boss"\. Choose one of: Admin, Standard, Viewer\./,
    );
    expect((await refusal(createUser(client, { ...base, tenant: "Nope Ltd", email: "n@x.test" }))).tenant).toEqual([
      'No firm has the id or name "Nope Ltd".',
    ]);
    expect(await acmeUsers()).toBe(before);
  });

  it("refuses bad input, naming each field", async () => {
    const client = await prisma();
    const fields = await refusal(
      createUser(client, {
        tenant: "Acme Accounting",
        email: "bad",
        name: "",
        clientAccess: "some" as never,
        timezone: "Nowhere/Town",
      }),
    );
    expect(Object.keys(fields).sort()).toEqual(["clientAccess", "email", "name", "timezone"]);
    expect(fields.clientAccess).toEqual(["Must be one of: all, client_groups, assigned_clients."]);
    const groups = await refusal(
      createUser(client, { tenant: "Acme Accounting", email: "g@acme.test", name: "G", clientAccess: "client_groups" }),
    );
    expect(groups.clientGroups).toEqual(["Client access client_groups needs at least one client group."]);
  });

  it("names every field at fault at once: the firm, its role and the email are checked beside the input's shape", async () => {
    const client = await prisma();
    const before = await acmeUsers();
    const acme = await refusal(
      createUser(client, {
        tenant: "Acme Accounting",
        email: "admin@acme.test",
        name: "",
        role: "Boss",
        timezone: "Nowhere/Town",
      }),
    );
    expect(Object.keys(acme).sort()).toEqual(["email", "name", "role", "timezone"]);
    expect(acme.email).toEqual(["Acme Accounting already has a user with the email admin@acme.test."]);
    const nowhere = await refusal(
      createUser(client, { tenant: "Nope Ltd", email: "bad", name: "N", clientAccess: "some" as never }),
    );
    expect(Object.keys(nowhere).sort()).toEqual(["clientAccess", "email", "tenant"]);
    expect(await acmeUsers()).toBe(before);
  });
});

describe("archiving a person", () => {
  it("stops their sign-in and their tokens", async () => {
    const client = await prisma();
    const { token } = await createApiTokenForEmail(client, "standard@acme.test", "before archiving");
    expect((await call(me, "GET", "me", { token })).status).toBe(200);
    const before = await client.user.findFirstOrThrow({ where: { email: "standard@acme.test" } });
    const { user } = await archiveUser(client, { tenant: "Acme Accounting", email: "Standard@acme.test" });
    expect(user.archivedDate).toEqual(new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`));
    expect(await verifyCredentials(client, "standard@acme.test", "demo-password")).toBeNull();
    expect((await call(me, "GET", "me", { token })).status).toBe(401);
    // For good: sessions end (a new session version) and tokens are revoked, so unarchiving brings neither back.
    expect(user.sessionVersion).toBe(before.sessionVersion + 1);
    expect(await client.apiToken.count({ where: { tenantId: user.tenantId, userId: user.id } })).toBe(0);
  });

  it("refuses the Owner, someone already archived, and an unknown email", async () => {
    const client = await prisma();
    const acme = { tenant: "Acme Accounting" };
    expect((await refusal(archiveUser(client, { ...acme, email: "owner@acme.test" }))).email).toEqual([
      "owner@acme.test is the Owner of Acme Accounting and cannot be archived.",
    ]);
    expect((await refusal(archiveUser(client, { ...acme, email: "archived@acme.test" }))).email[0]).toMatch(
      /^archived@acme\.test was already archived on \d{4}-\d\d-\d\d\.$/,
    );
    expect((await refusal(archiveUser(client, { ...acme, email: "owner@birch.test" }))).email).toEqual([
      "Acme Accounting has no user with the email owner@birch.test.",
    ]);
    expect(await verifyCredentials(client, "owner@acme.test", "demo-password")).not.toBeNull();
  });
});
