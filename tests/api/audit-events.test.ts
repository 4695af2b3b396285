// The audit log: every recorded action (do it, then read its entry through GET /audit-events), atomicity with the
// change, the append-only table, retention, the endpoint's filters, cursor pages, permissions and tenant isolation.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as cronRoute from "@/app/api/cron/webhooks/route";
import * as auditRoute from "@/app/api/v1/audit-events/route";
import * as clientRoute from "@/app/api/v1/clients/[uuid]/route";
import * as clientsRoute from "@/app/api/v1/clients/route";
import * as contactRoute from "@/app/api/v1/contacts/[uuid]/route";
import * as contactsRoute from "@/app/api/v1/contacts/route";
import * as jobRoute from "@/app/api/v1/jobs/[uuid]/route";
import * as jobsRoute from "@/app/api/v1/jobs/route";
import * as rotateRoute from "@/app/api/v1/webhooks/[uuid]/rotate-secret/route";
import * as webhookRoute from "@/app/api/v1/webhooks/[uuid]/route";
import * as testRoute from "@/app/api/v1/webhooks/[uuid]/test/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import { auditRetentionDays, pruneAuditEvents, recordAudit } from "@/lib/audit/mutations";
import { prisma } from "@/lib/db/client";
import {
  archiveTeamMember,
  archiveUser,
  createUser,
  inviteTeamMember,
  unarchiveTeamMember,
  updateTeamMember,
} from "@/lib/team/mutations";
import { createTenant } from "@/lib/tenants/create";
import { createApiToken } from "@/lib/tokens";
import { READ_ONLY } from "@/lib/tokens/access";
import { call, type RouteModule, tableCounts, tokenFor, userByEmail } from "../support/api";
import { spyOnLog } from "../support/log";

let owner: string;
let invoicing: string;
let ownerId: number;
let acmeId: number;

beforeAll(async () => {
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "true");
  const olivia = await userByEmail("owner@acme.test");
  ownerId = olivia.id;
  acmeId = olivia.tenantId;
  owner = await tokenFor("owner@acme.test");
  ({ token: invoicing } = await createApiToken(await prisma(), { tenantId: acmeId, userId: ownerId }, "Invoicing"));
});
afterEach(() => vi.useRealTimers());

/** Entries through the API, newest first. */
async function entries(query = "", token = owner) {
  const res = await call(auditRoute, "GET", `audit-events?${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as any[];
}

/** The newest entry of an action, read through the API. */
async function latest(action: string) {
  const [entry] = await entries(`action=${action}&limit=1`);
  expect(entry, `no ${action} entry`).toBeDefined();
  return entry;
}

const olivia = () => ({ type: "user", id: ownerId, name: "Olivia Owner", email: "owner@acme.test" });

async function newClient(name: string, token = invoicing) {
  const res = await call(clientsRoute, "POST", "clients", { token, body: { name, city: "Leeds" } });
  expect(res.status).toBe(201);
  return res.body as { uuid: string };
}

const auditCount = async () => (await prisma()).auditEvent.count();

/** The status of a request that fails with a 500, which the OpenAPI document (rightly) does not list: no contract check. */
async function failingStatus(route: RouteModule, method: string, path: string, body?: unknown, uuid?: string) {
  const request = new Request(new URL(path, "http://localhost/api/v1/"), {
    method,
    headers: { Authorization: `Bearer ${owner}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const response = await route[method as "PUT"]!(request, {
    params: Promise.resolve<Record<string, string>>(uuid ? { uuid } : {}),
  });
  return response.status;
}

describe("API writes are recorded with their actor, token, target and changes", () => {
  it("client.created, with the contact created with it", async () => {
    const res = await call(clientsRoute, "POST", "clients", {
      token: invoicing,
      body: {
        name: "Acme Ltd",
        city: "Leeds",
        tags: [],
        contact: { firstname: "Ann", lastname: "Lee", email: "ann@acmeltd.test" },
      },
    });
    expect(res.status).toBe(201);
    const entry = await latest("client.created");
    expect(entry).toMatchObject({
      actor: olivia(),
      via: "api",
      token: { name: "Invoicing" },
      target: { type: "client", uuid: res.body.uuid, name: "Acme Ltd" },
      changes: { name: [null, "Acme Ltd"], city: [null, "Leeds"] },
      address: null,
    });
    expect(entry.target.id).toBeUndefined();
    const contact = await latest("contact.created");
    expect(contact).toMatchObject({
      target: { type: "contact", uuid: res.body.contacts[0].uuid, name: "Ann Lee" },
      changes: { email: [null, "ann@acmeltd.test"] },
    });
    // One transaction, so one created_at.
    expect(contact.created_at).toBe(entry.created_at);
  });

  it("client.updated: only the fields that changed, before and after, in the API's names", async () => {
    const { uuid } = await newClient("Acme Updates");
    const tags = await (await prisma()).tag.findMany({ where: { tenantId: acmeId }, take: 2, orderBy: { id: "asc" } });
    const res = await call(clientRoute, "PUT", `clients/${uuid}`, {
      token: invoicing,
      params: { uuid },
      body: { city: "York", name: "Acme Updates", client_id: "AU-1", tags: [tags[1].id, tags[0].id, tags[0].id] },
    });
    expect(res.status).toBe(200);
    const entry = await latest("client.updated");
    expect(entry).toMatchObject({
      actor: olivia(),
      token: { name: "Invoicing" },
      target: { type: "client", uuid, name: "Acme Updates" },
    });
    expect(entry.changes).toEqual({
      city: ["Leeds", "York"],
      client_id: [null, "AU-1"],
      tags: [[], [tags[0].id, tags[1].id]],
    });
  });

  it("client.updated: custom fields by name", async () => {
    const db = await prisma();
    const field = await db.customField.findFirstOrThrow({ where: { tenantId: acmeId, type: "text" } });
    const { uuid } = await newClient("Acme Custom");
    await call(clientRoute, "PUT", `clients/${uuid}`, {
      token: owner,
      params: { uuid },
      body: { custom_fields: { [field.name]: "first" } },
    });
    await call(clientRoute, "PUT", `clients/${uuid}`, {
      token: owner,
      params: { uuid },
      body: { custom_fields: { [field.name]: "second" } },
    });
    expect((await latest("client.updated")).changes).toEqual({ [`custom_fields.${field.name}`]: ["first", "second"] });
  });

  it("contact.created and contact.updated", async () => {
    const { uuid: clientUuid } = await newClient("Contact Home");
    const created = await call(contactsRoute, "POST", "contacts", {
      token: owner,
      body: { firstname: "Cora", lastname: "Cole", email: "cora@cole.test" },
    });
    expect(created.status).toBe(201);
    const uuid = created.body.uuid;
    expect(await latest("contact.created")).toMatchObject({
      token: { name: "test owner@acme.test" },
      target: { type: "contact", uuid, name: "Cora Cole" },
      changes: { firstname: [null, "Cora"], preferred_name: [null, "Cora"], email: [null, "cora@cole.test"] },
    });
    const updated = await call(contactRoute, "PUT", `contacts/${uuid}`, {
      token: owner,
      params: { uuid },
      body: { lastname: "Cole-Smith", phone_number: null, client_uuid: clientUuid, title: "Director" },
    });
    expect(updated.status).toBe(200);
    const entry = await latest("contact.updated");
    expect(entry.target).toMatchObject({ uuid, name: "Cora Cole-Smith" });
    expect(entry.changes).toEqual({
      lastname: ["Cole", "Cole-Smith"],
      client_uuid: [null, clientUuid],
      title: [null, "Director"],
    });
  });

  it("job.created and job.updated", async () => {
    const { uuid: clientUuid } = await newClient("Job Home");
    const created = await call(jobsRoute, "POST", "jobs", {
      token: owner,
      body: { name: "Year end", status: "not-started", due_date: "2027-01-31" },
    });
    expect(created.status).toBe(201);
    const uuid = created.body.uuid;
    expect(await latest("job.created")).toMatchObject({
      target: { type: "job", uuid, name: "Year end" },
      changes: { name: [null, "Year end"], status: [null, "not-started"], due_date: [null, "2027-01-31"] },
    });
    const res = await call(jobRoute, "PUT", `jobs/${uuid}`, {
      token: owner,
      params: { uuid },
      body: {
        status: "in-progress",
        due_date: "2027-02-28",
        client_uuid: clientUuid,
        estimated_hours: 2.5,
        user_id: ownerId,
      },
    });
    expect(res.status).toBe(200);
    expect((await latest("job.updated")).changes).toEqual({
      status: ["not-started", "in-progress"],
      due_date: ["2027-01-31", "2027-02-28"],
      client_uuid: [null, clientUuid],
      estimated_hours: [null, 2.5],
      user_id: [null, ownerId],
    });
  });

  it("webhooks: created, updated, secret rotated (only as changed), tested and deleted", async () => {
    const created = await call(webhooksRoute, "POST", "webhooks", {
      token: owner,
      body: { url: "http://127.0.0.1:9/hook", events: ["client.created"] },
    });
    expect(created.status).toBe(201);
    const { uuid, secret } = created.body;
    const on = (route: any, method: string, suffix = "", body?: unknown) =>
      call(route, method, `webhooks/${uuid}${suffix}`, { token: owner, params: { uuid }, body });
    const target = { type: "webhook", uuid, name: "http://127.0.0.1:9/hook" };
    expect(await latest("webhook.created")).toMatchObject({
      target,
      changes: { url: [null, "http://127.0.0.1:9/hook"], events: [null, ["client.created"]] },
    });
    expect((await on(webhookRoute, "PUT", "", { enabled: false, events: ["client.created"] })).status).toBe(200);
    expect((await latest("webhook.updated")).changes).toEqual({ enabled: [true, false] });
    const rotated = await on(rotateRoute, "POST", "/rotate-secret");
    expect(rotated.status).toBe(200);
    const rotation = await latest("webhook.secret_rotated");
    expect(rotation).toMatchObject({ target, changes: { secret: "changed" } });
    expect(JSON.stringify(await entries())).not.toContain(secret);
    expect(JSON.stringify(await entries())).not.toContain(rotated.body.secret);
    expect((await on(testRoute, "POST", "/test")).status).toBe(202);
    expect(await latest("webhook.tested")).toMatchObject({ target, changes: {} });
    expect((await on(webhookRoute, "DELETE")).status).toBe(204);
    expect(await latest("webhook.deleted")).toMatchObject({ target, changes: {} });
  });

  it("a refused write records nothing", async () => {
    const before = await tableCounts();
    const viewer = await tokenFor("viewer@acme.test");
    expect((await call(clientsRoute, "POST", "clients", { token: viewer, body: { name: "No" } })).status).toBe(403);
    expect((await call(clientsRoute, "POST", "clients", { token: owner, body: { name: "" } })).status).toBe(422);
    expect(await tableCounts()).toEqual(before);
  });
});

describe("team actions on the settings page are recorded, via web", () => {
  it("invited, role, client access and groups changed (one entry each), archived, unarchived", async () => {
    const actor = { tenantId: acmeId, userId: ownerId };
    const db = await prisma();
    const standard = await db.role.findFirstOrThrow({ where: { tenantId: acmeId, name: "Standard" } });
    const admin = await db.role.findFirstOrThrow({ where: { tenantId: acmeId, name: "Admin" } });
    const groups = await db.clientGroup.findMany({ where: { tenantId: acmeId }, orderBy: { id: "asc" } });
    const invited = await inviteTeamMember(actor, {
      name: "Ivy Invitee",
      email: "ivy@acme.test",
      roleId: String(standard.id),
      clientAccess: "all",
      groupIds: [],
    });
    const target = { type: "user", id: invited.userId, name: "Ivy Invitee" };
    expect(await latest("member.invited")).toMatchObject({
      actor: olivia(),
      via: "web",
      token: null,
      target,
      changes: { email: [null, "ivy@acme.test"], role: [null, "Standard"], client_access: [null, "all"] },
    });

    const count = await auditCount();
    await updateTeamMember(actor, {
      userId: String(invited.userId),
      roleId: String(admin.id),
      clientAccess: "client_groups",
      groupIds: [String(groups[0].id)],
    });
    expect(await auditCount()).toBe(count + 3);
    expect(await latest("member.role_changed")).toMatchObject({ target, changes: { role: ["Standard", "Admin"] } });
    expect(await latest("member.client_access_changed")).toMatchObject({
      changes: { client_access: ["all", "client_groups"] },
    });
    expect(await latest("member.groups_changed")).toMatchObject({ changes: { client_groups: [[], [groups[0].id]] } });
    // Sending the same again changes nothing, and records nothing.
    await updateTeamMember(actor, {
      userId: String(invited.userId),
      roleId: String(admin.id),
      clientAccess: "client_groups",
      groupIds: [String(groups[0].id)],
    });
    expect(await auditCount()).toBe(count + 3);

    await archiveTeamMember(actor, String(invited.userId));
    expect(await latest("member.archived")).toMatchObject({ via: "web", target });
    await unarchiveTeamMember(actor, String(invited.userId));
    expect(await latest("member.unarchived")).toMatchObject({ via: "web", target });
  });
});

describe("the operator's commands are recorded, actor cli", () => {
  it("tenant:create, user:create and user:archive", async () => {
    const client = await prisma();
    const { tenant } = await createTenant(client, {
      name: "Cedar Audit",
      ownerEmail: "owner@cedar.test",
      ownerName: "Cleo Cedar",
    });
    const { token } = await createApiToken(
      client,
      { tenantId: tenant.id, userId: (await userByEmail("owner@cedar.test")).id },
      "Cedar",
    );
    const [created] = await entries("action=tenant.created", token);
    expect(created).toMatchObject({
      actor: { type: "cli" },
      via: "cli",
      token: null,
      target: { type: "tenant", id: tenant.id, name: "Cedar Audit" },
      changes: { name: [null, "Cedar Audit"], timezone: [null, "UTC"], owner_email: [null, "owner@cedar.test"] },
    });
    const { user } = await createUser(client, { tenant: "Cedar Audit", email: "cal@cedar.test", name: "Cal Cedar" });
    const [added] = await entries("action=member.created", token);
    expect(added).toMatchObject({
      actor: { type: "cli" },
      target: { type: "user", id: user.id, name: "Cal Cedar" },
      changes: { role: [null, "Standard"], client_access: [null, "all"] },
    });
    await archiveUser(client, { tenant: "Cedar Audit", email: "cal@cedar.test" });
    const [archived] = await entries("action=member.archived", token);
    expect(archived).toMatchObject({ via: "cli", target: { type: "user", id: user.id } });
    // The new firm's log holds only its own entries.
    expect((await entries("", token)).map((e) => e.action)).toEqual([
      "member.archived",
      "member.created",
      "tenant.created",
    ]);
  });
});

describe("atomic with the change", () => {
  it("a write that fails after its entry was written leaves no entry", async () => {
    const db = await prisma();
    await db.$executeRawUnsafe(`
      CREATE FUNCTION fail_city() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.city = 'Fails' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`);
    await db.$executeRawUnsafe(
      "CREATE TRIGGER fail_city BEFORE UPDATE ON clients FOR EACH ROW EXECUTE FUNCTION fail_city()",
    );
    try {
      const { uuid } = await newClient("Rolled Back");
      const count = await auditCount();
      spyOnLog("error");
      expect(await failingStatus(clientRoute, "PUT", `clients/${uuid}`, { city: "Fails" }, uuid)).toBe(500);
      expect(await auditCount()).toBe(count);
      expect((await db.client.findFirstOrThrow({ where: { uuid } })).city).toBe("Leeds");
    } finally {
      vi.restoreAllMocks();
      await db.$executeRawUnsafe("DROP TRIGGER fail_city ON clients");
    }
  });

  it("an entry that cannot be written undoes the write (interactive and batch transactions)", async () => {
    const db = await prisma();
    await db.$executeRawUnsafe(`
      CREATE FUNCTION fail_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.target_name LIKE '%Unrecorded%' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`);
    await db.$executeRawUnsafe(
      "CREATE TRIGGER fail_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION fail_audit()",
    );
    spyOnLog("error");
    try {
      const before = await tableCounts();
      expect(await failingStatus(clientsRoute, "POST", "clients", { name: "Unrecorded client" })).toBe(500);
      expect(await tableCounts()).toEqual(before);

      const { uuid } = await newClient("Recorded");
      expect(await failingStatus(clientRoute, "PUT", `clients/${uuid}`, { name: "Unrecorded rename" }, uuid)).toBe(500);
      expect((await db.client.findFirstOrThrow({ where: { uuid } })).name).toBe("Recorded");

      // A batch transaction: the webhook's delete is undone with its entry.
      const hook = await call(webhooksRoute, "POST", "webhooks", {
        token: owner,
        body: { url: "http://127.0.0.1:9/a", events: ["client.created"], description: "x" },
      });
      await db.$executeRaw`UPDATE webhook_endpoints SET url = 'http://127.0.0.1:9/Unrecorded' WHERE uuid = ${hook.body.uuid}::uuid`;
      const { uuid: hookUuid } = hook.body;
      expect(await failingStatus(webhookRoute, "DELETE", `webhooks/${hookUuid}`, undefined, hookUuid)).toBe(500);
      expect(await db.webhookEndpoint.count({ where: { uuid: hookUuid } })).toBe(1);
    } finally {
      vi.restoreAllMocks();
      await db.$executeRawUnsafe("DROP TRIGGER fail_audit ON audit_events");
    }
  });
});

describe("append-only", () => {
  it("the database refuses UPDATE, DELETE and TRUNCATE, also of one entry, whoever asks", async () => {
    const db = await prisma();
    await newClient("Permanent");
    const [{ id }] = await db.$queryRaw<{ id: number }[]>`SELECT max(id) AS id FROM audit_events`;
    const count = await auditCount();
    await expect(db.$executeRaw`UPDATE audit_events SET target_name = 'forged' WHERE id = ${id}`).rejects.toThrow(
      /append-only/,
    );
    await expect(db.$executeRaw`DELETE FROM audit_events WHERE id = ${id}`).rejects.toThrow(/append-only/);
    await expect(db.$executeRawUnsafe("DELETE FROM audit_events")).rejects.toThrow(/append-only/);
    await expect(db.$executeRawUnsafe("TRUNCATE audit_events")).rejects.toThrow(/append-only/);
    // Prisma's own writes go through the same trigger.
    await expect(db.auditEvent.deleteMany({})).rejects.toThrow();
    await expect(db.auditEvent.updateMany({ data: { action: "client.created" } })).rejects.toThrow();
    // prune_audit_events is the one path, and it refuses a retention under its floor (30 days).
    await expect(db.$queryRawUnsafe("SELECT prune_audit_events(29)")).rejects.toThrow(/at least 30/);
    expect(await auditCount()).toBe(count);
    expect((await db.$queryRaw<{ n: string }[]>`SELECT target_name AS n FROM audit_events WHERE id = ${id}`)[0].n).toBe(
      "Permanent",
    );
  });
});

describe("retention", () => {
  it("prunes entries older than AUDIT_RETENTION_DAYS (400 by default) and keeps the rest", async () => {
    const db = await prisma();
    const insertAged = (days: number, name: string) => db.$executeRaw`
      INSERT INTO audit_events (tenant_id, action, via, target_type, target_name, created_at)
      VALUES (${acmeId}, 'client.updated', 'cli', 'client', ${name}, now() - make_interval(days => ${days}::int))`;
    await insertAged(401, "Aged 401");
    await insertAged(399, "Aged 399");
    await insertAged(40, "Aged 40");
    expect(auditRetentionDays({})).toBe(400);
    expect(await pruneAuditEvents()).toBe(1);
    const names = async () =>
      (await db.auditEvent.findMany({ where: { targetName: { startsWith: "Aged" } } })).map((e) => e.targetName).sort();
    expect(await names()).toEqual(["Aged 399", "Aged 40"]);
    vi.stubEnv("AUDIT_RETENTION_DAYS", "30");
    try {
      expect(auditRetentionDays()).toBe(30);
      expect(await pruneAuditEvents()).toBe(2);
    } finally {
      vi.stubEnv("AUDIT_RETENTION_DAYS", "");
    }
    expect(await names()).toEqual([]);
    // Recent entries stay.
    expect(await auditCount()).toBeGreaterThan(0);
    // The webhooks' cron route prunes too.
    await insertAged(500, "Aged 500");
    vi.stubEnv("CRON_SECRET", "audit-cron");
    const res = await cronRoute.GET(
      new Request("http://localhost/api/cron/webhooks", { headers: { authorization: "Bearer audit-cron" } }),
    );
    expect(await res.json()).toMatchObject({ audit_pruned: 1 });
    expect(await names()).toEqual([]);
    expect(() => auditRetentionDays({ AUDIT_RETENTION_DAYS: "0" })).toThrow(/AUDIT_RETENTION_DAYS/);
    expect(() => auditRetentionDays({ AUDIT_RETENTION_DAYS: "ten" })).toThrow(/AUDIT_RETENTION_DAYS/);
  });
});

describe("GET /audit-events", () => {
  it("newest first in cursor pages of the Laravel cursor envelope", async () => {
    for (const name of ["Page A", "Page B", "Page C"]) await newClient(name);
    const first = await call(auditRoute, "GET", "audit-events?action=client.created&limit=2", { token: owner });
    expect(first.status).toBe(200);
    expect(first.body.links).toMatchObject({ first: null, last: null });
    expect(first.body.meta).toMatchObject({ per_page: 2 });
    expect(first.body.data.map((e: any) => e.target.name)).toEqual(["Page C", "Page B"]);
    const next = await call(auditRoute, "GET", new URL(first.body.links.next).search.replace(/^\?/, "audit-events?"), {
      token: owner,
    });
    expect(next.status).toBe(200);
    expect(next.body.data[0].target.name).toBe("Page A");
    const ids = [...first.body.data, ...next.body.data].map((e: any) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // A cursor is bound to its filters.
    const other = await call(
      auditRoute,
      "GET",
      `audit-events?action=client.updated&cursor=${first.body.meta.next_cursor}`,
      {
        token: owner,
      },
    );
    expect(other.status).toBe(422);
    expect(Object.keys(other.body.errors)).toEqual(["cursor"]);
  });

  it("filters by action, actor_id, target_type, target_uuid, since and until", async () => {
    const { uuid } = await newClient("Filtered");
    await call(clientRoute, "PUT", `clients/${uuid}`, { token: owner, params: { uuid }, body: { city: "Hull" } });
    const admin = await userByEmail("admin@acme.test");
    await newClient("By Adam", await tokenFor("admin@acme.test"));

    const about = await entries(`target_uuid=${uuid.toUpperCase()}`);
    expect(about.map((e) => e.action)).toEqual(["client.updated", "client.created"]);
    expect((await entries(`actor_id=${admin.id}`)).every((e) => e.actor.id === admin.id)).toBe(true);
    expect((await entries(`actor_id=${admin.id}`)).map((e) => e.target.name)).toContain("By Adam");
    expect((await entries("target_type=webhook")).every((e) => e.target.type === "webhook")).toBe(true);
    const [newest] = about;
    expect(await entries(`target_uuid=${uuid}&since=${encodeURIComponent(newest.created_at)}`)).toHaveLength(
      about.filter((e) => e.created_at >= newest.created_at).length,
    );
    expect(await entries(`target_uuid=${uuid}&until=2000-01-01T00:00:00Z`)).toEqual([]);
    expect(await entries("actor_id=2147483647")).toEqual([]);
  });

  it("is 422 for a bad filter, naming it", async () => {
    for (const [query, field] of [
      ["action=client.exploded", "action"],
      ["actor_id=abc", "actor_id"],
      ["actor_id=0", "actor_id"],
      ["target_type=planet", "target_type"],
      ["target_uuid=not-a-uuid", "target_uuid"],
      ["since=yesterday", "since"],
      ["until=2026-13-01T00:00:00Z", "until"],
      ["limit=1001", "limit"],
      ["cursor=forged.cursor", "cursor"],
    ]) {
      const res = await call(auditRoute, "GET", `audit-events?${query}`, { token: owner });
      expect(res.status, query).toBe(422);
      expect(Object.keys(res.body.errors), query).toEqual([field]);
    }
  });

  it("needs audit.read: Owners and Admins, also with a read-only token; not Standard users nor Viewers", async () => {
    const admin = await call(auditRoute, "GET", "audit-events", { token: await tokenFor("admin@acme.test") });
    expect(admin.status).toBe(200);
    const { token: readOnly } = await createApiToken(
      await prisma(),
      { tenantId: acmeId, userId: ownerId },
      "read only",
      { access: READ_ONLY },
    );
    expect((await call(auditRoute, "GET", "audit-events", { token: readOnly })).status).toBe(200);
    for (const email of ["standard@acme.test", "viewer@acme.test"]) {
      const res = await call(auditRoute, "GET", "audit-events", { token: await tokenFor(email) });
      expect(res.status, email).toBe(403);
    }
    expect((await call(auditRoute, "GET", "audit-events", { token: null })).status).toBe(401);
    expect((await call(auditRoute, "POST", "audit-events", { token: owner, body: {} })).status).toBe(405);
  });

  it("shows a firm only its own entries, whatever the filters name", async () => {
    const birch = await tokenFor("owner@birch.test");
    const { uuid } = await newClient("Acme Secret Client");
    const seen = await entries("limit=1000", birch);
    expect(JSON.stringify(seen)).not.toContain("Acme Secret Client");
    expect(await entries(`target_uuid=${uuid}`, birch)).toEqual([]);
    expect(await entries(`actor_id=${ownerId}`, birch)).toEqual([]);
    // Written by the record function directly for another firm, it stays there too.
    const birchId = (await userByEmail("owner@birch.test")).tenantId;
    const db = await prisma();
    await recordAudit(
      db,
      { actor: { tenantId: birchId, via: "cli", userId: ownerId, tokenId: null, tokenName: null, address: null } },
      {
        action: "client.updated",
        target: { type: "client", name: "Cross-tenant actor id" },
      },
    );
    // An actor id of another firm names nobody there: no name or email is copied in.
    const [cross] = await entries("limit=1", birch);
    expect(cross).toMatchObject({
      target: { name: "Cross-tenant actor id" },
      actor: { type: "user", id: ownerId, name: "", email: "" },
    });
  });
});

describe("tokens, account and sign-in actions", () => {
  it("token created (page and CLI), deleted, revoked; profile and password changed; sign-ins", async () => {
    const { createOwnToken, revokeOwnToken, revokeTokenOfFirm } = await import("@/lib/tokens/settings");
    const { createApiTokenForEmail } = await import("@/lib/tokens");
    const { updateProfile, changePassword } = await import("@/lib/auth/account");
    const { authorizeSignIn } = await import("@/lib/auth/sign-in");
    const { DEMO_PASSWORD } = await import("@/lib/demo/seed");
    const me = { tenantId: acmeId, userId: ownerId };
    const { summary } = await createOwnToken(me, "Page token", { expiresInDays: null });
    expect(await latest("token.created")).toMatchObject({
      via: "web",
      target: { type: "token", id: summary.id, name: "Page token" },
    });
    await revokeOwnToken(me, summary.id);
    expect(await latest("token.deleted")).toMatchObject({ target: { id: summary.id, name: "Page token" } });
    const { summary: cli } = await createApiTokenForEmail(await prisma(), "standard@acme.test", "CLI token");
    expect(await latest("token.created")).toMatchObject({ via: "cli", actor: { type: "cli" }, target: { id: cli.id } });
    await revokeTokenOfFirm(me, cli.id);
    expect(await latest("token.revoked")).toMatchObject({ via: "web", actor: olivia(), target: { name: "CLI token" } });

    await updateProfile(me, { firstname: "Olivia", lastname: "Owner", timezone: "Europe/Paris" });
    expect((await latest("profile.updated")).changes).toEqual({ timezone: ["Europe/London", "Europe/Paris"] });
    expect(await changePassword(me, DEMO_PASSWORD, "a-new-long-password")).not.toBeNull();
    expect(await latest("password.changed")).toMatchObject({ changes: { password: "changed" } });
    expect(JSON.stringify(await entries())).not.toContain("a-new-long-password");

    expect(await authorizeSignIn({ email: "owner@acme.test", password: "a-new-long-password" })).not.toBeNull();
    expect(await latest("sign_in.succeeded")).toMatchObject({ target: { type: "user", id: ownerId } });
    expect(await authorizeSignIn({ email: "owner@acme.test", password: "wrong" })).toBeNull();
    expect(await latest("sign_in.failed")).toMatchObject({ actor: olivia(), target: { id: ownerId } });
  });
});
