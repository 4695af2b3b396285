// When a write asks for a delivery pass: only when its outbox recorded a delivery (a firm without endpoints costs no
// pass), once per request however many events it recorded; and the cron route's answer to a database outage.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as cronRoute from "@/app/api/cron/webhooks/route";
import * as clientsRoute from "@/app/api/v1/clients/route";
import * as jobsRoute from "@/app/api/v1/jobs/route";
import { closeDatabase, prisma } from "@/lib/db/client";
import { call, tenantByName, tokenFor } from "../support/api";
import { spyOnLog } from "../support/log";

// The wrapper hands deferred work to Next's after(): recorded here instead of run.
const scheduled = vi.hoisted(() => [] as (() => Promise<void>)[]);
vi.mock("next/server", async (original) => ({
  ...(await original<typeof import("next/server")>()),
  after: (task: () => Promise<void>) => scheduled.push(task),
}));

beforeEach(() => {
  scheduled.length = 0;
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "true");
  // The token request log hands its batch's write to after() too: off here, so that only delivery passes count.
  vi.stubEnv("REQUEST_LOG", "off");
});
afterEach(() => vi.unstubAllEnvs());

const createClient = async (email: string) =>
  call(clientsRoute, "POST", "clients", { token: await tokenFor(email), body: { name: `Scheduled ${Date.now()}` } });

describe("scheduling a delivery pass after a write", () => {
  it("schedules none for a firm without endpoints", async () => {
    const birch = await tenantByName("Birch Bookkeeping");
    expect(await (await prisma()).webhookEndpoint.count({ where: { tenantId: birch.id } })).toBe(0);
    expect((await createClient("owner@birch.test")).status).toBe(201);
    expect(scheduled).toHaveLength(0);
  });

  it("schedules none when no endpoint subscribes to the write's event", async () => {
    const acme = await tenantByName("Acme Accounting");
    await (await prisma()).webhookEndpoint.create({
      data: { tenantId: acme.id, url: "http://127.0.0.1:9/in", events: ["contact.created"], secret: "whsec_eA==" },
    });
    expect((await createClient("owner@acme.test")).status).toBe(201);
    expect(scheduled).toHaveLength(0);
  });

  it("schedules one pass when the outbox recorded deliveries, however many events the write made", async () => {
    const acme = await tenantByName("Acme Accounting");
    const db = await prisma();
    await db.webhookEndpoint.create({
      data: {
        tenantId: acme.id,
        url: "http://127.0.0.1:9/in",
        events: ["job.created", "job.completed", "client.created"],
        secret: "whsec_eA==",
      },
    });
    const completed = await db.jobStatus.findFirstOrThrow({ where: { tenantId: acme.id, isCompleted: true } });
    const res = await call(jobsRoute, "POST", "jobs", {
      token: await tokenFor("owner@acme.test"),
      body: { name: "Done at once", status: completed.slug },
    });
    expect(res.status).toBe(201);
    // job.created and job.completed: two events, one pass.
    expect(scheduled).toHaveLength(1);
    expect((await createClient("owner@acme.test")).status).toBe(201);
    expect(scheduled).toHaveLength(2);
  });

  it("schedules none for a write that is refused", async () => {
    expect(
      (await call(clientsRoute, "POST", "clients", { token: await tokenFor("owner@acme.test"), body: {} })).status,
    ).toBe(422);
    expect(scheduled).toHaveLength(0);
  });
});

describe("GET /api/cron/webhooks when the database is down", () => {
  it("answers the API's JSON 503 with Retry-After", async () => {
    vi.stubEnv("CRON_SECRET", "s3cret-value");
    const error = spyOnLog("error");
    vi.stubEnv("DATABASE_URL", "postgresql://postgres@127.0.0.1:1/unreachable");
    try {
      const res = await cronRoute.GET(
        new Request("http://localhost/api/cron/webhooks", { headers: { authorization: "Bearer s3cret-value" } }),
      );
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await res.json()).message).toMatch(/database cannot be reached/);
    } finally {
      await closeDatabase().catch(() => undefined);
      error.mockRestore();
    }
  });
});
