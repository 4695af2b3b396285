// The team page (/settings/team) and the invite page (/invite/<token>): their server actions and the lib/team
// functions behind them, with real sessions (a next-auth session as the cookie would carry it, checked against the
// user's session version on every call) and real tokens through the API.
import { createHash } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import * as me from "@/app/api/v1/me/route";
import { setPasswordAction } from "@/app/invite/[token]/actions";
import {
  archiveMemberAction,
  type InviteState,
  inviteAction,
  renewInviteAction,
  unarchiveMemberAction,
  updateMemberAction,
} from "@/app/settings/team/actions";
import { signedInUser } from "@/lib/auth/session";
import { verifyCredentials } from "@/lib/auth/sign-in";
import { prisma } from "@/lib/db/client";
import { DEMO_PASSWORD } from "@/lib/demo/seed";
import { TeamPermissionError } from "@/lib/team/errors";
import { acceptInvite } from "@/lib/team/mutations";
import { canManageTeam, listTeam, lookupInvite } from "@/lib/team/queries";
import { createApiToken } from "@/lib/tokens";
import { call, userByEmail } from "../support/api";
import { buttons, listItems, pageHtml, textOf } from "../support/page-html";

const current = vi.hoisted(() => ({ session: null as unknown }));
vi.mock("next-auth", async (original) => ({
  ...(await original<typeof import("next-auth")>()),
  getServerSession: async () => current.session,
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

/** Signs in as the person: a session at their current session version, as a fresh sign-in would carry. */
async function signInAs(email: string) {
  const user = await userByEmail(email);
  const token = { tenantId: user.tenantId, userId: user.id, sessionVersion: user.sessionVersion };
  current.session = { user: token, expires: "" };
  return { user, session: current.session };
}

function form(fields: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields))
    for (const one of Array.isArray(value) ? value : [value]) data.append(name, one);
  return data;
}

const idle = { status: "idle" } as const;

async function roleId(tenantName: string, role: string) {
  const found = await (await prisma()).role.findFirstOrThrow({ where: { name: role, tenant: { name: tenantName } } });
  return String(found.id);
}

async function groupIds(tenantName: string) {
  const groups = await (await prisma()).clientGroup.findMany({
    where: { tenant: { name: tenantName } },
    orderBy: { id: "asc" },
  });
  return groups.map((g) => String(g.id));
}

const ACME = "Acme Accounting";
const BIRCH = "Birch Bookkeeping";

let invites = 0;

/** The invite form as the page sends it: a new person (a fresh email each time) with the Standard role. */
async function invite(fields: Partial<Record<string, string | string[]>> = {}) {
  return inviteAction(
    idle,
    form({
      name: "Nora New",
      email: `nora.${++invites}@acme.test`,
      roleId: await roleId(ACME, "Standard"),
      clientAccess: "all",
      ...(fields as Record<string, string | string[]>),
    }),
  );
}

function invited(state: InviteState) {
  if (state.status !== "invited") throw new Error(`expected an invite, got ${JSON.stringify(state)}`);
  return { ...state, token: state.link.split("/").at(-1) as string };
}

const userCount = async () => (await prisma()).user.count();
const meWith = async (token: string) => (await call(me, "GET", "me", { token })).status;

beforeEach(() => {
  current.session = null;
});

describe("inviting a person", () => {
  it("adds them without a password, with role, access and groups, and a 7-day link stored only as its SHA-256", async () => {
    await signInAs("admin@acme.test");
    const [north] = await groupIds(ACME);
    const state = invited(
      await invite({ name: "  Nora  van New ", clientAccess: "client_groups", groupIds: [north, north] }),
    );
    expect(state.link).toMatch(/^http:\/\/localhost:\d+\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(state).toMatchObject({ name: "Nora van New", email: expect.stringMatching(/^nora\.\d+@acme\.test$/) });

    const client = await prisma();
    const user = await client.user.findFirstOrThrow({
      where: { email: state.email },
      include: { role: true, clientGroups: true, invites: true },
    });
    expect(user).toMatchObject({ passwordHash: null, clientAccess: "client_groups", isOwner: false });
    expect(user.role.name).toBe("Standard");
    expect(user.clientGroups.map((g) => String(g.groupId))).toEqual([north]);
    expect(user.invites).toHaveLength(1);
    const [row] = user.invites;
    expect(row.tokenHash).toBe(createHash("sha256").update(state.token).digest("hex"));
    expect(JSON.stringify(await client.userInvite.findMany())).not.toContain(state.token);
    const days = (row.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    // Listed as invited; cannot sign in before setting a password.
    const { members } = await listTeam({ tenantId: user.tenantId, userId: (await userByEmail("admin@acme.test")).id });
    expect(members.find((m) => m.email === state.email)).toMatchObject({
      status: "invited",
      groups: [{ id: Number(north) }],
    });
    expect(await verifyCredentials(client, state.email, "")).toBeNull();
  });

  it("says which field is wrong and creates nobody: name, email, taken email, access without groups", async () => {
    await signInAs("owner@acme.test");
    const before = await userCount();
    expect(await invite({ name: " ", email: "not an email" })).toMatchObject({
      status: "invalid",
      errors: { name: "Enter the person's full name.", email: "Enter a valid email address." },
      values: { name: " ", email: "not an email" },
    });
    expect(await invite({ email: "STANDARD@acme.test" })).toMatchObject({
      errors: { email: "Someone in your firm already has this email." },
    });
    expect(await invite({ email: "ARCHIVED@acme.test" })).toMatchObject({
      errors: { email: "Someone in your firm already has this email." },
    });
    expect(await invite({ clientAccess: "client_groups" })).toMatchObject({
      errors: { groupIds: expect.stringMatching(/^Choose at least one client group/) },
    });
    expect(await invite({ clientAccess: "everything" })).toMatchObject({
      errors: { clientAccess: "Choose a client access from the list." },
    });
    expect(await userCount()).toBe(before);
  });

  it("lets another firm have the same email", async () => {
    await signInAs("admin@acme.test");
    const { email } = invited(await invite());
    await signInAs("owner@birch.test");
    invited(await invite({ email, roleId: await roleId(BIRCH, "Standard") }));
  });

  it("refuses the Owner role and roles or groups of another firm, by id", async () => {
    await signInAs("admin@acme.test");
    const before = await userCount();
    expect(await invite({ roleId: await roleId(ACME, "Owner") })).toMatchObject({
      errors: { roleId: "Choose one of the roles in the list." },
    });
    expect(await invite({ roleId: await roleId(BIRCH, "Admin") })).toMatchObject({
      errors: { roleId: "Choose one of the roles in the list." },
    });
    const [birchGroup] = await groupIds(BIRCH);
    expect(await invite({ clientAccess: "client_groups", groupIds: [birchGroup] })).toMatchObject({
      errors: { groupIds: "Choose client groups from the list." },
    });
    expect(await invite({ roleId: "1e3" })).toMatchObject({ status: "invalid" });
    expect(await userCount()).toBe(before);
  });
});

describe("setting a password from an invite link", () => {
  it("follows the profile's rules, then works once: the person signs in, the link is used", async () => {
    await signInAs("admin@acme.test");
    const { token, email } = invited(await invite());
    const set = (password: string, confirmation = password) =>
      setPasswordAction(token, idle, form({ password, confirmation }));

    expect(await lookupInvite(token)).toMatchObject({
      status: "valid",
      person: { name: "Nora New", email, firm: ACME },
    });
    expect(await set("short")).toEqual({
      status: "invalid",
      errors: { password: "The password must be at least 10 characters." },
    });
    expect(await set("long enough 1", "long enough 2")).toEqual({
      status: "invalid",
      errors: { confirmation: "The two passwords differ. Type the same one twice." },
    });
    expect(await set("é".repeat(37))).toMatchObject({ errors: { password: expect.stringMatching(/72 bytes/) } });
    expect((await userByEmail(email)).passwordHash).toBeNull();

    expect(await set("correct horse battery")).toEqual({ status: "done", email });
    const client = await prisma();
    expect(await verifyCredentials(client, email, "correct horse battery")).toMatchObject({
      userId: (await userByEmail(email)).id,
    });
    expect(await lookupInvite(token)).toEqual({ status: "used" });
    expect(await set("another password")).toEqual({ status: "used" });
    expect(await verifyCredentials(client, email, "correct horse battery")).not.toBeNull();
  });

  it("of two uses at once, exactly one sets the password", async () => {
    await signInAs("admin@acme.test");
    const { token, userId } = invited(await invite());
    const results = await Promise.all(
      ["first password!", "second password"].map((p) => acceptInvite(token, { password: p, confirmation: p })),
    );
    expect(results.map((r) => r.status).sort()).toEqual(["done", "used"]);
    const accepted = { action: "member.invite_accepted", targetId: userId };
    expect(await (await prisma()).auditEvent.count({ where: accepted })).toBe(1);
  });

  it("refuses an expired link, and an unknown or malformed one, setting nothing", async () => {
    await signInAs("admin@acme.test");
    const { token, userId, email } = invited(await invite());
    const client = await prisma();
    await client.userInvite.updateMany({ where: { userId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await lookupInvite(token)).toMatchObject({ status: "expired" });
    const p = { password: "correct horse battery", confirmation: "correct horse battery" };
    expect(await acceptInvite(token, p)).toMatchObject({ status: "expired" });
    // The right length and alphabet, but no such link; and a malformed one (not even looked up).
    expect(await acceptInvite(`${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`, p)).toEqual({
      status: "unknown",
    });
    expect(await acceptInvite("../../etc", p)).toEqual({ status: "unknown" });
    expect((await userByEmail(email)).passwordHash).toBeNull();
  });

  it("a new link replaces the old one; the new one works", async () => {
    await signInAs("owner@acme.test");
    const first = invited(await invite());
    const second = await renewInviteAction(idle, form({ userId: String(first.userId) }));
    if (second.status !== "invited") throw new Error(JSON.stringify(second));
    const token = second.link.split("/").at(-1) as string;
    expect(await lookupInvite(first.token)).toEqual({ status: "unknown" });
    const p = { password: "correct horse battery", confirmation: "correct horse battery" };
    expect(await acceptInvite(token, p)).toEqual({ status: "done", email: first.email });
    // Both changes are in the audit log (decisions.md, Audit log): the renewal by the Owner, the password set by the
    // person themselves; a password only as "changed".
    const owner = await userByEmail("owner@acme.test");
    const entries = await (await prisma()).auditEvent.findMany({
      where: { targetType: "user", targetId: first.userId },
      orderBy: { id: "asc" },
    });
    expect(entries.map((e) => [e.action, e.actorId, e.via, e.changes])).toEqual([
      ["member.invited", owner.id, "web", expect.anything()],
      ["member.invite_renewed", owner.id, "web", {}],
      ["member.invite_accepted", first.userId, "web", { password: "changed" }],
    ]);
    // Someone with a password needs no link.
    expect(await renewInviteAction(idle, form({ userId: String(first.userId) }))).toEqual({
      status: "error",
      message: "Nora New has already set a password.",
    });
  });
});

describe("changing a person's role and client access", () => {
  it("changes them, and the person's token acts with the new role at once", async () => {
    const person = await userByEmail("standard@acme.test");
    const { token } = await createApiToken(await prisma(), { tenantId: person.tenantId, userId: person.id }, "t");
    expect((await call(clients, "POST", "clients", { token, body: { name: "Allowed" } })).status).toBe(201);

    await signInAs("admin@acme.test");
    const groups = await groupIds(ACME);
    expect(
      await updateMemberAction(
        form({
          userId: String(person.id),
          roleId: await roleId(ACME, "Viewer"),
          clientAccess: "client_groups",
          groupIds: groups.slice(0, 2),
        }),
      ),
    ).toEqual({ status: "done", message: "Sam Standard is saved: Viewer." });
    const after = await (await prisma()).user.findFirstOrThrow({
      where: { id: person.id, tenantId: person.tenantId },
      include: { role: true, clientGroups: { orderBy: { groupId: "asc" } } },
    });
    expect(after.role.name).toBe("Viewer");
    expect(after.clientAccess).toBe("client_groups");
    expect(after.clientGroups.map((g) => String(g.groupId))).toEqual(groups.slice(0, 2));
    expect((await call(clients, "POST", "clients", { token, body: { name: "Refused" } })).status).toBe(403);

    // Back to all clients, and no groups.
    await updateMemberAction(
      form({ userId: String(person.id), roleId: await roleId(ACME, "Standard"), clientAccess: "all" }),
    );
    expect(
      await (await prisma()).userClientGroup.count({ where: { userId: person.id, tenantId: person.tenantId } }),
    ).toBe(0);
  });

  it("never demotes the Owner, nor makes anyone Owner", async () => {
    await signInAs("admin@acme.test");
    const owner = await userByEmail("owner@acme.test");
    const standard = await userByEmail("standard@acme.test");
    expect(
      await updateMemberAction(
        form({ userId: String(owner.id), roleId: await roleId(ACME, "Standard"), clientAccess: "all" }),
      ),
    ).toMatchObject({
      status: "error",
      message: expect.stringMatching(/^The Owner's role and access cannot be changed/),
    });
    expect(
      await updateMemberAction(
        form({ userId: String(standard.id), roleId: await roleId(ACME, "Owner"), clientAccess: "all" }),
      ),
    ).toMatchObject({ status: "error", errors: { roleId: "Choose one of the roles in the list." } });
    expect(await userByEmail("owner@acme.test")).toEqual(owner);
    expect(await userByEmail("standard@acme.test")).toEqual(standard);
  });

  it("matches nobody of another firm, and refuses another firm's role or group, changing nothing", async () => {
    await signInAs("owner@acme.test");
    const outsider = await userByEmail("standard@birch.test");
    expect(
      await updateMemberAction(
        form({ userId: String(outsider.id), roleId: await roleId(ACME, "Viewer"), clientAccess: "all" }),
      ),
    ).toEqual({ status: "error", message: "That person is not in your firm.", errors: { form: expect.any(String) } });
    const standard = await userByEmail("standard@acme.test");
    expect(
      await updateMemberAction(
        form({ userId: String(standard.id), roleId: await roleId(BIRCH, "Viewer"), clientAccess: "all" }),
      ),
    ).toMatchObject({ status: "error", errors: { roleId: expect.any(String) } });
    expect(
      await updateMemberAction(
        form({
          userId: String(standard.id),
          roleId: await roleId(ACME, "Viewer"),
          clientAccess: "client_groups",
          groupIds: await groupIds(BIRCH),
        }),
      ),
    ).toMatchObject({ status: "error", errors: { groupIds: "Choose client groups from the list." } });
    expect(await userByEmail("standard@birch.test")).toEqual(outsider);
    expect(await userByEmail("standard@acme.test")).toEqual(standard);
  });
});

describe("archiving and unarchiving", () => {
  it("ends the person's sessions and revokes their tokens at once; unarchiving brings back neither", async () => {
    const person = await signInAs("groups@acme.test");
    expect(await signedInUser()).toMatchObject({ email: "groups@acme.test" });
    const { token } = await createApiToken(
      await prisma(),
      { tenantId: person.user.tenantId, userId: person.user.id },
      "t",
    );
    expect(await meWith(token)).toBe(200);

    await signInAs("admin@acme.test");
    expect(await archiveMemberAction(form({ userId: String(person.user.id) }))).toEqual({
      status: "done",
      message: "Gina Groups is archived: signed out everywhere, 1 API token revoked.",
    });
    current.session = person.session;
    expect(await signedInUser()).toBeNull();
    expect(await meWith(token)).toBe(401);
    expect(await verifyCredentials(await prisma(), "groups@acme.test", DEMO_PASSWORD)).toBeNull();

    await signInAs("admin@acme.test");
    expect(await unarchiveMemberAction(form({ userId: String(person.user.id) }))).toEqual({
      status: "done",
      message: "Gina Groups is back and can sign in again.",
    });
    current.session = person.session;
    expect(await signedInUser()).toBeNull();
    expect(await meWith(token)).toBe(401);
    expect(await verifyCredentials(await prisma(), "groups@acme.test", DEMO_PASSWORD)).not.toBeNull();
  });

  it("unarchiving someone the operator archived (date only) does not bring back their old session or token", async () => {
    const person = await userByEmail("archived@acme.test");
    const old = { tenantId: person.tenantId, userId: person.id, sessionVersion: person.sessionVersion };
    const { token } = await createApiToken(await prisma(), { tenantId: person.tenantId, userId: person.id }, "old");
    expect(await meWith(token)).toBe(401);
    await signInAs("owner@acme.test");
    expect(await unarchiveMemberAction(form({ userId: String(person.id) }))).toMatchObject({ status: "done" });
    expect(await meWith(token)).toBe(401);
    current.session = { user: old, expires: "" };
    expect(await signedInUser()).toBeNull();
    expect(await verifyCredentials(await prisma(), "archived@acme.test", DEMO_PASSWORD)).not.toBeNull();
    // Archived again, for the tests that expect the demo's archived person.
    await signInAs("owner@acme.test");
    await archiveMemberAction(form({ userId: String(person.id) }));
  });

  it("an archived invitee's link stops working", async () => {
    await signInAs("admin@acme.test");
    const { token, userId } = invited(await invite());
    await archiveMemberAction(form({ userId: String(userId) }));
    expect(await lookupInvite(token)).toEqual({ status: "unknown" });
    expect(await unarchiveMemberAction(form({ userId: String(userId) }))).toEqual({
      status: "done",
      message: "Nora New is back. They have no password yet: make them a new invite link.",
    });
    expect(await lookupInvite(token)).toEqual({ status: "unknown" });
  });

  it("never archives the Owner, nor oneself, nor anyone of another firm", async () => {
    const admin = await signInAs("admin@acme.test");
    const owner = await userByEmail("owner@acme.test");
    const outsider = await userByEmail("standard@birch.test");
    expect(await archiveMemberAction(form({ userId: String(owner.id) }))).toMatchObject({
      status: "error",
      message: "Olivia Owner is the Owner and cannot be archived.",
    });
    expect(await archiveMemberAction(form({ userId: String(admin.user.id) }))).toMatchObject({
      message: "You cannot archive yourself.",
    });
    expect(await archiveMemberAction(form({ userId: String(outsider.id) }))).toMatchObject({
      message: "That person is not in your firm.",
    });
    expect(await unarchiveMemberAction(form({ userId: String(outsider.id) }))).toMatchObject({
      message: "That person is not in your firm.",
    });
    expect(await archiveMemberAction(form({ userId: "abc" }))).toMatchObject({ status: "error" });
    expect(await userByEmail("owner@acme.test")).toEqual(owner);
    expect(await userByEmail("standard@birch.test")).toEqual(outsider);
    expect(await signedInUser()).not.toBeNull();
  });

  it("an archived Admin's session can do nothing more", async () => {
    await signInAs("owner@acme.test");
    const { token, email } = invited(await invite({ roleId: await roleId(ACME, "Admin") }));
    await acceptInvite(token, { password: "correct horse battery", confirmation: "correct horse battery" });
    const admin = await signInAs(email);
    expect(await canManageTeam({ tenantId: admin.user.tenantId, userId: admin.user.id })).toBe(true);
    await signInAs("owner@acme.test");
    await archiveMemberAction(form({ userId: String(admin.user.id) }));
    current.session = admin.session;
    const standard = await userByEmail("standard@acme.test");
    await expect(archiveMemberAction(form({ userId: String(standard.id) }))).rejects.toThrow(/NEXT_REDIRECT/);
    expect(await userByEmail("standard@acme.test")).toEqual(standard);
  });
});

describe("who may manage the team", () => {
  it("Owners and Admins; not Standard users nor Viewers, whose every action is refused and changes nothing", async () => {
    const user = async (email: string) => {
      const u = await userByEmail(email);
      return { tenantId: u.tenantId, userId: u.id };
    };
    expect(await canManageTeam(await user("owner@acme.test"))).toBe(true);
    expect(await canManageTeam(await user("admin@acme.test"))).toBe(true);
    expect(await canManageTeam(await user("standard@acme.test"))).toBe(false);
    expect(await canManageTeam(await user("viewer@acme.test"))).toBe(false);
    expect(await canManageTeam(await user("archived@acme.test"))).toBe(false);

    const target = await userByEmail("assigned@acme.test");
    const ownTarget = { userId: String(target.id) };
    // A forged action is refused with a message the page shows (the form's `form` error), logged as a refusal: no
    // error thrown (Next would answer it with a 500) and nothing logged as an error.
    const refused = "Your role does not allow managing the firm's people.";
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error");
    for (const email of ["standard@acme.test", "viewer@acme.test"]) {
      await signInAs(email);
      await expect(listTeam(await user(email))).rejects.toThrow(TeamPermissionError);
      const before = await userCount();
      expect(await invite({ email: `${email}.friend@acme.test` })).toMatchObject({
        status: "invalid",
        errors: { form: refused },
      });
      expect(await renewInviteAction(idle, form(ownTarget))).toEqual({ status: "error", message: refused });
      const memberRefusal = { status: "error", message: refused, errors: { form: refused } };
      expect(
        await updateMemberAction(form({ ...ownTarget, roleId: await roleId(ACME, "Admin"), clientAccess: "all" })),
      ).toEqual(memberRefusal);
      expect(await archiveMemberAction(form(ownTarget))).toEqual(memberRefusal);
      expect(
        await unarchiveMemberAction(form({ userId: String((await userByEmail("archived@acme.test")).id) })),
      ).toEqual(memberRefusal);
      // Not even to promote themselves.
      const self = await userByEmail(email);
      expect(
        await updateMemberAction(
          form({ userId: String(self.id), roleId: await roleId(ACME, "Admin"), clientAccess: "all" }),
        ),
      ).toEqual(memberRefusal);
      expect(await userCount()).toBe(before);
      expect(await userByEmail(email)).toEqual(self);
      const logged = warn.mock.calls.map((args) => String(args[0])).filter((line) => line.includes(`user ${self.id} `));
      expect(logged).toHaveLength(6);
      for (const line of logged) expect(line).toMatch(/^Refused .*lacks users\.manage\.$/);
    }
    expect(error).not.toHaveBeenCalled();
    warn.mockRestore();
    error.mockRestore();
    expect(await userByEmail("assigned@acme.test")).toEqual(target);
    expect((await userByEmail("archived@acme.test")).archivedDate).not.toBeNull();
  });

  it("nobody signed in: every action sends to sign in", async () => {
    const target = { userId: String((await userByEmail("assigned@acme.test")).id) };
    await expect(invite()).rejects.toThrow(/NEXT_REDIRECT/);
    await expect(archiveMemberAction(form(target))).rejects.toThrow(/NEXT_REDIRECT/);
    await expect(renewInviteAction(idle, form(target))).rejects.toThrow(/NEXT_REDIRECT/);
  });

  it("the page is a 404 for a Standard user and lists the firm's people for an Admin", async () => {
    const { default: TeamPage } = await import("@/app/settings/team/page");
    await signInAs("standard@acme.test");
    await expect(TeamPage()).rejects.toMatchObject({ digest: expect.stringMatching(/404/) });
    const admin = await signInAs("admin@acme.test");
    const html = await pageHtml(await TeamPage());
    const rows = listItems(html, "People");
    const { members } = await listTeam({ tenantId: admin.user.tenantId, userId: admin.user.id });
    // One row per person of the firm, in the list's order, each with what may be done to them.
    const BADGES = { active: "", invited: " Invited", archived: " Archived" };
    expect(rows.map((row) => textOf(row).split(" Email ")[0])).toEqual(
      members.map(
        (m) =>
          `${m.name}${m.email === "admin@acme.test" ? " (you)" : ""}${m.isOwner ? " Owner" : ""}${BADGES[m.status]}`,
      ),
    );
    const row = (name: string) => rows.find((r) => textOf(r).startsWith(name))!;
    expect(textOf(row("Olivia Owner"))).toMatch(
      /^Olivia Owner Owner Email owner@acme\.test Role Owner Client access All clients Groups none Status Active The Owner keeps every permission and cannot be archived\.$/,
    );
    expect(buttons(row("Olivia Owner"))).toEqual([]);
    expect(textOf(row("Adam Admin"))).toMatch(/^Adam Admin \(you\) Email admin@acme\.test Role Admin /);
    expect(buttons(row("Adam Admin"))).toEqual(["Save changes"]);
    expect(textOf(row("Gina Groups"))).toContain("Client access Clients in their groups Groups North Status Active");
    // Everyone but the Owner and oneself can be archived (or unarchived); an invited person's link renewed; an
    // active person other than the Owner and oneself given a link to reset their password.
    rows.forEach((html, i) => {
      const member = members[i];
      const you = member.email === "admin@acme.test";
      const expected = member.isOwner
        ? []
        : [
            ...(you ? [] : [`${member.status === "archived" ? "Unarchive" : "Archive"} ${member.name}`]),
            ...(member.status === "invited" ? [`New invite link for ${member.name}`] : []),
            ...(member.status === "active" && !you ? [`Link to reset the password of ${member.name}`] : []),
          ];
      expect(buttons(html).filter((b) => b.endsWith(member.name))).toEqual(expected);
    });
    expect(textOf(html)).toContain("Invite a person");
    expect(buttons(html)).toContain("Invite");
    expect(html).not.toContain("birch.test");
    expect(html).not.toMatch(/\$2[aby]\$/);
    expect(members[0]).toMatchObject({ isOwner: true, email: "owner@acme.test" });
    const archived = members.findIndex((m) => m.status === "archived");
    expect(members.slice(archived).every((m) => m.status === "archived")).toBe(true);
    expect(members.find((m) => m.email === "archived@acme.test")).toMatchObject({ status: "archived" });
    expect(members.every((m) => !m.email.endsWith("birch.test"))).toBe(true);
    expect(JSON.stringify(members)).not.toMatch(/\$2[aby]\$/); // no password hash
  });
});
