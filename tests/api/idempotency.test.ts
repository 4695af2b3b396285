// Idempotency-Key on POST and PUT (decisions.md, Integrations): replay of the first answer, mismatched body or path,
// in flight, server errors not kept, expiry and clean-up, per-token keys, a real race of two requests with one key, and
// what a retry meets after the first request's process died (lib/db/idempotency.ts).
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as clientRoute from "@/app/api/v1/clients/[uuid]/route";
import * as clientsRoute from "@/app/api/v1/clients/route";
import * as contactsRoute from "@/app/api/v1/contacts/route";
import * as jobRoute from "@/app/api/v1/jobs/[uuid]/route";
import * as webhookRoute from "@/app/api/v1/webhooks/[uuid]/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import { prisma } from "@/lib/db/client";
import { claimKey } from "@/lib/db/idempotency";
import { tenantDb } from "@/lib/db/tenant";
import { createApiToken } from "@/lib/tokens";
import { call, tokenFor, userByEmail } from "../support/api";
import { spyOnLog } from "../support/log";

// The next createClient fails with an unexpected error (a 500), as a bug or a fault would; or runs `before` first.
const failure = vi.hoisted(() => ({ next: false, before: null as null | (() => Promise<void>) }));
vi.mock("@/lib/clients/mutations", async (original) => {
  const real = await original<typeof import("@/lib/clients/mutations")>();
  return {
    ...real,
    createClient: async (...args: Parameters<typeof real.createClient>) => {
      if (failure.next) {
        failure.next = false;
        throw new Error("Simulated failure");
      }
      const before = failure.before;
      failure.before = null;
      await before?.();
      return real.createClient(...args);
    },
  };
});

// The next updateWebhook (a batch transaction, where the createClient above is an interactive one) runs `before` first.
vi.mock("@/lib/webhooks/mutations", async (original) => {
  const real = await original<typeof import("@/lib/webhooks/mutations")>();
  return {
    ...real,
    updateWebhook: async (...args: Parameters<typeof real.updateWebhook>) => {
      const before = failure.before;
      failure.before = null;
      await before?.();
      return real.updateWebhook(...args);
    },
  };
});

let owner: string;
let tenantId: number;
beforeAll(async () => {
  owner = await tokenFor("owner@acme.test");
  tenantId = (await userByEmail("owner@acme.test")).tenantId;
});

let unique = 0;
const fresh = (label: string) => `${label}-${Date.now().toString(36)}-${++unique}`;

const createClient = (body: unknown, key: string | null, token = owner) =>
  call(clientsRoute, "POST", "clients", { token, body, headers: key === null ? {} : { "Idempotency-Key": key } });
const clientsNamed = async (name: string) => (await prisma()).client.count({ where: { tenantId, name } });
const keyRows = async (key: string) => (await prisma()).idempotencyKey.findMany({ where: { tenantId, key } });

describe("Idempotency-Key", () => {
  it("replays the first answer, status and body, with Idempotent-Replayed: true, and writes once", async () => {
    const key = fresh("key");
    const name = fresh("Replay");
    const first = await createClient({ name, city: "Leeds" }, key);
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    // The same body with its keys in another order is the same request.
    const again = await createClient({ city: "Leeds", name }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await clientsNamed(name)).toBe(1);
  });

  it("without a key, every request runs", async () => {
    const name = fresh("No key");
    expect((await createClient({ name }, null)).status).toBe(201);
    expect((await createClient({ name }, null)).status).toBe(201);
    expect(await clientsNamed(name)).toBe(2);
  });

  it("keeps a 4xx answer of the handler and replays it, even once the request would succeed", async () => {
    const db = await prisma();
    const taken = fresh("REF");
    const existing = await db.client.create({ data: { tenantId, name: fresh("Holder"), regNumber: taken } });
    const key = fresh("key");
    const name = fresh("Dup");
    const first = await createClient({ name, reg_number: taken }, key);
    expect(first.status).toBe(422);
    await db.client.update({ where: { tenantId_id: { tenantId, id: existing.id } }, data: { regNumber: null } });
    const again = await createClient({ name, reg_number: taken }, key);
    expect(again.status).toBe(422);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await clientsNamed(name)).toBe(0);
  });

  it("is 422 for the same key with another body, or another path, and writes nothing", async () => {
    const key = fresh("key");
    const name = fresh("Mismatch");
    expect((await createClient({ name }, key)).status).toBe(201);
    const otherBody = await createClient({ name: `${name} 2` }, key);
    expect(otherBody.status).toBe(422);
    expect(Object.keys(otherBody.body.errors)).toEqual(["Idempotency-Key"]);
    expect(await clientsNamed(`${name} 2`)).toBe(0);
    const email = `${fresh("m")}@example.com`;
    const otherPath = await call(contactsRoute, "POST", "contacts", {
      token: owner,
      body: { firstname: "A", lastname: "B", email },
      headers: { "Idempotency-Key": key },
    });
    expect(otherPath.status).toBe(422);
    expect(Object.keys(otherPath.body.errors)).toEqual(["Idempotency-Key"]);
    expect(await (await prisma()).contact.count({ where: { tenantId, email } })).toBe(0);
  });

  it("is 422 for the same key on a PUT of another record", async () => {
    const db = await prisma();
    const [a, b] = await db.client.findMany({ where: { tenantId }, take: 2, orderBy: { id: "asc" } });
    const key = fresh("key");
    const put = (uuid: string) =>
      call(clientRoute, "PUT", `clients/${uuid}`, {
        token: owner,
        body: { city: "York" },
        params: { uuid },
        headers: { "Idempotency-Key": key },
      });
    expect((await put(a.uuid)).status).toBe(200);
    expect((await put(b.uuid)).status).toBe(422);
    expect((await db.client.findFirstOrThrow({ where: { tenantId, id: b.id } })).city).toBe(b.city);
  });

  it("replays a PUT without writing again: updated_at stays", async () => {
    const db = await prisma();
    const job = await db.job.findFirstOrThrow({ where: { tenantId }, orderBy: { id: "asc" } });
    const key = fresh("key");
    const put = () =>
      call(jobRoute, "PUT", `jobs/${job.uuid}`, {
        token: owner,
        body: { name: "Renamed once" },
        params: { uuid: job.uuid },
        headers: { "Idempotency-Key": key },
      });
    const first = await put();
    expect(first.status).toBe(200);
    const stamp = (await db.job.findFirstOrThrow({ where: { tenantId, id: job.id } })).updatedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await put();
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect((await db.job.findFirstOrThrow({ where: { tenantId, id: job.id } })).updatedAt).toEqual(stamp);
  });

  it("is 409 while the first request with the key is still running", async () => {
    const key = fresh("key");
    const name = fresh("In flight");
    expect((await createClient({ name }, key)).status).toBe(201);
    // As the row stands while the first request runs: no answer yet.
    await (await prisma()).idempotencyKey.updateMany({
      where: { tenantId, key },
      data: { status: null, responseBody: null },
    });
    const res = await createClient({ name }, key);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/still being processed/);
    expect(await clientsNamed(name)).toBe(1);
  });

  describe("after the first request's process died", () => {
    // A key claimed as a request of another process claims it, which then runs (or stops) on its own.
    const claimElsewhere = async (key: string, body: unknown) => {
      const client = await prisma();
      // The token and fingerprint of a POST /clients with this body: taken from a request that then gives the key back.
      expect((await createClient(body, key)).status).toBe(201);
      const [row] = await keyRows(key);
      await client.idempotencyKey.deleteMany({ where: { tenantId, key } });
      const scope = { db: tenantDb(client, tenantId), tenant: { id: tenantId } };
      const outcome = await claimKey(scope, { tokenId: row.tokenId, key }, row.fingerprint);
      expect(outcome).toHaveProperty("claim");
    };
    /** As the row stands once its holder stopped renewing its lease. */
    const leaseRunsOut = async (key: string) =>
      (await prisma()).idempotencyKey.updateMany({
        where: { tenantId, key },
        data: { leaseUntil: new Date(Date.now() - 1000) },
      });

    it("is 409 while its holder is alive (renewing its lease), and writes nothing", async () => {
      const key = fresh("key");
      const name = fresh("Live holder");
      await claimElsewhere(key, { name: `${name} probe` });
      const res = await createClient({ name: `${name} probe` }, key);
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/still being processed/);
      expect(await clientsNamed(`${name} probe`)).toBe(1); // the probe's own
    });

    it("runs the retry once the dead holder's lease has run out, when it wrote nothing", async () => {
      const key = fresh("key");
      const name = fresh("Dead holder");
      await claimElsewhere(key, { name });
      await leaseRunsOut(key);
      const retry = await createClient({ name }, key);
      expect(retry.status).toBe(201);
      expect(retry.headers.get("Idempotent-Replayed")).toBeNull();
      const replay = await createClient({ name }, key);
      expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
      expect(replay.body).toEqual(retry.body);
      expect(await clientsNamed(name)).toBe(2); // the probe's and the retry's
    });

    it("tells a retry that the write was made when it committed but its answer was lost, and never writes again", async () => {
      const key = fresh("key");
      const name = fresh("Answer lost");
      expect((await createClient({ name }, key)).status).toBe(201);
      // As the row stands when the process died between its write's commit and keeping its answer.
      await (await prisma()).idempotencyKey.updateMany({
        where: { tenantId, key },
        data: { status: null, responseBody: null, leaseUntil: new Date(Date.now() - 1000) },
      });
      const retry = await createClient({ name }, key);
      expect(retry.status).toBe(422);
      expect(retry.body.errors["Idempotency-Key"][0]).toMatch(/carried out.*will not be made again/);
      expect(await clientsNamed(name)).toBe(1);
    });

    it("fences a holder that was only slow: the retry that took its key over writes, the holder writes nothing", async () => {
      const key = fresh("key");
      const name = fresh("Slow holder");
      let retry: Awaited<ReturnType<typeof createClient>> | undefined;
      // The holder stalls (a long GC pause, a stopped VM) past its lease before its write; its retry takes over.
      failure.before = async () => {
        await leaseRunsOut(key);
        retry = await createClient({ name }, key);
      };
      const holder = await createClient({ name }, key);
      expect(retry?.status).toBe(201);
      expect(holder.status).toBe(409);
      expect(holder.body.message).toMatch(/took it over/);
      expect(await clientsNamed(name)).toBe(1);
      const replay = await createClient({ name }, key);
      expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
      expect(replay.body).toEqual(retry?.body);
    });

    it("fences a write made in one batch too: a webhook's update, audited once", async () => {
      const hook = await call(webhooksRoute, "POST", "webhooks", {
        token: owner,
        body: { url: "https://hooks.example.com/in", events: ["client.created"] },
      });
      expect(hook.status).toBe(201);
      const { uuid } = hook.body;
      const key = fresh("key");
      const put = () =>
        call(webhookRoute, "PUT", `webhooks/${uuid}`, {
          token: owner,
          body: { description: key },
          params: { uuid },
          headers: { "Idempotency-Key": key },
        });
      let retry: Awaited<ReturnType<typeof put>> | undefined;
      failure.before = async () => {
        await leaseRunsOut(key);
        retry = await put();
      };
      const holder = await put();
      expect(retry?.status).toBe(200);
      expect(holder.status).toBe(409);
      const updates = await (await prisma()).auditEvent.count({
        where: { tenantId, action: "webhook.updated", targetUuid: uuid },
      });
      expect(updates).toBe(1);
    });
  });

  it("keeps no server error: the key is freed and a retry runs", async () => {
    const key = fresh("key");
    const name = fresh("After failure");
    failure.next = true;
    const error = spyOnLog("error");
    // Called directly: the contract check of tests/support/api.ts refuses any 500.
    const failed = await clientsRoute.POST(
      new Request("http://localhost/api/v1/clients", {
        method: "POST",
        headers: { Authorization: `Bearer ${owner}`, "Content-Type": "application/json", "Idempotency-Key": key },
        body: JSON.stringify({ name }),
      }),
      { params: Promise.resolve({}) },
    );
    error.mockRestore();
    expect(failed.status).toBe(500);
    expect(await keyRows(key)).toEqual([]);
    const retry = await createClient({ name }, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await clientsNamed(name)).toBe(1);
  });

  it("forgets a key after 24 hours, and deletes the tenant's expired keys on the way", async () => {
    const db = await prisma();
    const key = fresh("key");
    const name = fresh("Expired");
    expect((await createClient({ name }, key)).status).toBe(201);
    const [row] = await keyRows(key);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(24 * 3600 * 1000);
    const other = fresh("key");
    expect((await createClient({ name: fresh("Other") }, other)).status).toBe(201);
    await db.idempotencyKey.updateMany({
      where: { tenantId, key: { in: [key, other] } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const again = await createClient({ name }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await clientsNamed(name)).toBe(2);
    expect(await keyRows(other)).toEqual([]);
    expect(await db.idempotencyKey.count({ where: { tenantId, expiresAt: { lte: new Date() } } })).toBe(0);
  });

  it("is per token: another token's same key is another key", async () => {
    const user = await userByEmail("owner@acme.test");
    const { token: second } = await createApiToken(await prisma(), { tenantId, userId: user.id }, "second token");
    const admin = await tokenFor("admin@acme.test");
    const key = fresh("key");
    const names = [fresh("Token A"), fresh("Token B"), fresh("Token C")];
    expect((await createClient({ name: names[0] }, key)).status).toBe(201);
    const otherToken = await createClient({ name: names[1] }, key, second);
    expect(otherToken.status).toBe(201);
    expect(otherToken.headers.get("Idempotent-Replayed")).toBeNull();
    expect((await createClient({ name: names[2] }, key, admin)).status).toBe(201);
    for (const name of names) expect(await clientsNamed(name)).toBe(1);
    expect(await keyRows(key)).toHaveLength(3);
  });

  it.each([
    ["empty", ""],
    ["256 characters", "k".repeat(256)],
  ])("is 422 for a key that is %s, and writes nothing", async (_, key) => {
    const name = fresh("Bad key");
    const res = await createClient({ name }, key);
    expect(res.status).toBe(422);
    expect(res.body.errors["Idempotency-Key"][0]).toMatch(/1 to 255 characters/);
    expect(await clientsNamed(name)).toBe(0);
  });

  it("takes a key of 255 characters", async () => {
    expect((await createClient({ name: fresh("Long key") }, "k".repeat(255))).status).toBe(201);
  });

  it("runs the checks before the key: a Viewer gets 403 and nothing is kept", async () => {
    const key = fresh("key");
    const res = await createClient({ name: fresh("Viewer") }, key, await tokenFor("viewer@acme.test"));
    expect(res.status).toBe(403);
    expect(await keyRows(key)).toEqual([]);
  });

  it("lets two racing requests with one key write once", async () => {
    for (let round = 0; round < 5; round++) {
      const key = fresh("race");
      const name = fresh("Race");
      const answers = await Promise.all([createClient({ name }, key), createClient({ name }, key)]);
      expect(await clientsNamed(name)).toBe(1);
      const statuses = answers.map((a) => a.status).sort();
      expect([
        [201, 201],
        [201, 409],
      ]).toContainEqual(statuses);
      const fresh201 = answers.filter((a) => a.status === 201 && a.headers.get("Idempotent-Replayed") === null);
      expect(fresh201).toHaveLength(1);
    }
  });

  it("gives a key to exactly one of many claims made at once (on PostgreSQL, over several connections)", async () => {
    const client = await prisma();
    const scope = { db: tenantDb(client, tenantId), tenant: { id: tenantId } };
    const token = await client.apiToken.findFirstOrThrow({ where: { tenantId } });
    const key = fresh("claims");
    const claims = await Promise.all(
      Array.from({ length: 8 }, () => claimKey(scope, { tokenId: token.id, key }, "f".repeat(64))),
    );
    expect(claims.filter((outcome) => "claim" in outcome)).toHaveLength(1);
    for (const outcome of claims.filter((o) => "held" in o)) expect(outcome.held).toMatchObject({ status: null });
  });
});
