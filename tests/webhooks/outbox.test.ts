// The outbox: every write of a client, contact or job records its event in its own transaction (data: the record
// as its GET answers), only for subscribed enabled endpoints; a write that fails midway leaves neither change nor event.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as clientRoute from "@/app/api/v1/clients/[uuid]/route";
import * as clientsRoute from "@/app/api/v1/clients/route";
import * as contactRoute from "@/app/api/v1/contacts/[uuid]/route";
import * as contactsRoute from "@/app/api/v1/contacts/route";
import * as jobRoute from "@/app/api/v1/jobs/[uuid]/route";
import * as jobsRoute from "@/app/api/v1/jobs/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import { prisma } from "@/lib/db/client";
import { EVENT_TYPES } from "@/lib/webhooks/events";
import { call, tableCounts, tenantByName, tokenFor } from "../support/api";
import { spyOnLog } from "../support/log";

let owner: string;
let standard: string;
let acmeId: number;
let hookId: number;

beforeAll(async () => {
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "true");
  owner = await tokenFor("owner@acme.test");
  standard = await tokenFor("assigned@acme.test");
  acmeId = (await tenantByName("Acme Accounting")).id;
  const res = await call(webhooksRoute, "POST", "webhooks", {
    token: owner,
    body: { url: "http://127.0.0.1:9/never", events: EVENT_TYPES },
  });
  expect(res.status).toBe(201);
  hookId = (await (await prisma()).webhookEndpoint.findFirstOrThrow({ where: { uuid: res.body.uuid } })).id;
});
afterAll(() => vi.unstubAllEnvs());

/** The events written since `after` (an event id), with their parsed bodies and delivery counts. */
async function eventsSince(after: number) {
  const rows = await (await prisma()).webhookEvent.findMany({
    where: { id: { gt: after } },
    orderBy: { id: "asc" },
    include: { deliveries: true },
  });
  return rows.map((row) => ({ ...row, parsed: JSON.parse(row.body) }));
}
async function lastEventId() {
  return (await (await prisma()).webhookEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;
}

describe("every write leaves its event", () => {
  it("client.created and client.updated carry the client as GET answers it", async () => {
    const mark = await lastEventId();
    const created = await call(clientsRoute, "POST", "clients", { token: owner, body: { name: "Outbox Ltd" } });
    expect(created.status).toBe(201);
    const uuid = created.body.uuid;
    const updated = await call(clientRoute, "PUT", `clients/${uuid}`, {
      token: owner,
      params: { uuid },
      body: { city: "York" },
    });
    const got = await call(clientRoute, "GET", `clients/${uuid}`, { token: owner, params: { uuid } });
    const events = await eventsSince(mark);
    expect(events.map((e) => e.type)).toEqual(["client.created", "client.updated"]);
    expect(events[0].parsed).toEqual({ type: "client.created", timestamp: expect.any(String), data: created.body });
    expect(events[1].parsed.data).toEqual(updated.body);
    expect(events[1].parsed.data).toEqual(got.body);
    expect(new Date(events[0].parsed.timestamp).toISOString()).toBe(events[0].parsed.timestamp);
    for (const event of events) {
      expect(event.msgId).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(event.deliveries.map((d) => [d.endpointId, d.status])).toEqual([[hookId, "pending"]]);
    }
  });

  it("a client created with a contact also records contact.created", async () => {
    const mark = await lastEventId();
    const res = await call(clientsRoute, "POST", "clients", {
      token: owner,
      body: {
        name: "With Contact Ltd",
        contact: { firstname: "Ann", lastname: "Ex", email: `ann.${Date.now()}@outbox.test` },
      },
    });
    expect(res.status).toBe(201);
    const events = await eventsSince(mark);
    expect(events.map((e) => e.type).sort()).toEqual(["client.created", "contact.created"]);
    expect(events.find((e) => e.type === "client.created")!.parsed.data).toEqual(res.body);
  });

  it("contact.created and contact.updated carry the contact as GET answers it", async () => {
    const mark = await lastEventId();
    const created = await call(contactsRoute, "POST", "contacts", {
      token: owner,
      body: { firstname: "Out", lastname: "Box", email: `out.${Date.now()}@box.test` },
    });
    const uuid = created.body.uuid;
    const updated = await call(contactRoute, "PUT", `contacts/${uuid}`, {
      token: owner,
      params: { uuid },
      body: { lastname: "Boxed" },
    });
    const events = await eventsSince(mark);
    expect(events.map((e) => e.type)).toEqual(["contact.created", "contact.updated"]);
    expect(events[0].parsed.data).toEqual(created.body);
    expect(events[1].parsed.data).toEqual(updated.body);
  });

  it("job.created, job.updated and job.completed (when it moves to a completed status)", async () => {
    const db = await prisma();
    const done = await db.jobStatus.findFirstOrThrow({ where: { tenantId: acmeId, isCompleted: true } });
    const open = await db.jobStatus.findFirstOrThrow({ where: { tenantId: acmeId, isCompleted: false } });
    const mark = await lastEventId();
    const created = await call(jobsRoute, "POST", "jobs", {
      token: owner,
      body: { name: "Outbox job", status: open.slug },
    });
    const uuid = created.body.uuid;
    const put = (body: object) => call(jobRoute, "PUT", `jobs/${uuid}`, { token: owner, params: { uuid }, body });
    await put({ description: "more" });
    const completed = await put({ status: done.slug });
    await put({ description: "still done" }); // already completed: no second job.completed
    const events = await eventsSince(mark);
    expect(events.map((e) => e.type)).toEqual([
      "job.created",
      "job.updated",
      "job.updated",
      "job.completed",
      "job.updated",
    ]);
    expect(events[0].parsed.data).toEqual(created.body);
    expect(events[3].parsed.data).toEqual(completed.body);
    expect(events[3].parsed.data.is_completed).toBe(true);
  });

  it("a job created in a completed status records job.created and job.completed", async () => {
    const done = await (await prisma()).jobStatus.findFirstOrThrow({ where: { tenantId: acmeId, isCompleted: true } });
    const mark = await lastEventId();
    await call(jobsRoute, "POST", "jobs", { token: owner, body: { name: "Born done", status: done.slug } });
    expect((await eventsSince(mark)).map((e) => e.type)).toEqual(["job.created", "job.completed"]);
  });

  it("the data is the whole record whoever wrote it (a restricted user's write, an Owner's view)", async () => {
    const db = await prisma();
    const client = await db.client.findFirstOrThrow({
      where: { tenantId: acmeId, assignedTo: { some: { user: { email: "assigned@acme.test" } } } },
    });
    const mark = await lastEventId();
    const res = await call(clientRoute, "PUT", `clients/${client.uuid}`, {
      token: standard,
      params: { uuid: client.uuid },
      body: { city: "Hull" },
    });
    expect(res.status).toBe(200);
    const asOwner = await call(clientRoute, "GET", `clients/${client.uuid}`, {
      token: owner,
      params: { uuid: client.uuid },
    });
    expect((await eventsSince(mark))[0].parsed.data).toEqual(asOwner.body);
  });

  it("nothing is recorded for types no enabled endpoint subscribes to", async () => {
    const db = await prisma();
    await db.webhookEndpoint.update({
      where: { tenantId_id: { tenantId: acmeId, id: hookId } },
      data: { enabled: false },
    });
    try {
      const mark = await lastEventId();
      await call(clientsRoute, "POST", "clients", { token: owner, body: { name: "Unheard Ltd" } });
      expect(await eventsSince(mark)).toEqual([]);
    } finally {
      await db.webhookEndpoint.update({
        where: { tenantId_id: { tenantId: acmeId, id: hookId } },
        data: { enabled: true },
      });
    }
  });
});

describe("a write that fails midway leaves no event", () => {
  // A trigger that fails the transaction after the change and its event are written (at the delivery row).
  beforeAll(async () => {
    const db = await prisma();
    await db.$executeRawUnsafe(`CREATE FUNCTION fail_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'failing the write midway'; END $$`);
  });
  const arm = async () =>
    (await prisma()).$executeRawUnsafe(
      `CREATE TRIGGER fail_delivery BEFORE INSERT ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION fail_delivery()`,
    );
  const disarm = async () =>
    (await prisma()).$executeRawUnsafe(`DROP TRIGGER IF EXISTS fail_delivery ON webhook_deliveries`);

  it.each([
    ["POST /clients", () => call(clientsRoute, "POST", "clients", { token: owner, body: { name: "Rolled Back Ltd" } })],
    [
      "POST /contacts",
      () =>
        call(contactsRoute, "POST", "contacts", {
          token: owner,
          body: { firstname: "R", lastname: "B", email: `rb.${Date.now()}@x.test` },
        }),
    ],
    ["POST /jobs", () => call(jobsRoute, "POST", "jobs", { token: owner, body: { name: "Rolled back job" } })],
    [
      "PUT /jobs/{uuid}",
      async () => {
        const job = await (await prisma()).job.findFirstOrThrow({
          where: { tenantId: acmeId },
          orderBy: { id: "asc" },
        });
        return call(jobRoute, "PUT", `jobs/${job.uuid}`, {
          token: owner,
          params: { uuid: job.uuid },
          body: { name: "Renamed" },
        });
      },
    ],
    [
      "PUT /clients/{uuid}",
      async () => {
        const client = await (await prisma()).client.findFirstOrThrow({
          where: { tenantId: acmeId },
          orderBy: { id: "asc" },
        });
        return call(clientRoute, "PUT", `clients/${client.uuid}`, {
          token: owner,
          params: { uuid: client.uuid },
          body: { city: "Nowhere" },
        });
      },
    ],
  ])("%s", async (_, write) => {
    const before = await tableCounts();
    const mark = await lastEventId();
    const spy = spyOnLog("error");
    await arm();
    try {
      // The contract check refuses the 500 (a 500 is never documented): the write failed.
      await expect(write()).rejects.toThrow(/answered 500/);
    } finally {
      await disarm();
      spy.mockRestore();
    }
    expect(await eventsSince(mark)).toEqual([]);
    expect(await tableCounts()).toEqual(before);
    const db = await prisma();
    expect(await db.client.count({ where: { city: "Nowhere" } })).toBe(0);
    expect(await db.job.count({ where: { name: "Renamed" } })).toBe(0);
  });
});
