// /webhooks: create, list, get, update, delete, rotate, test, deliveries. Permission (webhooks.manage: Owners and
// Admins), tenant isolation, validation and the secret shown only at create and rotate, on every endpoint.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as deliveriesRoute from "@/app/api/v1/webhooks/[uuid]/deliveries/route";
import * as rotateRoute from "@/app/api/v1/webhooks/[uuid]/rotate-secret/route";
import * as webhookRoute from "@/app/api/v1/webhooks/[uuid]/route";
import * as testRoute from "@/app/api/v1/webhooks/[uuid]/test/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import { prisma } from "@/lib/db/client";
import { deliverDue } from "@/lib/webhooks/dispatch";
import { MAX_ENDPOINTS } from "@/lib/webhooks/events";
import { call, type RouteModule, tokenFor } from "../support/api";
import { type Receiver, startReceiver } from "../support/webhook-receiver";

const HOOK = "https://hooks.example.com/in";
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
let owner: string;
let admin: string;
let standard: string;
let viewer: string;
let birch: string;
let receiver: Receiver;

beforeAll(async () => {
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "true");
  [owner, admin, standard, viewer, birch] = await Promise.all(
    ["owner@acme.test", "admin@acme.test", "standard@acme.test", "viewer@acme.test", "owner@birch.test"].map(tokenFor),
  );
  receiver = await startReceiver();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await receiver.close();
});

const create = (body: unknown, token = owner) => call(webhooksRoute, "POST", "webhooks", { token, body });
const list = (token = owner) => call(webhooksRoute, "GET", "webhooks", { token });
const on = (route: RouteModule, method: string, uuid: string, suffix = "", token = owner, body?: unknown) =>
  call(route, method, `webhooks/${uuid}${suffix}`, { token, params: { uuid }, body });
const read = (uuid: string, token = owner) => on(webhookRoute, "GET", uuid, "", token);
const update = (uuid: string, body: unknown, token = owner) => on(webhookRoute, "PUT", uuid, "", token, body);
const remove = (uuid: string, token = owner) => on(webhookRoute, "DELETE", uuid, "", token);
const rotate = (uuid: string, token = owner) => on(rotateRoute, "POST", uuid, "/rotate-secret", token);
const sendTest = (uuid: string, token = owner) => on(testRoute, "POST", uuid, "/test", token);
/** The attempt the test route left for after its answer, made here as the webhook timer would. */
const attempt = async (deliveryUuid: string) => {
  const delivery = await (await prisma()).webhookDelivery.findFirstOrThrow({ where: { uuid: deliveryUuid } });
  await deliverDue({ tenantId: delivery.tenantId, deliveryId: delivery.id });
};
const deliveries = (uuid: string, token = owner, query = "") =>
  on(deliveriesRoute, "GET", uuid, `/deliveries${query}`, token);

const valid = () => ({ url: receiver.url, events: ["client.created", "job.completed"], description: "CRM sync" });

async function endpointCount() {
  return (await prisma()).webhookEndpoint.count();
}

describe("POST /webhooks", () => {
  it("creates an endpoint and answers its whsec_ secret once", async () => {
    const res = await create(valid());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      url: receiver.url,
      events: ["client.created", "job.completed"],
      description: "CRM sync",
      enabled: true,
      disabled_reason: null,
      failing_since: null,
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.body.secret.slice(6), "base64")).toHaveLength(32);
    const again = await read(res.body.uuid);
    expect(again.status).toBe(200);
    expect(again.body).not.toHaveProperty("secret");
    expect(JSON.stringify((await list()).body)).not.toContain(res.body.secret);
  });

  it("an Admin may create; duplicate event names collapse", async () => {
    const res = await create({ url: receiver.url, events: ["job.created", "job.created"] }, admin);
    expect(res.status).toBe(201);
    expect(res.body.events).toEqual(["job.created"]);
    expect(res.body.description).toBe("");
  });

  it.each([
    [{ events: ["client.created"] }, ["url"]],
    [{ url: HOOK }, ["events"]],
    [{ url: HOOK, events: [] }, ["events"]],
    [{ url: HOOK, events: ["client.deleted"] }, ["events.0"]],
    [{ url: HOOK, events: "client.created" }, ["events"]],
    [{ url: 42, events: ["client.created"] }, ["url"]],
    [{ url: "not a url", events: ["client.created"] }, ["url"]],
    [{ url: `https://x.example.com/${"a".repeat(2000)}`, events: ["client.created"] }, ["url"]],
    [{ url: HOOK, events: ["client.created"], description: "d".repeat(501) }, ["description"]],
    [{ url: HOOK, events: ["client.created"], description: "nul\u0000" }, ["description"]],
  ])("refuses %j with a 422 naming %j", async (body, fields) => {
    const before = await endpointCount();
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(fields);
    expect(await endpointCount()).toBe(before);
  });

  it("refuses private and non-https targets unless WEBHOOKS_ALLOW_PRIVATE=true", async () => {
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "false");
    try {
      for (const url of [
        receiver.url,
        "http://hooks.example.com/in",
        "https://127.0.0.1/in",
        "https://169.254.169.254/latest",
        "https://[::ffff:10.0.0.1]/in",
        "https://localhost/in",
      ]) {
        const res = await create({ url, events: ["client.created"] });
        expect(res.status, url).toBe(422);
        expect(Object.keys(res.body.errors), url).toEqual(["url"]);
      }
      expect((await create({ url: "https://hooks.example.com/in", events: ["client.created"] })).status).toBe(201);
    } finally {
      vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "true");
    }
  });

  it("is 400 for a body that is not JSON, 415 for one that is not declared JSON", async () => {
    const bad = await call(webhooksRoute, "POST", "webhooks", {
      token: owner,
      rawBody: "{",
      headers: { "Content-Type": "application/json" },
    });
    expect(bad.status).toBe(400);
    const text = await call(webhooksRoute, "POST", "webhooks", {
      token: owner,
      rawBody: "{}",
      headers: { "Content-Type": "text/plain" },
    });
    expect(text.status).toBe(415);
  });

  it("allows at most MAX_ENDPOINTS per firm", async () => {
    const db = await prisma();
    const tenantId = (await db.user.findFirstOrThrow({ where: { email: "owner@birch.test" } })).tenantId;
    await db.webhookEndpoint.createMany({
      data: Array.from({ length: MAX_ENDPOINTS }, () => ({
        tenantId,
        url: receiver.url,
        events: ["job.created"],
        secret: "whsec_AAAA",
      })),
    });
    const res = await create(valid(), birch);
    expect(res.status).toBe(422);
    expect(res.body.errors.url[0]).toMatch(/at most/);
    await db.webhookEndpoint.deleteMany({ where: { tenantId } });
  });
});

describe("permissions and tenancy on every endpoint", () => {
  let acmeHook: string;
  let birchHook: string;
  beforeAll(async () => {
    acmeHook = (await create(valid())).body.uuid;
    birchHook = (await create(valid(), birch)).body.uuid;
  });

  const each = [
    ["GET /webhooks", () => list(standard), () => list(viewer)],
    ["POST /webhooks", () => create({ url: 1 }, standard), () => create({ url: 1 }, viewer)],
  ] as const;
  it.each(each)("%s is 403 for Standard and Viewer users (before validation)", async (_, asStandard, asViewer) => {
    for (const res of [await asStandard(), await asViewer()]) {
      expect(res.status).toBe(403);
      expect(res.body.errors).toBeUndefined();
    }
  });

  const perRecord: [string, (uuid: string, token: string) => Promise<{ status: number; body: any }>][] = [
    ["GET /webhooks/{uuid}", (u, t) => read(u, t)],
    ["PUT /webhooks/{uuid}", (u, t) => update(u, { url: 42 }, t)],
    ["DELETE /webhooks/{uuid}", (u, t) => remove(u, t)],
    ["POST /webhooks/{uuid}/rotate-secret", (u, t) => rotate(u, t)],
    ["POST /webhooks/{uuid}/test", (u, t) => sendTest(u, t)],
    ["GET /webhooks/{uuid}/deliveries", (u, t) => deliveries(u, t, "?limit=0")],
  ];
  it.each(perRecord)("%s: 403 without the permission, 404 unknown or malformed, 403 another firm's", async (_, run) => {
    const before = await endpointCount();
    expect((await run(acmeHook, standard)).status).toBe(403);
    expect((await run(acmeHook, viewer)).status).toBe(403);
    expect((await run(UNKNOWN, owner)).status).toBe(404);
    expect((await run("not-a-uuid", owner)).status).toBe(404);
    const foreign = await run(birchHook, owner);
    expect(foreign.status).toBe(403);
    expect(foreign.body.errors).toBeUndefined();
    expect(await endpointCount()).toBe(before);
    expect((await read(birchHook, birch)).body.enabled).toBe(true);
  });

  it("lists only the caller's firm's endpoints", async () => {
    const acme = (await list()).body.data.map((w: { uuid: string }) => w.uuid);
    expect(acme).toContain(acmeHook);
    expect(acme).not.toContain(birchHook);
    expect((await list(birch)).body.data.map((w: { uuid: string }) => w.uuid)).toEqual([birchHook]);
  });
});

describe("PUT /webhooks/{uuid}", () => {
  it("changes only what is sent; disabling gives up pending deliveries, enabling clears the reason", async () => {
    const { uuid } = (await create(valid())).body;
    const res = await update(uuid, { events: ["contact.updated"] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url: receiver.url, events: ["contact.updated"], description: "CRM sync" });

    const db = await prisma();
    const endpoint = await db.webhookEndpoint.findFirstOrThrow({ where: { uuid } });
    const event = await db.webhookEvent.create({
      data: { tenantId: endpoint.tenantId, msgId: `msg_pending_${uuid}`, type: "contact.updated", body: "{}" },
    });
    await db.webhookDelivery.create({
      data: {
        tenantId: endpoint.tenantId,
        endpointId: endpoint.id,
        eventId: event.id,
        nextAttemptAt: new Date(Date.now() + 60_000),
      },
    });
    const off = await update(uuid, { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, disabled_reason: "manual" });
    expect((await deliveries(uuid)).body.data[0]).toMatchObject({ status: "failed", next_attempt_at: null });
    const on = await update(uuid, { enabled: true });
    expect(on.body).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it.each([
    [{ url: "ftp://x.example.com" }, ["url"]],
    [{ events: [] }, ["events"]],
    [{ enabled: "yes" }, ["enabled"]],
  ])("refuses %j", async (body, fields) => {
    const { uuid } = (await create(valid())).body;
    const res = await update(uuid, body);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(fields);
  });
});

describe("DELETE /webhooks/{uuid}", () => {
  it("deletes the endpoint (204, no body) and it is gone after", async () => {
    const { uuid } = (await create(valid())).body;
    const res = await remove(uuid);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect((await read(uuid)).status).toBe(404);
  });
});

describe("POST /webhooks/{uuid}/rotate-secret", () => {
  it("answers a new secret; the old one keeps signing for 24 hours", async () => {
    const first = (await create(valid())).body;
    const res = await rotate(first.uuid);
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(first.secret);
    const row = await (await prisma()).webhookEndpoint.findFirstOrThrow({ where: { uuid: first.uuid } });
    expect(row.previousSecret).toBe(first.secret);
    expect(row.previousSecretExpiresAt!.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
  });
});

describe("POST /webhooks/{uuid}/test and GET …/deliveries", () => {
  it("answers 202 with the recorded delivery at once, then delivers it signed and lists its outcome", async () => {
    const { uuid } = (await create(valid())).body;
    const before = receiver.received.length;
    const res = await sendTest(uuid);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ event_type: "webhook.test", status: "pending", attempts: 0, attempt_history: [] });
    // Nothing was sent while the request waited: the attempt runs after the answer (here, the timer's pass).
    expect(receiver.received.length).toBe(before);
    const pending = await deliveries(uuid);
    expect(pending.body.data).toEqual([res.body]);

    await attempt(res.body.uuid);
    expect(receiver.received.length).toBe(before + 1);
    const got = receiver.received.at(-1)!;
    expect(got.headers["webhook-id"]).toBe(res.body.event_id);
    expect(JSON.parse(got.body)).toMatchObject({ type: "webhook.test", data: { webhook_uuid: uuid } });

    const listed = await deliveries(uuid);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({
      uuid: res.body.uuid,
      status: "succeeded",
      attempts: 1,
      response_status: 200,
    });
    expect(listed.body.data[0].duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("a failed test is listed with its status code, at most 1 KB of the answer, and its next attempt", async () => {
    const { uuid } = (await create(valid())).body;
    receiver.answers.push(500);
    const res = await sendTest(uuid);
    await attempt(res.body.uuid);
    const [listed] = (await deliveries(uuid)).body.data;
    expect(listed).toMatchObject({ uuid: res.body.uuid, status: "pending", attempts: 1, response_status: 500 });
    expect(listed.response_body.length).toBeLessThanOrEqual(1024);
    expect(new Date(listed.next_attempt_at).getTime()).toBeGreaterThan(Date.now());
  });

  it.each(["?limit=0", "?limit=101", "?limit=x"])("deliveries%s is a 422", async (query) => {
    const { uuid } = (await create(valid())).body;
    const res = await deliveries(uuid, owner, query);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["limit"]);
  });
});
