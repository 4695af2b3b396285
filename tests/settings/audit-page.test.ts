// /settings/audit: who may see it (Owners and Admins; a 404 and no navigation link for anyone else), its filters,
// its sentences, and its CSV download (the filtered entries, with formula-like cells defused). Also: the webhooks
// page's actions are recorded as the signed-in person's, via web.
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as clientRoute from "@/app/api/v1/clients/[uuid]/route";
import * as clientsRoute from "@/app/api/v1/clients/route";
import { GET as download } from "@/app/settings/audit/download/route";
import { createWebhookAction } from "@/app/settings/webhooks/actions";
import { type AuditEventOutput, type AuditNames, csvCell, describeAuditEvent } from "@/lib/audit/serialize";
import { parseAuditFilters } from "@/lib/audit/settings";
import { signedInUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db/client";
import { settingsPagesFor } from "@/lib/settings-pages";
import { call, tokenFor, userByEmail } from "../support/api";
import { buttons, listItems, pageHtml, textOf } from "../support/page-html";

const current = vi.hoisted(() => ({ session: null as unknown }));
vi.mock("next-auth", async (original) => ({
  ...(await original<typeof import("next-auth")>()),
  getServerSession: async () => current.session,
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

async function signInAs(email: string) {
  const user = await userByEmail(email);
  current.session = { user: { tenantId: user.tenantId, userId: user.id, sessionVersion: user.sessionVersion } };
  return (await signedInUser())!;
}

const csv = (query = "") => download(new Request(`http://localhost/settings/audit/download?${query}`));

let owner: string;
beforeAll(async () => {
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "true");
  owner = await tokenFor("owner@acme.test");
});

describe("who may see the audit log", () => {
  it("is a 404 without a link for Standard users and Viewers, the page and its link for Owners and Admins", async () => {
    const { default: AuditPage } = await import("@/app/settings/audit/page");
    const page = () => AuditPage({ searchParams: Promise.resolve({}) });
    for (const email of ["standard@acme.test", "viewer@acme.test"]) {
      const user = await signInAs(email);
      await expect(page()).rejects.toMatchObject({ digest: expect.stringMatching(/404/) });
      await expect(csv()).rejects.toMatchObject({ digest: expect.stringMatching(/404/) });
      expect((await settingsPagesFor(user)).map((p) => p.label)).not.toContain("Audit log");
    }
    // An entry for the page to show: a client made and changed through the API by the Owner's token.
    const name = `Audit Page Bakery ${Date.now()}`;
    const { uuid } = (await call(clientsRoute, "POST", "clients", { token: owner, body: { name, city: "Leeds" } }))
      .body;
    await call(clientRoute, "PUT", `clients/${uuid}`, { token: owner, params: { uuid }, body: { city: "York" } });
    for (const email of ["owner@acme.test", "admin@acme.test"]) {
      const user = await signInAs(email);
      const html = await pageHtml(await page());
      const entries = listItems(html, "Audit log entries").map(textOf);
      // Newest first: the change, then the create, each a sentence with how and what changed.
      const [changed, made] = entries.filter((entry) => entry.includes(name));
      expect(changed).toContain(
        `Olivia Owner (owner@acme.test) changed the city of ${name} from Leeds to York, with token 'test owner@acme.test'`,
      );
      expect(changed).toMatch(/client\.updated · via API · Everything about .* Field Before After city Leeds York$/);
      expect(made).toContain(`Olivia Owner (owner@acme.test) created the client ${name}, with token`);
      expect(entries.indexOf(changed)).toBeLessThan(entries.indexOf(made));
      // The filters: the firm's people to choose from (not another firm's), and the CSV of what is shown.
      const text = textOf(html);
      expect(text).toContain(`Signed in as ${email}`);
      expect(text).toMatch(
        /Who Anyone Adam Admin Arne Archived Casey Assigned Gina Groups Olivia Owner Sam Standard Val Viewer Kind of record/,
      );
      expect(text).not.toContain("Bea Birch");
      expect(html).toContain('href="/settings/audit/download?"');
      expect(buttons(html)).toEqual(expect.arrayContaining(["Sign out", "Filter"]));
      expect((await settingsPagesFor(user)).map((p) => p.label)).toContain("Audit log");
      expect((await csv()).status).toBe(200);
    }
  });

  it("sends a signed-out visitor to sign in", async () => {
    current.session = null;
    await expect(csv()).rejects.toMatchObject({ digest: expect.stringMatching(/NEXT_REDIRECT.*signin/) });
  });
});

describe("the CSV download", () => {
  it("holds the filtered entries, newest first, with a header row, and defuses formula-like cells", async () => {
    const created = await call(clientsRoute, "POST", "clients", {
      token: owner,
      body: { name: '=HYPERLINK("http://evil.example","Click")', city: "Leeds" },
    });
    const uuid = created.body.uuid;
    await call(clientRoute, "PUT", `clients/${uuid}`, { token: owner, params: { uuid }, body: { city: "+York" } });
    await signInAs("owner@acme.test");
    const res = await csv(`target_uuid=${uuid}`);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "created_at,action,description,actor_type,actor_id,actor_name,actor_email,via,token_id,token_name," +
        "target_type,target_uuid,target_id,target_name,changes,address",
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"client.updated"');
    expect(lines[2]).toContain('"client.created"');
    // The name, a formula, is text with a leading apostrophe; its quotes are doubled.
    expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil.example"",""Click"")"`);
    expect(lines[1]).toContain('"Olivia Owner (owner@acme.test) changed the city of');
    expect(lines[1]).toContain("from Leeds to +York, with token 'test owner@acme.test'");
    expect(lines.slice(1).every((line) => !/(^|,)"[=+\-@]/.test(line))).toBe(true);
  });

  it("is a 422 naming a bad filter", async () => {
    await signInAs("owner@acme.test");
    const res = await csv("target_uuid=nope");
    expect(res.status).toBe(422);
    expect(await res.text()).toMatch(/^target_uuid: /);
  });

  it("quotes every cell and prefixes =, +, -, @, tab and carriage return", () => {
    expect(csvCell("plain")).toBe('"plain"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(42)).toBe('"42"');
    for (const risky of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) expect(csvCell(risky)).toBe(`"'${risky}"`);
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  });
});

describe("the page's filters", () => {
  it("read the since and until boxes as UTC, leave empty boxes out, and name what is wrong", () => {
    expect(parseAuditFilters({ since: "2026-11-01T09:30", until: "", action: "client.updated" })).toEqual({
      filters: { since: new Date("2026-11-01T09:30:00Z"), action: "client.updated" },
    });
    const bad = parseAuditFilters({ since: "soon", target_type: "planet" });
    expect(Object.keys(bad.errors ?? {}).sort()).toEqual(["since", "target_type"]);
  });
});

describe("sentences", () => {
  const base: AuditEventOutput = {
    id: 1,
    action: "client.updated",
    actor: { type: "user", id: 1, name: "Olivia Owner", email: "owner@acme.test" },
    via: "api",
    token: { id: 2, name: "Invoicing" },
    target: { type: "client", uuid: "0f6c2d7e-6b1a-4c55-9d1e-3a7b2f9c8e41", name: "Acme Ltd" },
    changes: { city: ["Leeds", "York"] },
    address: null,
    created_at: "2026-11-21T14:02:11.210Z",
  };
  it("say who did what to which record, before and after, and with which token", () => {
    expect(describeAuditEvent(base)).toBe(
      "Olivia Owner (owner@acme.test) changed the city of Acme Ltd from Leeds to York, with token 'Invoicing'",
    );
    expect(
      describeAuditEvent({
        ...base,
        changes: { name: ["Acme", "Acme Ltd"], street_address: [null, "1 High St"], tags: [[], [3, 7]] },
      }),
    ).toBe(
      "Olivia Owner (owner@acme.test) changed the name of Acme Ltd from Acme to Acme Ltd, the street address from " +
        "nothing to 1 High St " +
        "and the tags from none to 3, 7, with token 'Invoicing'",
    );
    expect(describeAuditEvent({ ...base, action: "client.created", changes: {} })).toBe(
      "Olivia Owner (owner@acme.test) created the client Acme Ltd, with token 'Invoicing'",
    );
    expect(
      describeAuditEvent({
        ...base,
        action: "webhook.secret_rotated",
        token: null,
        via: "web",
        target: { type: "webhook", uuid: base.target.uuid, name: "https://hooks.example/in" },
        changes: { secret: "changed" },
      }),
    ).toBe("Olivia Owner (owner@acme.test) rotated the secret of the webhook https://hooks.example/in");
    expect(
      describeAuditEvent({
        ...base,
        action: "member.archived",
        actor: { type: "cli" },
        via: "cli",
        token: null,
        target: { type: "user", id: 9, name: "Sam Standard" },
        changes: {},
      }),
    ).toBe("The command line archived Sam Standard");
  });

  it("name the actor by email too: a display name alone can be anyone's", () => {
    const impostor = { type: "user" as const, id: 5, name: "Olivia Owner", email: "standard@acme.test" };
    expect(describeAuditEvent({ ...base, actor: impostor })).toMatch(/^Olivia Owner \(standard@acme\.test\) changed/);
    expect(describeAuditEvent({ ...base, actor: impostor })).not.toBe(describeAuditEvent(base));
  });

  it("say a switch as a verb, access as words, and people, groups and tags by name", () => {
    const webhook = { type: "webhook" as const, uuid: base.target.uuid, name: "https://hooks.example/in" };
    expect(describeAuditEvent({ ...base, token: null, target: webhook, changes: { enabled: [true, false] } })).toBe(
      "Olivia Owner (owner@acme.test) disabled the webhook https://hooks.example/in",
    );
    const token = { type: "token" as const, id: 4, name: "Reports" };
    expect(
      describeAuditEvent({
        ...base,
        token: null,
        target: token,
        changes: {
          access: [
            { clients: "write", time_logs: "none" },
            { clients: "read", time_logs: "read" },
          ],
        },
      }),
    ).toBe(
      "Olivia Owner (owner@acme.test) changed the access of Reports from clients write, time logs none to " +
        "clients read, time logs read",
    );
    const names: AuditNames = {
      users: new Map([[1, "Olivia Owner"]]),
      clientGroups: new Map([
        [7, "North"],
        [8, "Payroll"],
      ]),
      tags: new Map(),
    };
    expect(
      describeAuditEvent(
        { ...base, changes: { user_id: [null, 1], client_groups: [[], [7, 8]], tags: [[], [3]] } },
        names,
      ),
    ).toBe(
      "Olivia Owner (owner@acme.test) changed the account manager of Acme Ltd from nothing to Olivia Owner, the client groups " +
        "from none to North, Payroll and the tags from none to #3, with token 'Invoicing'",
    );
  });
});

describe("the webhooks page's actions", () => {
  it("are recorded as the signed-in person's, via web, without a token", async () => {
    await signInAs("admin@acme.test");
    const form = new FormData();
    form.set("url", "http://127.0.0.1:9/from-the-page");
    form.append("events", "client.created");
    const state = await createWebhookAction({ status: "idle" }, form);
    expect(state.status).toBe("created");
    const admin = await userByEmail("admin@acme.test");
    const entry = await (await prisma()).auditEvent.findFirstOrThrow({
      where: { action: "webhook.created", targetName: "http://127.0.0.1:9/from-the-page" },
    });
    expect(entry).toMatchObject({ via: "web", actorId: admin.id, actorName: "Adam Admin", tokenId: null });
  });
});
