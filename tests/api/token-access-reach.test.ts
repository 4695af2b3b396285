// Token access reaches every place data leaves (issue 36; decisions.md, "Token access reaches nested data"): for each
// resource in turn, a token with `none` on it (and the most everywhere else) walks every read of the OpenAPI document
// and a no-op write of every PUT, reads the audit log, and receives webhooks from endpoints it set up; no answer,
// nested object, payload or audit entry may carry a value of that resource beyond its identifier. A value "of a
// resource" is one that only records of that resource hold (client names, contact and user emails, job names,
// time log notes, webhook URLs); the walk also counts the identifier-only objects it meets, so that it cannot pass
// by finding nothing nested at all.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "@/lib/db/client";
import { createApiToken } from "@/lib/tokens";
import { FULL_ACCESS, type TokenAccess, type TokenResource } from "@/lib/tokens/access";
import { call, tenantByName, userByEmail } from "../support/api";
import { operations, pathOf, recordParams, routeModule } from "../support/routes";

const OWNER = "owner@acme.test";
let tenantId: number;
let ownerToken: string;
/** Per resource: the values only its records hold. */
const secrets = new Map<TokenResource, Set<string>>();

async function tokenWith(access: TokenAccess) {
  const user = await userByEmail(OWNER);
  const { token } = await createApiToken(await prisma(), { tenantId: user.tenantId, userId: user.id }, "reach", {
    access,
  });
  return token;
}

beforeAll(async () => {
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "true");
  tenantId = (await tenantByName("Acme Accounting")).id;
  ownerToken = await tokenWith(FULL_ACCESS);
  const db = await prisma();
  const where = { tenantId };
  // Changes the audit log then holds values of clients, contacts and jobs (in `changes` and target names).
  for (const [path, model] of [
    ["/clients/{uuid}", db.client],
    ["/contacts/{uuid}", db.contact],
    ["/jobs/{uuid}", db.job],
  ] as const) {
    const { uuid } = await (model as typeof db.client).findFirstOrThrow({ where, orderBy: { id: "desc" } });
    const body = path === "/contacts/{uuid}" ? { email: "reach.renamed@example.test" } : { name: "Reach renamed" };
    const res = await call(await routeModule(path), "PUT", path.replace("{uuid}", uuid).slice(1), {
      token: ownerToken,
      params: { uuid },
      body: path === "/jobs/{uuid}" ? { name: "Reach renamed job" } : body,
    });
    expect(res.status, path).toBe(200);
  }
  const me = await userByEmail(OWNER);
  const values: Record<string, string[]> = {
    clients: (await db.client.findMany({ where })).map((c) => c.name),
    contacts: (await db.contact.findMany({ where })).map((c) => c.email),
    // The caller's own profile is theirs whatever the token holds (GET /me).
    users: (await db.user.findMany({ where })).filter((u) => u.id !== me.id).map((u) => u.email),
    jobs: (await db.job.findMany({ where })).map((j) => j.name),
    time_logs: (await db.timeLog.findMany({ where })).map((t) => t.note),
    webhooks: (await db.webhookEndpoint.findMany({ where })).map((w) => w.url),
  };
  // A value two resources share says nothing about which one it came from.
  const counts = new Map<string, number>();
  for (const list of Object.values(values)) for (const v of new Set(list)) counts.set(v, (counts.get(v) ?? 0) + 1);
  for (const [resource, list] of Object.entries(values))
    secrets.set(resource as TokenResource, new Set(list.filter((v) => v.length > 3 && counts.get(v) === 1)));
});

/** Where in `body` a value of the resource appears, and how many identifier-only objects it holds. */
function inspect(body: unknown, resource: TokenResource) {
  const found: string[] = [];
  let reduced = 0;
  const walk = (value: unknown, at: string) => {
    if (typeof value === "string" && secrets.get(resource)!.has(value)) found.push(`${at} = ${value}`);
    else if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${at}.${i}`));
    else if (value && typeof value === "object") {
      const keys = Object.keys(value);
      if (keys.length === 1 && (keys[0] === "uuid" || keys[0] === "id")) reduced++;
      for (const [key, item] of Object.entries(value)) walk(item, `${at}.${key}`);
    }
  };
  walk(body, "");
  return { found, reduced };
}

const RESOURCES: TokenResource[] = ["clients", "contacts", "jobs", "users", "time_logs", "webhooks"];
/** Resources nested in others' records: a walk without them must meet identifier-only objects. */
const NESTED: TokenResource[] = ["clients", "contacts", "jobs", "users"];
const reads = operations.filter((op) => op.method === "get");
const puts = operations.filter((op) => op.method === "put");

describe.each(RESOURCES)("a token with no access to %s", (resource) => {
  it("meets none of its values in any answer, nested record or audit entry", async () => {
    const token = await tokenWith({ ...FULL_ACCESS, [resource]: "none" });
    let reduced = 0;
    const leaks: string[] = [];
    for (const op of [...reads, ...puts]) {
      const params = await recordParams(op, tenantId);
      const res = await call(await routeModule(op.path), op.method.toUpperCase(), pathOf(op, params).slice(1), {
        token,
        params,
        body: op.method === "put" ? {} : undefined,
      });
      if (op.resource === resource) {
        expect(res.status, `${op.method} ${op.path}`).toBe(403);
        continue;
      }
      if (res.status !== 200) continue;
      const seen = inspect(res.body, resource);
      reduced += seen.reduced;
      leaks.push(...seen.found.map((f) => `${op.method.toUpperCase()} ${op.path}${f}`));
    }
    expect(leaks).toEqual([]);
    if (NESTED.includes(resource)) expect(reduced).toBeGreaterThan(0);
  });

  it("finds none of its values in a webhook payload to an endpoint it set up", async () => {
    const token = await tokenWith({ ...FULL_ACCESS, [resource]: "none" });
    if (resource === "webhooks") return; // It cannot set one up.
    // Every event the token may subscribe to: those about what it reads.
    const events = ["client.updated", "contact.updated", "job.updated"].filter(
      (e) => `${e.split(".")[0]}s` !== resource,
    );
    const made = await call(await routeModule("/webhooks"), "POST", "webhooks", {
      token,
      body: { url: "http://127.0.0.1:9/reach", events },
    });
    expect(made.status).toBe(201);
    const db = await prisma();
    const endpoint = await db.webhookEndpoint.findFirstOrThrow({ where: { uuid: made.body.uuid } });
    expect(endpoint.access).toEqual({ ...FULL_ACCESS, [resource]: "none" });
    // The owner (full access) changes records with nested parts: each records its event.
    const client = await db.client.findFirstOrThrow({
      where: { tenantId, contacts: { some: {} } },
      orderBy: { id: "asc" },
    });
    const contact = await db.contact.findFirstOrThrow({
      where: { tenantId, clients: { some: {} } },
      orderBy: { id: "asc" },
    });
    const job = await db.job.findFirstOrThrow({
      where: { tenantId, assignees: { some: {} }, clientId: { not: null } },
      orderBy: { id: "asc" },
    });
    const writes = [
      ["/clients/{uuid}", client.uuid, { city: "Reach" }],
      ["/contacts/{uuid}", contact.uuid, { preferred_name: "Reach" }],
      ["/jobs/{uuid}", job.uuid, { description: "Reach" }],
    ] as const;
    for (const [path, uuid, body] of writes) {
      const res = await call(await routeModule(path), "PUT", path.replace("{uuid}", uuid).slice(1), {
        token: ownerToken,
        params: { uuid },
        body,
      });
      expect(res.status, path).toBe(200);
    }
    const deliveries = await db.webhookDelivery.findMany({
      where: { endpointId: endpoint.id },
      include: { event: true },
    });
    expect(deliveries.length).toBe(events.length);
    let reduced = 0;
    for (const { event } of deliveries) {
      const seen = inspect(JSON.parse(event.body), resource);
      expect(seen.found, event.type).toEqual([]);
      reduced += seen.reduced;
    }
    if (["clients", "contacts", "users"].includes(resource)) expect(reduced).toBeGreaterThan(0);
    // The endpoints the owner set up keep getting whole records.
    await db.webhookEndpoint.delete({ where: { tenantId_id: { tenantId, id: endpoint.id } } });
  });
});
