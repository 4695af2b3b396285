// Getting back in after a forgotten password (decisions.md, "Tokens and sign-in"): the team page's reset link, the
// reset page's action, the operator's function and "Forgot password?" with mail delivered to a local SMTP server.
// Real sessions (a next-auth session at the user's session version, checked on every call) and real tokens.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as me from "@/app/api/v1/me/route";
import { resetPasswordAction } from "@/app/reset/[token]/actions";
import { resetLinkAction } from "@/app/settings/team/actions";
import { forgotPasswordAction } from "@/app/signin/forgot/actions";
import { FORGOT_PASSWORD_ANSWER, requestPasswordReset } from "@/lib/auth/forgot-password";
import { signedInUser } from "@/lib/auth/session";
import { verifyCredentials } from "@/lib/auth/sign-in";
import { prisma } from "@/lib/db/client";
import { DEMO_PASSWORD } from "@/lib/demo/seed";
import { archiveTeamMember, inviteTeamMember } from "@/lib/team/mutations";
import { createResetLinkForOperator } from "@/lib/team/password-reset";
import { lookupInvite, lookupResetLink } from "@/lib/team/queries";
import { createApiToken } from "@/lib/tokens";
import { call, userByEmail } from "../support/api";
import { refusal } from "../support/operator";
import { type SmtpCatcher, startSmtpCatcher } from "../support/smtp-catcher";

const current = vi.hoisted(() => ({ session: null as unknown, deferred: [] as (() => Promise<void>)[] }));
vi.mock("next-auth", async (original) => ({
  ...(await original<typeof import("next-auth")>()),
  getServerSession: async () => current.session,
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
// The forgot-password action's work after the answer: kept here, and run when the test says.
vi.mock("next/server", async (original) => ({
  ...(await original<typeof import("next/server")>()),
  after: (task: () => Promise<void>) => current.deferred.push(task),
}));
vi.mock("next/headers", async (original) => ({
  ...(await original<typeof import("next/headers")>()),
  headers: async () => new Headers(),
}));

async function signInAs(email: string) {
  const user = await userByEmail(email);
  current.session = { user: { tenantId: user.tenantId, userId: user.id, sessionVersion: user.sessionVersion } };
  return user;
}

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

const idle = { status: "idle" } as const;
const NEW_PASSWORD = "a brand new password";
const tokenOf = (link: string) => link.split("/").at(-1) as string;

/** The team page's "Link to reset password" for the person, as the signed-in person. */
async function resetLinkFor(email: string) {
  const state = await resetLinkAction(idle, form({ userId: String((await userByEmail(email)).id) }));
  if (state.status !== "invited") throw new Error(`expected a link, got ${JSON.stringify(state)}`);
  return { ...state, token: tokenOf(state.link) };
}

const setNew = (token: string, fields: Record<string, string> = {}) =>
  resetPasswordAction(token, idle, form({ password: NEW_PASSWORD, confirmation: NEW_PASSWORD, ...fields }));

const meWith = async (token: string) => (await call(me, "GET", "me", { token })).status;

async function entriesAbout(userId: number) {
  return (await prisma()).auditEvent.findMany({
    where: { targetType: "user", targetId: userId },
    orderBy: { id: "asc" },
  });
}

beforeEach(() => {
  current.session = null;
  current.deferred = [];
});

describe("a reset link from the team page", () => {
  it("an Admin gives an active member a 24-hour link, stored only as its SHA-256, recorded as the Admin's", async () => {
    const admin = await signInAs("admin@acme.test");
    const member = await userByEmail("standard@acme.test");
    const before = Date.now();
    const link = await resetLinkFor(member.email);
    expect(link).toMatchObject({ userId: member.id, name: "Sam Standard", email: member.email });
    expect(link.link).toMatch(/^http:\/\/localhost:\d+\/reset\/[A-Za-z0-9_-]{43}$/);
    const expires = new Date(link.expiresAt).getTime();
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const rows = await (await prisma()).userInvite.findMany({ where: { userId: member.id, usedAt: null } });
    expect(rows).toEqual([
      expect.objectContaining({
        purpose: "password_reset",
        tokenHash: createHash("sha256").update(link.token).digest("hex"),
      }),
    ]);
    expect(JSON.stringify(rows)).not.toContain(link.token);
    // Making the link changes nothing yet: the old password still signs in.
    expect(await verifyCredentials(await prisma(), member.email, DEMO_PASSWORD)).not.toBeNull();
    const [made] = (await entriesAbout(member.id)).filter((e) => e.action === "member.reset_link_created");
    expect(made).toMatchObject({ actorId: admin.id, via: "web", targetName: "Sam Standard" });
  });

  it("sets the password once; it ends the member's sessions; the link is then used; the log says who did what", async () => {
    const admin = await signInAs("admin@acme.test");
    const member = await userByEmail("assigned@acme.test");
    const link = await resetLinkFor(member.email);
    const token = (await createApiToken(await prisma(), { tenantId: member.tenantId, userId: member.id }, "kept"))
      .token;
    // The member's own session, from before the reset.
    await signInAs(member.email);
    expect(await signedInUser()).toMatchObject({ userId: member.id });

    expect(await lookupResetLink(link.token)).toMatchObject({ status: "valid", person: { email: member.email } });
    expect(await setNew(link.token, { confirmation: "something else" })).toMatchObject({ status: "invalid" });
    expect(await setNew(link.token)).toEqual({ status: "done", email: member.email });

    expect(await signedInUser()).toBeNull(); // the old session ended
    const client = await prisma();
    expect(await verifyCredentials(client, member.email, DEMO_PASSWORD)).toBeNull();
    expect(await verifyCredentials(client, member.email, NEW_PASSWORD)).toMatchObject({ userId: member.id });
    expect(await meWith(token)).toBe(200); // tokens stay unless asked
    expect(await lookupResetLink(link.token)).toEqual({ status: "used" });
    expect(await setNew(link.token, { password: "yet another one!", confirmation: "yet another one!" })).toEqual({
      status: "used",
    });
    expect(await verifyCredentials(client, member.email, NEW_PASSWORD)).not.toBeNull();

    const entries = (await entriesAbout(member.id)).filter((e) => e.action.includes("reset"));
    expect(entries.map((e) => [e.action, e.actorId, e.via, e.changes])).toEqual([
      ["member.reset_link_created", admin.id, "web", {}],
      ["password.reset", member.id, "web", { password: "changed" }],
    ]);
    expect(JSON.stringify(entries)).not.toContain(NEW_PASSWORD);
  });

  it("revokes the member's API tokens too when they tick the box", async () => {
    await signInAs("owner@acme.test");
    const member = await userByEmail("groups@acme.test");
    const owned = { tenantId: member.tenantId, userId: member.id };
    const tokens = [await createApiToken(await prisma(), owned, "a"), await createApiToken(await prisma(), owned, "b")];
    const link = await resetLinkFor(member.email);
    expect(await setNew(link.token, { revokeTokens: "on" })).toMatchObject({ status: "done" });
    for (const { token } of tokens) expect(await meWith(token)).toBe(401);
    const [reset] = (await entriesAbout(member.id)).filter((e) => e.action === "password.reset");
    expect(reset.changes).toEqual({ password: "changed", api_tokens: [2, 0] });
  });

  it("expires after 24 hours, and a newer link replaces the older one", async () => {
    await signInAs("admin@acme.test");
    const member = await userByEmail("viewer@acme.test");
    const first = await resetLinkFor(member.email);
    const second = await resetLinkFor(member.email);
    expect(await lookupResetLink(first.token)).toEqual({ status: "unknown" });
    await (await prisma()).userInvite.updateMany({
      where: { userId: member.id, usedAt: null },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await lookupResetLink(second.token)).toMatchObject({ status: "expired" });
    expect(await setNew(second.token)).toMatchObject({ status: "expired" });
    expect(await verifyCredentials(await prisma(), member.email, NEW_PASSWORD)).toBeNull();
    expect(await verifyCredentials(await prisma(), member.email, DEMO_PASSWORD)).not.toBeNull();
  });

  it("is a link for one purpose: a reset link is no invite, an invite link resets no password", async () => {
    const owner = await signInAs("owner@acme.test");
    const link = await resetLinkFor("admin@acme.test");
    expect(await lookupInvite(link.token)).toEqual({ status: "unknown" });
    const role = await (await prisma()).role.findFirstOrThrow({
      where: { tenantId: owner.tenantId, name: "Standard" },
    });
    const invite = await inviteTeamMember(
      { tenantId: owner.tenantId, userId: owner.id },
      { name: "Ivy Invited", email: "ivy@acme.test", roleId: role.id, clientAccess: "all", groupIds: [] },
    );
    expect(await lookupResetLink(invite.token)).toEqual({ status: "unknown" });
    expect(await setNew(invite.token)).toEqual({ status: "unknown" });
    // The Owner may give an Admin a link; the Admin then signs in with the new password.
    expect(await setNew(link.token)).toMatchObject({ status: "done", email: "admin@acme.test" });
    expect(await verifyCredentials(await prisma(), "admin@acme.test", NEW_PASSWORD)).not.toBeNull();
  });

  it("is refused for the Owner (by an Admin), oneself, someone archived or invited, and another firm's person", async () => {
    const admin = await signInAs("admin@acme.test");
    const refused = async (email: string) => {
      const state = await resetLinkAction(idle, form({ userId: String((await userByEmail(email)).id) }));
      expect(state.status).toBe("error");
      return "message" in state ? state.message : "";
    };
    const linksBefore = await (await prisma()).userInvite.count({ where: { purpose: "password_reset" } });
    expect(await refused("owner@acme.test")).toMatch(/^An Admin cannot give the Owner a reset link\./);
    expect(await refused("admin@acme.test")).toBe("Change your own password on your profile page.");
    expect(await refused("archived@acme.test")).toBe("Arne Archived is archived: unarchive them first.");
    expect(await refused("owner@birch.test")).toBe("That person is not in your firm.");
    const role = await (await prisma()).role.findFirstOrThrow({ where: { tenantId: admin.tenantId, name: "Viewer" } });
    const actor = { tenantId: admin.tenantId, userId: admin.id };
    const fields = { name: "Nat Newcomer", email: "nat@acme.test", roleId: role.id, clientAccess: "all", groupIds: [] };
    await inviteTeamMember(actor, fields);
    expect(await refused("nat@acme.test")).toBe(
      "Nat Newcomer has not set a password yet: make them a new invite link.",
    );
    expect(await (await prisma()).userInvite.count({ where: { purpose: "password_reset" } })).toBe(linksBefore);
  });

  it("is refused to a Standard user or a Viewer (users.manage), and to nobody signed in", async () => {
    for (const email of ["standard@acme.test", "viewer@acme.test"]) {
      await signInAs(email);
      const state = await resetLinkAction(idle, form({ userId: String((await userByEmail("assigned@acme.test")).id) }));
      expect(state).toEqual({ status: "error", message: "Your role does not allow managing the firm's people." });
    }
    current.session = null;
    const assigned = await userByEmail("assigned@acme.test");
    await expect(resetLinkAction(idle, form({ userId: String(assigned.id) }))).rejects.toMatchObject({
      digest: expect.stringMatching(/NEXT_REDIRECT.*signin/),
    });
    expect(await (await prisma()).userInvite.count({ where: { userId: assigned.id, usedAt: null } })).toBe(0);
  });

  it("stops working when its person is archived", async () => {
    const owner = await signInAs("owner@birch.test");
    const member = await userByEmail("standard@birch.test");
    const link = await resetLinkFor(member.email);
    await archiveTeamMember({ tenantId: owner.tenantId, userId: owner.id }, member.id);
    expect(await lookupResetLink(link.token)).toEqual({ status: "unknown" });
    expect(await setNew(link.token)).toEqual({ status: "unknown" });
    expect(await verifyCredentials(await prisma(), member.email, NEW_PASSWORD)).toBeNull();
  });
});

describe("the operator's reset link", () => {
  it("works for the Owner, is recorded as the command line's, and names the firm", async () => {
    const owner = await userByEmail("owner@acme.test");
    const link = await createResetLinkForOperator(await prisma(), { email: "owner@acme.test" });
    expect(link).toMatchObject({ userId: owner.id, firm: "Acme Accounting", name: "Olivia Owner" });
    expect(await setNew(link.token)).toEqual({ status: "done", email: "owner@acme.test" });
    expect(await verifyCredentials(await prisma(), "owner@acme.test", NEW_PASSWORD)).toMatchObject({
      userId: owner.id,
    });
    const [made] = (await entriesAbout(owner.id)).filter((e) => e.action === "member.reset_link_created");
    expect(made).toMatchObject({ actorId: null, via: "cli" });
  });

  it("refuses an unknown email, an archived person, and an email of several firms without --tenant", async () => {
    const client = await prisma();
    expect(await refusal(createResetLinkForOperator(client, { email: "nobody@acme.test" }))).toEqual({
      email: ["No firm has a person with the email nobody@acme.test."],
    });
    expect(await refusal(createResetLinkForOperator(client, { email: "archived@acme.test" }))).toEqual({
      email: ["archived@acme.test is archived in Acme Accounting: unarchive them first."],
    });
    expect(await refusal(createResetLinkForOperator(client, { email: "not an email" }))).toHaveProperty("email");
    // The same email in a second firm.
    const birch = await client.tenant.findFirstOrThrow({ where: { name: "Birch Bookkeeping" } });
    const role = await client.role.findFirstOrThrow({ where: { tenantId: birch.id, name: "Standard" } });
    await client.user.create({
      data: {
        tenantId: birch.id,
        email: "standard@acme.test",
        firstname: "Sam",
        lastname: "Twice",
        timezone: "UTC",
        roleId: role.id,
        passwordHash: (await userByEmail("standard@acme.test")).passwordHash,
      },
    });
    expect(await refusal(createResetLinkForOperator(client, { email: "standard@acme.test" }))).toEqual({
      tenant: [
        expect.stringMatching(
          /^standard@acme\.test is a person in several firms: \d+ \(Acme Accounting\), \d+ \(Birch Bookkeeping\)\. Name one\.$/,
        ),
      ],
    });
    const named = await createResetLinkForOperator(client, {
      email: "standard@acme.test",
      tenant: "Birch Bookkeeping",
    });
    expect(named).toMatchObject({ firm: "Birch Bookkeeping", name: "Sam Twice" });
  });
});

describe("Forgot password? (mail to a local SMTP server)", () => {
  let smtp: SmtpCatcher;
  beforeAll(async () => {
    smtp = await startSmtpCatcher();
  });
  afterAll(() => smtp.close());
  beforeEach(() => {
    vi.stubEnv("SMTP_URL", smtp.url);
    vi.stubEnv("APP_URL", "https://cjt.example");
    smtp.mails.length = 0;
  });
  afterAll(() => vi.unstubAllEnvs());

  const ask = async (email: string, headers = new Headers()) => {
    const answer = await requestPasswordReset(email, headers, (task) => current.deferred.push(task));
    for (const task of current.deferred.splice(0)) await task();
    return answer;
  };

  it("mails a working link for a known email, and answers an unknown one in the same words, mailing nothing", async () => {
    const member = await userByEmail("standard@acme.test");
    const known = await ask("standard@acme.test");
    const unknown = await ask("nobody@acme.test");
    expect(known).toEqual({ status: "sent", message: FORGOT_PASSWORD_ANSWER });
    expect(unknown).toEqual(known);
    const mail = await smtp.mailTo("standard@acme.test");
    expect(smtp.mails.map((m) => m.to)).toEqual([["standard@acme.test"]]);
    const link = /https:\/\/cjt\.example\/reset\/([A-Za-z0-9_-]{43})/.exec(mail.text);
    expect(link).not.toBeNull();
    expect(mail.text).toMatch(/^Subject: Set a new password for Client, Job and Time Tracking/m);
    expect(await setNew(link![1])).toEqual({ status: "done", email: "standard@acme.test" });
    expect(await verifyCredentials(await prisma(), member.email, NEW_PASSWORD)).not.toBeNull();
    const [requested] = (await entriesAbout(member.id)).filter((e) => e.action === "password.reset_requested");
    expect(requested).toMatchObject({ actorId: member.id, via: "web" });
  });

  it("answers at once, before the look-up and the mail (after()), through the page's action", async () => {
    const answer = await forgotPasswordAction(idle, form({ email: "owner@birch.test" }));
    expect(answer).toEqual({ status: "sent", message: FORGOT_PASSWORD_ANSWER });
    const bea = await userByEmail("owner@birch.test");
    expect(await (await prisma()).userInvite.count({ where: { userId: bea.id, usedAt: null } })).toBe(0);
    expect(current.deferred).toHaveLength(1);
    await current.deferred[0]();
    expect((await smtp.mailTo("owner@birch.test")).text).toContain("/reset/");
    expect(await forgotPasswordAction(idle, form({ email: "not an email" }))).toMatchObject({ status: "invalid" });
  });

  it("mails one email at most 3 times in the window, and refuses an address past the sign-in limit", async () => {
    for (let i = 0; i < 5; i++) expect(await ask("assigned@acme.test")).toMatchObject({ status: "sent" });
    expect(smtp.mails.filter((m) => m.to.includes("assigned@acme.test"))).toHaveLength(3);
    // Behind a trusted proxy, one address asking for 30 emails is guessing accounts: its next request mails nothing.
    vi.stubEnv("TRUST_PROXY", "true");
    const from = new Headers({ "X-Forwarded-For": "203.0.113.9" });
    for (let i = 0; i < 30; i++) await ask(`guess.${i}@acme.test`, from);
    expect(await ask("owner@acme.test", from)).toEqual({ status: "sent", message: FORGOT_PASSWORD_ANSWER });
    expect(smtp.mails.filter((m) => m.to.includes("owner@acme.test"))).toEqual([]);
    expect(await ask("owner@acme.test", new Headers({ "X-Forwarded-For": "203.0.113.10" }))).toMatchObject({
      status: "sent",
    });
    await smtp.mailTo("owner@acme.test");
  });

  it("mails nothing without mail settings, and answers the same", async () => {
    vi.stubEnv("SMTP_URL", "");
    expect(await ask("groups@acme.test")).toEqual({ status: "sent", message: FORGOT_PASSWORD_ANSWER });
    expect(smtp.mails).toEqual([]);
    const groups = await userByEmail("groups@acme.test");
    expect(await (await prisma()).userInvite.count({ where: { userId: groups.id, usedAt: null } })).toBe(0);
  });

  it("mails nothing for an archived person or an invited one without a password", async () => {
    await ask("archived@acme.test");
    expect(smtp.mails).toEqual([]);
  });
});
