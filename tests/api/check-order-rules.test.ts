// The wrapper's checks and their order (decisions.md, Wire format: 401 token → 403 the token's access → 403
// permission → 404/403 the record in the path → 422 query or body), the link rule (linking a record needs read access
// to its resource; null unlinks) and the subscription rule, through the route handlers, on firms of their own
// (tests/support/visibility-firm.ts). Part of the mutation run; tests/api/check-order.test.ts sweeps every write.
import { beforeAll, describe, expect, it, vi } from "vitest";
// The route modules are imported before any test runs: building their handlers is then no one test's work (for the
// mutation run's coverage per test, which would otherwise credit it to whichever test imported a module first).
import * as contactsRoute from "@/app/api/v1/contacts/route";
import * as jobRoute from "@/app/api/v1/jobs/[uuid]/route";
import * as jobsRoute from "@/app/api/v1/jobs/route";
import * as meRoute from "@/app/api/v1/me/route";
import * as deliveriesRoute from "@/app/api/v1/webhooks/[uuid]/deliveries/route";
import * as rotateRoute from "@/app/api/v1/webhooks/[uuid]/rotate-secret/route";
import * as webhookRoute from "@/app/api/v1/webhooks/[uuid]/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import { apiRoute } from "@/lib/api/route";
import { database } from "@/lib/db/client";
import { createApiToken } from "@/lib/tokens";
import { FULL_ACCESS, NO_ACCESS, type TokenAccess, type TokenResource } from "@/lib/tokens/access";
import { call } from "../support/api";
import { captureLog } from "../support/log";
import { type Firm, makeVisibilityFirm, type Person } from "../support/visibility-firm";

/** What the wrapper hands Next's after() (outside a request scope it would throw, and tests would see nothing). */
const afterResponse = vi.hoisted(() => [] as (() => unknown)[]);
vi.mock("next/server", async (original) => ({
  ...(await original<typeof import("next/server")>()),
  after: (task: () => unknown) => afterResponse.push(task),
}));

const UNKNOWN_UUID = "00000000-0000-4000-8000-000000000000";
const ROLE_REFUSAL = { message: "Your role does not allow this action." };
const RECORD_REFUSAL = { message: "You do not have access to this record." };

let firm: Firm;
const webhooks = { own: "", foreign: "" };

beforeAll(async () => {
  const db = (await database()).prisma;
  firm = await makeVisibilityFirm(db);
  // Another firm, with nothing but a webhook endpoint.
  const other = await db.tenant.create({ data: { name: `Order elsewhere ${firm.tenant.id}` } });
  for (const [key, tenantId] of [
    ["own", firm.tenant.id],
    ["foreign", other.id],
  ] as const) {
    const endpoint = await db.webhookEndpoint.create({
      data: { tenantId, url: "https://127.0.0.1:9/order", events: ["client.created"], secret: "whsec_b3JkZXI=" },
    });
    webhooks[key] = endpoint.uuid;
  }
});

/** A token of a person of the firm with this access. */
async function tokenOf(person: Person, access: Partial<TokenAccess> = {}) {
  const user = firm.people[person];
  const db = (await database()).prisma;
  return (
    await createApiToken(db, { tenantId: user.tenantId, userId: user.id }, `order ${person}`, {
      access: { ...FULL_ACCESS, ...access },
    })
  ).token;
}

const jobCount = async () => (await database()).prisma.job.count({ where: { tenantId: firm.tenant.id } });

describe("the token's access comes first, by method", () => {
  it("lets a token that reads jobs list them, and refuses it every write", async () => {
    const token = await tokenOf("staff", { jobs: "read" });
    const jobs = jobsRoute;
    expect((await call(jobs, "GET", "jobs", { token })).status).toBe(200);
    const before = await jobCount();
    const created = await call(jobs, "POST", "jobs", { token, body: { name: "Refused" } });
    expect(created).toMatchObject({ status: 403, body: { message: "This token can only read jobs." } });
    const job = firm.jobs["Managed work"].uuid;
    const updated = await call(jobRoute, "PUT", `jobs/${job}`, {
      token,
      params: { uuid: job },
      body: { name: "Refused" },
    });
    expect(updated).toMatchObject({ status: 403, body: { message: "This token can only read jobs." } });
    expect(await jobCount()).toBe(before);
  });

  it("refuses a read without access before the role, and a DELETE as a write", async () => {
    const none = await tokenOf("viewer", { jobs: "none" });
    const jobs = jobsRoute;
    expect(await call(jobs, "GET", "jobs", { token: none })).toMatchObject({
      status: 403,
      body: { message: "This token has no access to jobs." },
    });
    // A Viewer's token without jobs: the token's 403, not the role's.
    expect(await call(jobs, "POST", "jobs", { token: none, body: { name: 1 } })).toMatchObject({
      status: 403,
      body: { message: "This token has no access to jobs." },
    });
    const reader = await tokenOf("owner", { webhooks: "read" });
    const remove = await call(webhookRoute, "DELETE", `webhooks/${webhooks.own}`, {
      token: reader,
      params: { uuid: webhooks.own },
    });
    expect(remove).toMatchObject({ status: 403, body: { message: "This token can only read webhooks." } });
  });

  it("asks nothing of a token on the paths about its caller", async () => {
    const token = await tokenOf("viewer", NO_ACCESS);
    const me = await call(meRoute, "GET", "me", { token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe("viewer@visibility.test");
  });

  it("judges a HEAD, answered by the GET handler, as a read, and answers OPTIONS without a token", async () => {
    const token = await tokenOf("staff", { jobs: "read" });
    const head = await jobsRoute.GET(
      new Request("http://localhost/api/v1/jobs", { method: "HEAD", headers: { Authorization: `Bearer ${token}` } }),
      { params: Promise.resolve({}) },
    );
    expect(head.status).toBe(200);
    const options = await jobsRoute.OPTIONS(new Request("http://localhost/api/v1/jobs", { method: "OPTIONS" }), {
      params: Promise.resolve({}),
    });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, POST, OPTIONS");
  });

  it("names the caller in the request's log line", async () => {
    const token = await tokenOf("grouped", { jobs: "read" });
    const log = captureLog();
    try {
      await call(jobsRoute, "GET", "jobs", { token });
    } finally {
      log.restore();
    }
    const line = log.lines.find((l) => l.kind === "request");
    const stored = await (await database()).prisma.apiToken.findFirstOrThrow({
      where: { userId: firm.people.grouped.id },
      orderBy: { id: "desc" },
    });
    expect(line).toMatchObject({ tenant_id: firm.tenant.id, user_id: firm.people.grouped.id, token_id: stored.id });
  });

  it("answers a method the path does not have with 405, whatever the token holds, and without one", async () => {
    const jobs = jobsRoute;
    for (const token of [await tokenOf("viewer", NO_ACCESS), null]) {
      const res = await call(jobs, "DELETE", "jobs", { token });
      expect(res).toMatchObject({
        status: 405,
        body: { message: "Method not allowed. This path accepts: GET, POST, OPTIONS." },
      });
      expect(res.headers.get("allow")).toBe("GET, POST, OPTIONS");
      // The limit it counts against: the token's, or without one the address's.
      expect(res.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    }
    expect((await call(jobs, "GET", "jobs", { token: null })).status).toBe(401);
  });

  it("judges Accept after the token's access", async () => {
    const headers = { Accept: "text/html" };
    const jobs = jobsRoute;
    const none = await call(jobs, "GET", "jobs", { token: await tokenOf("staff", { jobs: "none" }), headers });
    expect(none.status).toBe(403);
    const reader = await call(jobs, "GET", "jobs", { token: await tokenOf("staff", { jobs: "read" }), headers });
    expect(reader.status).toBe(406);
  });
});

describe("declarations the wrapper refuses when a route file is loaded", () => {
  const handler = async () => ({});
  it("refuses an endpoint without a token resource, unless it is about the caller itself", () => {
    expect(() =>
      apiRoute({ method: "get", path: "/invoices", resource: "invoices" as TokenResource, handler }),
    ).toThrow(
      'GET /invoices (resource "invoices"): an endpoint names the token resource it belongs to (clients, contacts, ' +
        "jobs, users, time_logs, webhooks, audit); only /me, /token, /token/requests may name none.",
    );
    expect(() => apiRoute({ method: "get", path: "/clients", resource: null, handler })).toThrow(/only \/me, \/token/);
    expect(Object.keys(apiRoute({ method: "get", path: "/token", resource: null, handler }))).toEqual([
      "GET",
      "POST",
      "PUT",
      "PATCH",
      "DELETE",
      "OPTIONS",
    ]);
  });

  it("refuses a webhook write that does not say what it subscribes to", () => {
    expect(() => apiRoute({ method: "put", path: "/webhooks/{uuid}", resource: "webhooks", handler })).toThrow(
      "PUT /webhooks/{uuid} must declare the events the webhook endpoint has after it (subscribes).",
    );
    for (const method of ["get", "delete"] as const)
      expect(() => apiRoute({ method, path: "/webhooks/{uuid}", resource: "webhooks", handler })).not.toThrow();
  });

  it("refuses two endpoints of one method, or of two paths, in one route", () => {
    const list = { method: "get", path: "/jobs", resource: "jobs", handler } as const;
    expect(() => apiRoute(list, list)).toThrow("apiRoute: one endpoint per method, all of one path (given /jobs).");
    expect(() => apiRoute(list, { ...list, method: "post", path: "/clients" })).toThrow(/given \/jobs, \/clients/);
    expect(() => apiRoute()).toThrow("apiRoute: one endpoint per method, all of one path (given none).");
  });
});

describe("the role's permission before the record, the record before the query or body", () => {
  it("refuses a Viewer's write to a record that does not exist with the role's 403", async () => {
    const token = await tokenOf("viewer");
    const res = await call(jobRoute, "PUT", `jobs/${UNKNOWN_UUID}`, {
      token,
      params: { uuid: UNKNOWN_UUID },
      body: { name: 42 },
    });
    expect(res).toMatchObject({ status: 403, body: ROLE_REFUSAL });
  });

  it("answers a bad query on a missing record 404, on another firm's 403, on its own 422", async () => {
    const token = await tokenOf("owner");
    const deliveries = deliveriesRoute;
    const get = (uuid: string) =>
      call(deliveries, "GET", `webhooks/${uuid}/deliveries?limit=0`, { token, params: { uuid } });
    const missing = await get(UNKNOWN_UUID);
    expect(missing).toMatchObject({ status: 404, body: { message: "Webhook not found." } });
    expect(await get(webhooks.foreign)).toMatchObject({ status: 403, body: RECORD_REFUSAL });
    const own = await get(webhooks.own);
    expect(own.status).toBe(422);
    expect(Object.keys(own.body.errors)).toEqual(["limit"]);
  });

  it("answers a bad body on a missing job 404, on a job the user cannot see 403, on one it can 422", async () => {
    const token = await tokenOf("assigned");
    const job = jobRoute;
    const put = (uuid: string) => call(job, "PUT", `jobs/${uuid}`, { token, params: { uuid }, body: { name: 42 } });
    expect(await put(UNKNOWN_UUID)).toMatchObject({ status: 404, body: { message: "Job not found." } });
    expect(await put(firm.jobs["Unseen work"].uuid)).toMatchObject({ status: 403, body: RECORD_REFUSAL });
    const visible = await put(firm.jobs["Followed by assigned"].uuid);
    expect(visible.status).toBe(422);
    expect(Object.keys(visible.body.errors)).toEqual(["name"]);
  });
});

describe("linking a record needs read access to its resource", () => {
  const client = () => firm.clients["Managed Ltd"].uuid;

  it("links a client with read access on clients", async () => {
    const token = await tokenOf("staff", { clients: "read" });
    const res = await call(jobsRoute, "POST", "jobs", {
      token,
      body: { name: "Linked with read", client_uuid: client() },
    });
    expect(res.status).toBe(201);
    expect(res.body.client).toMatchObject({ uuid: client() });
  });

  it("refuses a link without access on clients, before the body's shape, and writes nothing", async () => {
    const token = await tokenOf("staff", { clients: "none" });
    const jobs = jobsRoute;
    const before = await jobCount();
    for (const body of [
      { name: "Linked without access", client_uuid: client() },
      { name: 42, client_uuid: client() },
    ]) {
      expect(await call(jobs, "POST", "jobs", { token, body })).toMatchObject({
        status: 403,
        body: { message: "This token has no access to clients, so it cannot link client_uuid." },
      });
    }
    expect(await jobCount()).toBe(before);
    const contact = await call(contactsRoute, "POST", "contacts", {
      token,
      body: { firstname: "Link", lastname: "Less", email: "link.less@visibility.test", client_uuid: client() },
    });
    expect(contact.status).toBe(403);
  });

  it("unlinks with client_uuid: null without access on clients", async () => {
    const token = await tokenOf("staff", { clients: "none" });
    const db = (await database()).prisma;
    const job = await db.job.create({
      data: { tenantId: firm.tenant.id, name: "To unlink", clientId: firm.clients["South Ltd"].id },
    });
    const res = await call(jobRoute, "PUT", `jobs/${job.uuid}`, {
      token,
      params: { uuid: job.uuid },
      body: { client_uuid: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.client).toBeNull();
    expect(
      (await db.job.findUniqueOrThrow({ where: { tenantId_id: { tenantId: job.tenantId, id: job.id } } })).clientId,
    ).toBeNull();
  });
});

describe("a webhook's events need read access to what they carry", () => {
  it("refuses to subscribe to jobs without access on jobs, before the body's shape", async () => {
    const token = await tokenOf("owner", { jobs: "none" });
    const hooks = webhooksRoute;
    for (const url of ["https://hooks.example.com/in", 42])
      expect(await call(hooks, "POST", "webhooks", { token, body: { url, events: ["job.created"] } })).toMatchObject({
        status: 403,
        body: { message: "This token has no access to jobs, so it cannot subscribe to job.created." },
      });
  });

  it("judges a change that leaves the events as stored by those events", async () => {
    const hook = webhookRoute;
    const put = async (access: Partial<TokenAccess>, body: object) =>
      call(hook, "PUT", `webhooks/${webhooks.own}`, {
        token: await tokenOf("owner", access),
        params: { uuid: webhooks.own },
        body,
      });
    expect(await put({ clients: "none" }, { enabled: true })).toMatchObject({
      status: 403,
      body: { message: "This token has no access to clients, so it cannot subscribe to client.created." },
    });
    // Events sent replace the stored ones: only what is sent is judged.
    expect((await put({ clients: "none" }, { events: ["job.created", 7] })).status).toBe(422);
    expect((await put({ clients: "none" }, { events: ["job.created"] })).status).toBe(200);
    expect((await put({ jobs: "none" }, { events: ["client.created"] })).status).toBe(200);
  });

  it("creates an endpoint whose events the token reads, answering 201", async () => {
    const token = await tokenOf("owner", { clients: "none" });
    const res = await call(webhooksRoute, "POST", "webhooks", {
      token,
      body: { url: "https://hooks.example.com/order", events: ["contact.created"] },
    });
    expect(res.status).toBe(201);
    expect(res.body.events).toEqual(["contact.created"]);
  });

  it("judges a write with no body, such as rotating the secret, by the stored events", async () => {
    const rotate = async (access: Partial<TokenAccess>) =>
      call(rotateRoute, "POST", `webhooks/${webhooks.own}/rotate-secret`, {
        token: await tokenOf("owner", access),
        params: { uuid: webhooks.own },
      });
    expect(await rotate({ clients: "none" })).toMatchObject({
      status: 403,
      body: { message: "This token has no access to clients, so it cannot subscribe to client.created." },
    });
    expect((await rotate({})).status).toBe(200);
  });
});

describe("work after the answer", () => {
  it("hands a write's webhook deliveries to after(), which attempts them", async () => {
    const db = (await database()).prisma;
    const endpoint = await db.webhookEndpoint.create({
      data: {
        tenantId: firm.tenant.id,
        url: "https://127.0.0.1:9/after",
        events: ["job.created"],
        secret: "whsec_YWZ0ZXI=",
      },
    });
    afterResponse.length = 0;
    const res = await call(jobsRoute, "POST", "jobs", {
      token: await tokenOf("staff"),
      body: { name: "Delivered after" },
    });
    expect(res.status).toBe(201);
    // The request log's batch waits in after() too, for a timer tests never reach: the tasks are started, and the
    // delivery looked for until it is attempted.
    for (const task of afterResponse) void task();
    const attempts = async () =>
      (await db.webhookDelivery.findFirst({ where: { tenantId: firm.tenant.id, endpointId: endpoint.id } }))?.attempts;
    await vi.waitFor(async () => expect(await attempts()).toBe(1), { timeout: 5_000, interval: 50 });
  });
});
