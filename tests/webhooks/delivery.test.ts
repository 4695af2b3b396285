// Delivery to a real receiver on loopback: Standard Webhooks signatures checked with the reference verifier, the
// retry schedule (on an injected clock) with the same webhook-id every time, 410 and five days of failures
// disabling the endpoint, the 15 s timeout, refused private targets, the cron route, pruning, and two dispatchers
// racing (on PostgreSQL: FOR UPDATE SKIP LOCKED) without sending one attempt twice.
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as cronRoute from "@/app/api/cron/webhooks/route";
import * as clientsRoute from "@/app/api/v1/clients/route";
import * as deliveriesRoute from "@/app/api/v1/webhooks/[uuid]/deliveries/route";
import * as rotateRoute from "@/app/api/v1/webhooks/[uuid]/rotate-secret/route";
import * as webhookRoute from "@/app/api/v1/webhooks/[uuid]/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import { prisma } from "@/lib/db/client";
import { claimDue, deliverAllDue, deliverDue, pruneDeliveries } from "@/lib/webhooks/dispatch";
import { MAX_ATTEMPTS, RETRY_DELAYS_S } from "@/lib/webhooks/events";
import { httpSender } from "@/lib/webhooks/sender";
import { call, tokenFor } from "../support/api";
import { type Receiver, startReceiver } from "../support/webhook-receiver";

let owner: string;
let receiver: Receiver;
let hook: { uuid: string; secret: string; id: number; tenantId: number };

beforeAll(async () => {
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "true");
  owner = await tokenFor("owner@acme.test");
});
afterAll(() => vi.unstubAllEnvs());

/** The audit entries of the endpoint's being disabled, written with the change (decisions.md, Audit log). */
const disabledEntries = async () =>
  (await prisma()).auditEvent.findMany({
    where: { action: "webhook.disabled", targetUuid: hook.uuid },
    select: { via: true, actorId: true, changes: true },
  });

beforeEach(async () => {
  receiver = await startReceiver();
  const res = await call(webhooksRoute, "POST", "webhooks", {
    token: owner,
    body: { url: receiver.url, events: ["client.created"] },
  });
  const row = await (await prisma()).webhookEndpoint.findFirstOrThrow({ where: { uuid: res.body.uuid } });
  hook = { uuid: res.body.uuid, secret: res.body.secret, id: row.id, tenantId: row.tenantId };
});

afterEach(async () => {
  await receiver.close();
  // Each test has its own endpoint: the ones before it neither receive nor keep anything due.
  const db = await prisma();
  await db.webhookEndpoint.updateMany({ data: { enabled: false } });
  await db.webhookDelivery.updateMany({
    where: { status: "pending" },
    data: { status: "failed", nextAttemptAt: null },
  });
});

let clients = 0;
const createClient = () =>
  call(clientsRoute, "POST", "clients", { token: owner, body: { name: `Delivered ${++clients} ${Date.now()}` } });
const deliveriesOf = async () =>
  (await prisma()).webhookDelivery.findMany({
    where: { endpointId: hook.id, tenantId: hook.tenantId },
    orderBy: { id: "asc" },
  });
const endpointRow = async () =>
  (await prisma()).webhookEndpoint.findUniqueOrThrow({
    where: { tenantId_id: { tenantId: hook.tenantId, id: hook.id } },
  });
const headersOf = (i: number) => receiver.received[i].headers as Record<string, string>;

describe("a delivery", () => {
  it("reaches the receiver signed per Standard Webhooks, with the record as its GET answers", async () => {
    const created = await createClient();
    const result = await deliverDue();
    expect(result).toEqual({ claimed: 1, succeeded: 1, failed: 0 });
    expect(receiver.received).toHaveLength(1);
    const { headers, body } = receiver.received[0];
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const verified = new Webhook(hook.secret).verify(body, headers as Record<string, string>);
    expect(verified).toEqual({ type: "client.created", timestamp: expect.any(String), data: created.body });
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(body, headersOf(0))).toThrow();
    const [delivery] = await deliveriesOf();
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1, responseStatus: 200, nextAttemptAt: null });
    expect(await deliverDue()).toEqual({ claimed: 0, succeeded: 0, failed: 0 });
  });

  it("is retried on the schedule after failures, with the same webhook-id and body, then given up", async () => {
    await createClient();
    receiver.answers.push(...Array(MAX_ATTEMPTS).fill(500));
    let clock = Date.now() + 1000;
    const now = () => new Date(clock);
    expect((await deliverDue({ now })).failed).toBe(1);
    for (const [i, delay] of RETRY_DELAYS_S.entries()) {
      const [pending] = await deliveriesOf();
      expect(pending).toMatchObject({ status: "pending", attempts: i + 1, responseStatus: 500 });
      expect(pending.nextAttemptAt!.getTime() - clock).toBe(delay * 1000);
      clock += delay * 1000 - 1;
      expect((await deliverDue({ now })).claimed, `not before ${delay} s`).toBe(0);
      clock += 1;
      expect((await deliverDue({ now })).claimed, `after ${delay} s`).toBe(1);
    }
    const [last] = await deliveriesOf();
    expect(last).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, nextAttemptAt: null });
    expect(last.responseBody!.length).toBeLessThanOrEqual(1024);
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    const ids = new Set(receiver.received.map((r) => r.headers["webhook-id"]));
    const bodies = new Set(receiver.received.map((r) => r.body));
    expect([ids.size, bodies.size]).toEqual([1, 1]);
    // Every attempt is signed with its own time.
    expect(Number(headersOf(MAX_ATTEMPTS - 1)["webhook-timestamp"])).toBe(Math.floor(clock / 1000));
    // About 27.6 hours of failures: the endpoint stays enabled, and remembers since when it fails.
    expect(await endpointRow()).toMatchObject({ enabled: true, failingSince: expect.any(Date) });
  });

  it("after a failure, a success clears failing_since", async () => {
    await createClient();
    receiver.answers.push(503);
    await deliverDue();
    expect((await endpointRow()).failingSince).not.toBeNull();
    const later = new Date(Date.now() + 6000);
    expect(await deliverDue({ now: () => later })).toMatchObject({ succeeded: 1 });
    expect((await endpointRow()).failingSince).toBeNull();
    expect(receiver.received[0].headers["webhook-id"]).toBe(receiver.received[1].headers["webhook-id"]);
  });

  it("a 410 disables the endpoint and gives up its pending deliveries", async () => {
    await createClient();
    await createClient();
    receiver.answers.push(410);
    const result = await deliverDue({ limit: 1 });
    expect(result.failed).toBe(1);
    expect(await endpointRow()).toMatchObject({ enabled: false, disabledReason: "gone" });
    expect((await deliveriesOf()).map((d) => d.status)).toEqual(["failed", "failed"]);
    expect(await deliverDue()).toMatchObject({ claimed: 0 });
    const shown = await call(webhookRoute, "GET", `webhooks/${hook.uuid}`, {
      token: owner,
      params: { uuid: hook.uuid },
    });
    expect(shown.body).toMatchObject({ enabled: false, disabled_reason: "gone" });
    expect(await disabledEntries()).toEqual([
      { via: "system", actorId: null, changes: { enabled: [true, false], disabled_reason: [null, "gone"] } },
    ]);
  });

  it("five days of failures disable the endpoint", async () => {
    await createClient();
    const db = await prisma();
    const since = new Date(Date.now() - 5 * 24 * 3600_000 + 1000);
    await db.webhookEndpoint.update({
      where: { tenantId_id: { tenantId: hook.tenantId, id: hook.id } },
      data: { failingSince: since },
    });
    receiver.answers.push(500, 500);
    await deliverDue();
    expect(await endpointRow()).toMatchObject({ enabled: true }); // 1 s short of five days
    await deliverDue({ now: () => new Date(Date.now() + 10_000) });
    expect(await endpointRow()).toMatchObject({ enabled: false, disabledReason: "failing", failingSince: since });
    expect((await deliveriesOf())[0]).toMatchObject({ status: "failed" });
    expect(await disabledEntries()).toEqual([
      { via: "system", actorId: null, changes: { enabled: [true, false], disabled_reason: [null, "failing"] } },
    ]);
  });

  it("an answer later than the timeout is a failure, retried", async () => {
    await createClient();
    receiver.delayMs = 1500;
    const result = await deliverDue({ send: httpSender({ timeoutMs: 300 }) });
    expect(result.failed).toBe(1);
    const [delivery] = await deliveriesOf();
    expect(delivery).toMatchObject({ status: "pending", responseStatus: null, attempts: 1 });
    expect(delivery.error).toMatch(/No complete answer/);
    expect(delivery.durationMs).toBeLessThan(1400);
  });

  it("a target that resolves to a private address is refused at delivery, and never reached", async () => {
    await createClient();
    const db = await prisma();
    await db.webhookEndpoint.update({
      where: { tenantId_id: { tenantId: hook.tenantId, id: hook.id } },
      data: { url: `https://hooks.example.com:${new URL(receiver.url).port}/hooks` },
    });
    const resolve = vi.fn(async () => [{ address: "127.0.0.1", family: 4 }]);
    await deliverDue({ send: httpSender({ allowPrivate: false, resolve }) });
    expect(resolve).toHaveBeenCalledWith("hooks.example.com");
    expect(receiver.received).toHaveLength(0);
    // The delivery (which Admins read) does not say what the name resolves to: that would map internal DNS for them.
    const { error } = (await deliveriesOf())[0];
    expect(error).toBe("Refused target: hooks.example.com resolves to a non-public address.");
    expect(error).not.toContain("127.0.0.1");
  });

  it("after a rotation both secrets sign for 24 hours, then only the new one", async () => {
    const rotated = await call(rotateRoute, "POST", `webhooks/${hook.uuid}/rotate-secret`, {
      token: owner,
      params: { uuid: hook.uuid },
    });
    await createClient();
    await deliverDue();
    const { body, headers } = receiver.received[0];
    expect(String(headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(new Webhook(rotated.body.secret).verify(body, headers as Record<string, string>)).toBeTruthy();
    expect(new Webhook(hook.secret).verify(body, headers as Record<string, string>)).toBeTruthy();
    await createClient();
    await deliverDue({ now: () => new Date(Date.now() + 24 * 3600_000 + 1000) });
    expect(headersOf(1)["webhook-signature"]!.split(" ")).toHaveLength(1);
  });
});

describe("the attempts of a delivery", () => {
  it("are each listed, newest first, with time, status or error and duration", async () => {
    await createClient();
    const start = Date.now();
    const at = (seconds: number) => () => new Date(start + seconds * 1000);
    receiver.answers.push(500);
    await deliverDue({ now: at(0) });
    receiver.delayMs = 800;
    await deliverDue({ now: at(5), send: httpSender({ timeoutMs: 200 }) });
    receiver.delayMs = 0;
    await deliverDue({ now: at(5 + 300) });
    const res = await call(deliveriesRoute, "GET", `webhooks/${hook.uuid}/deliveries`, {
      token: owner,
      params: { uuid: hook.uuid },
    });
    expect(res.status).toBe(200);
    const [delivery] = res.body.data;
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 3, response_status: 200 });
    expect(delivery.attempt_history.map((a: any) => [a.response_status, a.error])).toEqual([
      [200, null],
      [null, "No complete answer within 0 s."],
      [500, null],
    ]);
    expect(delivery.attempt_history.map((a: any) => a.attempted_at)).toEqual(
      [5 + 300, 5, 0].map((s) => at(s)().toISOString()),
    );
    for (const attempt of delivery.attempt_history) expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
    expect(delivery.attempt_history[1].duration_ms).toBeLessThan(700);
  });
});

describe("delivery slots", () => {
  it("lets one firm's attempts take at most a quarter of the instance's slots; the rest wait for a later pass", async () => {
    vi.stubEnv("WEBHOOKS_MAX_IN_FLIGHT", "8");
    const db = await prisma();
    const other = await call(webhooksRoute, "POST", "webhooks", {
      token: await tokenFor("owner@birch.test"),
      body: { url: receiver.url, events: ["client.created"] },
    });
    expect(other.status).toBe(201);
    const otherHook = await db.webhookEndpoint.findFirstOrThrow({ where: { uuid: other.body.uuid } });
    const due = async (endpoint: { id: number; tenantId: number }, count: number) => {
      for (let i = 0; i < count; i++) {
        const event = await db.webhookEvent.create({
          data: {
            tenantId: endpoint.tenantId,
            msgId: `msg_slot_${endpoint.id}_${i}`,
            type: "client.created",
            body: "{}",
          },
        });
        await db.webhookDelivery.create({
          data: { tenantId: endpoint.tenantId, endpointId: endpoint.id, eventId: event.id },
        });
      }
    };
    await due(hook, 6);
    await due(otherHook, 2);
    receiver.delayMs = 300;
    const later = () => new Date(Date.now() + 1000);
    // Six passes of the busy firm's own (one after each of its writes) and the timer's, all at once.
    const passes = await Promise.all([
      ...Array.from({ length: 6 }, () => deliverDue({ tenantId: hook.tenantId, now: later })),
      deliverDue({ now: later }),
    ]);
    const claimed = passes.reduce((sum, pass) => sum + pass.claimed, 0);
    // Two of the busy firm's (a quarter of 8), and the other firm's two, though the busy firm's were due first.
    expect(claimed).toBe(4);
    const endpointsReached = receiver.received.map((r) => r.headers["webhook-id"]);
    expect(endpointsReached).toHaveLength(4);
    expect(await db.webhookDelivery.count({ where: { endpointId: otherHook.id, status: "succeeded" } })).toBe(2);
    expect(await db.webhookDelivery.count({ where: { endpointId: hook.id, status: "pending", attempts: 0 } })).toBe(4);
    // Slots given back: later passes deliver the rest, two at a time.
    const rest = await deliverAllDue({ now: later });
    expect(rest).toMatchObject({ claimed: 4, succeeded: 4 });
    expect((await deliveriesOf()).every((d) => d.status === "succeeded" && d.attempts === 1)).toBe(true);
    vi.unstubAllEnvs();
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "true");
  });
});

describe("two dispatchers at once", () => {
  it("deliver every attempt exactly once", async () => {
    const db = await prisma();
    const events = 24;
    for (let i = 0; i < events; i++) {
      const event = await db.webhookEvent.create({
        data: {
          tenantId: hook.tenantId,
          msgId: `msg_race_${hook.id}_${i}`,
          type: "client.created",
          body: `{"n":${i}}`,
        },
      });
      await db.webhookDelivery.create({ data: { tenantId: hook.tenantId, endpointId: hook.id, eventId: event.id } });
    }
    receiver.delayMs = 20;
    const later = () => new Date(Date.now() + 1000);
    const worker = () => deliverAllDue({ limit: 3, now: later });
    const [a, b] = await Promise.all([worker(), worker()]);
    expect(a.claimed + b.claimed).toBe(events);
    const ids = receiver.received.map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(events);
    expect(new Set(ids).size).toBe(events);
    expect((await deliveriesOf()).every((d) => d.status === "succeeded" && d.attempts === 1)).toBe(true);
  });
});

describe.runIf(process.env.DATABASE_URL)("a claim on PostgreSQL", () => {
  it("skips the rows another instance's open claim holds, without waiting for it", async () => {
    const db = await prisma();
    for (let i = 0; i < 6; i++) {
      const event = await db.webhookEvent.create({
        data: { tenantId: hook.tenantId, msgId: `msg_lock_${hook.id}_${i}`, type: "client.created", body: "{}" },
      });
      await db.webhookDelivery.create({ data: { tenantId: hook.tenantId, endpointId: hook.id, eventId: event.id } });
    }
    const now = new Date(Date.now() + 1000);
    const other = new pg.Client({ connectionString: process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query("BEGIN");
      const held = await claimDue(async (sql, ...params) => (await other.query(sql, params)).rows, now, { limit: 2 });
      expect(held).toHaveLength(2);
      // While the other claim is uncommitted, this one neither waits for it nor takes its rows.
      const mine = await Promise.race([
        claimDue((sql, ...params) => db.$queryRawUnsafe(sql, ...params), now, { limit: 100 }),
        new Promise<"blocked">((resolve) => setTimeout(() => resolve("blocked"), 3000)),
      ]);
      expect(mine).not.toBe("blocked");
      const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
      expect(ids(mine as { id: number }[])).toHaveLength(4);
      expect(ids(mine as { id: number }[]).filter((id) => ids(held).includes(id))).toEqual([]);
      await other.query("COMMIT");
      // Both claims moved their rows a lease ahead: nothing is due again now.
      expect(await claimDue((sql, ...params) => db.$queryRawUnsafe(sql, ...params), now, {})).toEqual([]);
    } finally {
      await other.query("ROLLBACK").catch(() => {});
      await other.end();
    }
  });
});

describe("GET /api/cron/webhooks", () => {
  const cron = (authorization?: string) =>
    cronRoute.GET(
      new Request("http://localhost/api/cron/webhooks", { headers: authorization ? { authorization } : {} }),
    );

  it("is 401 without CRON_SECRET, or with a wrong or missing bearer", async () => {
    vi.stubEnv("CRON_SECRET", "");
    expect((await cron("Bearer ")).status).toBe(401);
    vi.stubEnv("CRON_SECRET", "s3cret-value");
    expect((await cron()).status).toBe(401);
    expect((await cron("Bearer s3cret-valuf")).status).toBe(401);
    expect((await cron("s3cret-value")).status).toBe(401);
    expect(receiver.received).toHaveLength(0);
  });

  it("delivers what is due with the right secret", async () => {
    vi.stubEnv("CRON_SECRET", "s3cret-value");
    await createClient();
    const res = await cron("Bearer s3cret-value");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ claimed: 1, succeeded: 1, failed: 0 });
    expect(receiver.received).toHaveLength(1);
  });
});

describe("pruning", () => {
  it("deletes deliveries and events older than 30 days", async () => {
    await createClient();
    await deliverDue();
    const db = await prisma();
    const old = new Date(Date.now() - 31 * 24 * 3600_000);
    const [delivery] = await deliveriesOf();
    await db.webhookDelivery.update({
      where: { tenantId_id: { tenantId: hook.tenantId, id: delivery.id } },
      data: { createdAt: old },
    });
    await db.webhookEvent.update({
      where: { tenantId_id: { tenantId: hook.tenantId, id: delivery.eventId } },
      data: { createdAt: old },
    });
    expect(await pruneDeliveries()).toBeGreaterThanOrEqual(1);
    expect(await deliveriesOf()).toEqual([]);
    expect(await db.webhookEvent.count({ where: { id: delivery.eventId, tenantId: hook.tenantId } })).toBe(0);
  });
});
