// The order of checks on every write endpoint (decisions.md, Wire format): 401 token → 403 the token's access →
// 403 role permission → 404/403 the record in the path → 422 body shape → 422 references. A caller who may not write, or may not have the
// record, learns nothing from validation messages. Table-driven over the OpenAPI document's writes, so that a new
// write endpoint fails here until it has a row.
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/client";
import { createApiToken } from "@/lib/tokens";
import { FULL_ACCESS, resourceLabel } from "@/lib/tokens/access";
import { call, tableCounts, tenantByName, tokenFor, userByEmail } from "../support/api";
import { operations, pathOf, routeModule, webhookOf } from "../support/routes";

type Kind = "client" | "contact" | "job" | "webhook";

/**
 * Per write endpoint: a body that passes, one that fails zod (none for endpoints without a body), and the kind of
 * record its path names (if any). `ownersOnly`: a Standard user lacks the permission, so the 422 is checked as the
 * Owner.
 */
const WRITES: Record<string, { valid: () => object; invalid?: object; record?: Kind; ownersOnly?: boolean }> = {
  "post /clients": { valid: () => ({ name: `Order check ${Math.random()}` }), invalid: { name: 42 } },
  "put /clients/{uuid}": { valid: () => ({ city: "Leeds" }), invalid: { name: 42 }, record: "client" },
  "post /contacts": {
    valid: () => ({ firstname: "Ord", lastname: "Er", email: `order.${Math.random()}@check.test` }),
    invalid: { firstname: 42 },
  },
  "put /contacts/{uuid}": { valid: () => ({ phone_number: "123" }), invalid: { firstname: 42 }, record: "contact" },
  "post /jobs": { valid: () => ({ name: "Order check job" }), invalid: { name: 42 } },
  "put /jobs/{uuid}": { valid: () => ({ description: "Checked" }), invalid: { name: 42 }, record: "job" },
  "post /webhooks": {
    valid: () => ({ url: "https://hooks.example.com/in", events: ["job.created"] }),
    invalid: { url: 42 },
    ownersOnly: true,
  },
  "put /webhooks/{uuid}": {
    valid: () => ({ enabled: true }),
    invalid: { events: [] },
    record: "webhook",
    ownersOnly: true,
  },
  "delete /webhooks/{uuid}": { valid: () => ({}), record: "webhook", ownersOnly: true },
  "post /webhooks/{uuid}/rotate-secret": { valid: () => ({}), record: "webhook", ownersOnly: true },
  "post /webhooks/{uuid}/test": { valid: () => ({}), record: "webhook", ownersOnly: true },
};

const writes = operations.filter((op) => op.method !== "get");
const UNKNOWN_UUID = "00000000-0000-4000-8000-000000000000";

/** A record of each kind: one the Standard user `assigned@acme.test` can see, one it cannot, one of another tenant. */
const records: Record<"visible" | "hidden" | "foreign", Record<Kind, string>> = {
  visible: { client: "", contact: "", job: "", webhook: "" },
  hidden: { client: "", contact: "", job: "", webhook: "" },
  foreign: { client: "", contact: "", job: "", webhook: "" },
};

beforeAll(async () => {
  const db = await prisma();
  const acme = (await tenantByName("Acme Accounting")).id;
  const birch = (await tenantByName("Birch Bookkeeping")).id;
  const assigned = await userByEmail("assigned@acme.test");
  const seen = { assignedTo: { some: { userId: assigned.id } } };
  const unseen = { NOT: seen };
  const find = async (tenantId: number, clientFilter: object) => {
    const client = await db.client.findFirstOrThrow({ where: { tenantId, ...clientFilter }, orderBy: { id: "asc" } });
    const contact = await db.contact.findFirstOrThrow({
      where: { tenantId, clients: { some: { client: clientFilter } }, NOT: { clients: { some: { client: seen } } } },
      orderBy: { id: "asc" },
    });
    const job = await db.job.findFirstOrThrow({
      where: { tenantId, client: clientFilter, assignees: { none: { userId: assigned.id } }, followers: { none: {} } },
      orderBy: { id: "asc" },
    });
    // Webhook endpoints have no visibility beyond the permission: one per firm, made for the test.
    return { client: client.uuid, contact: contact.uuid, job: job.uuid, webhook: (await webhookOf({ tenantId })).uuid };
  };
  records.hidden = await find(acme, unseen);
  records.foreign = await find(birch, {});
  const visibleClient = await db.client.findFirstOrThrow({ where: { tenantId: acme, ...seen } });
  const visibleContact = await db.contact.findFirstOrThrow({
    where: { tenantId: acme, clients: { some: { client: seen } } },
  });
  const visibleJob = await db.job.findFirstOrThrow({
    where: { tenantId: acme, assignees: { some: { userId: assigned.id } } },
  });
  records.visible = {
    client: visibleClient.uuid,
    contact: visibleContact.uuid,
    job: visibleJob.uuid,
    webhook: records.hidden.webhook,
  };
});

async function send(
  op: (typeof operations)[number],
  email: string,
  uuid: string | undefined,
  body?: object,
  token?: string,
) {
  const route = await routeModule(op.path);
  // Users are named by id or email: ones that exist nowhere.
  const others: Record<string, string> = { id: "999999", email: "nobody@order.test" };
  const params = Object.fromEntries(
    Object.keys(op.params ?? {}).map((name) => [name, name === "uuid" ? uuid! : others[name]]),
  );
  return call(route, op.method.toUpperCase(), pathOf(op, params).slice(1), {
    token: token ?? (await tokenFor(email)),
    params,
    body,
  });
}

/** A token of the user with no access to `resource` (and the most to everything else). */
async function tokenWithout(email: string, resource: string) {
  const user = await userByEmail(email);
  const owner = { tenantId: user.tenantId, userId: user.id };
  return (
    await createApiToken(await prisma(), owner, `without ${resource}`, {
      access: { ...FULL_ACCESS, [resource]: "none" },
    })
  ).token;
}

it("has a row for every write endpoint of the document", () => {
  expect(writes.map((op) => `${op.method} ${op.path}`).sort()).toEqual(Object.keys(WRITES).sort());
});

// The token's access comes before everything the request names: every operation of the document, with a token that
// has no access to its resource, is that 403, also for a Viewer (no permission), another tenant's record and an
// invalid body.
describe.each(
  operations.filter((op) => op.resource).map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const),
)("%s, token without access", (_, op) => {
  const row = WRITES[`${op.method} ${op.path}`] ?? {};
  const kind = op.path.split("/")[1].replace(/s$/, "") as Kind;
  const uuid = () => (op.params?.uuid ? (records.foreign[kind] ?? UNKNOWN_UUID) : undefined);

  it.each(["viewer@acme.test", "owner@acme.test"])("is the token's 403 for %s, and changes nothing", async (email) => {
    const before = await tableCounts();
    const res = await send(op, email, uuid(), row.invalid, await tokenWithout(email, op.resource!));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: `This token has no access to ${resourceLabel(op.resource!)}.` });
    expect(await tableCounts()).toEqual(before);
  });
});

describe.each(writes.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))("%s", (_, op) => {
  const row = WRITES[`${op.method} ${op.path}`];

  it("is 403 for a Viewer with an invalid body, and writes nothing", async () => {
    const before = await tableCounts();
    const res = await send(op, "viewer@acme.test", row.record && records.visible[row.record], row.invalid);
    expect(res.status).toBe(403);
    expect(res.body.errors).toBeUndefined();
    expect(await tableCounts()).toEqual(before);
  });

  it.runIf(row.ownersOnly)("is 403 for a Standard user with an invalid body (no webhooks.manage)", async () => {
    const res = await send(op, "assigned@acme.test", row.record && records.visible[row.record], row.invalid);
    expect(res.status).toBe(403);
    expect(res.body.errors).toBeUndefined();
  });

  it("answers a valid body from a permitted user", async () => {
    // DELETE /webhooks/{uuid} has taken the endpoint: a fresh one when it is gone.
    if (row.record === "webhook")
      records.hidden.webhook = (await webhookOf({ tenantId: (await tenantByName("Acme Accounting")).id })).uuid;
    const res = await send(op, "owner@acme.test", row.record && records.hidden[row.record], row.valid());
    const ok = { post: 201, put: 200, delete: 204 }[op.method as "post" | "put" | "delete"];
    // A rotation answers the endpoint (200); a test answers its delivery, attempted after the answer (202).
    const expected = op.path.endsWith("/rotate-secret") ? 200 : op.path.endsWith("/test") ? 202 : ok;
    expect(res.status).toBe(expected);
  });

  it.runIf(row.record)("is 404 for an unknown uuid with an invalid body", async () => {
    const res = await send(op, "owner@acme.test", UNKNOWN_UUID, row.invalid);
    expect(res.status).toBe(404);
    expect(res.body.errors).toBeUndefined();
  });

  it.runIf(row.record)("is 403 for another tenant's uuid with an invalid body", async () => {
    const res = await send(op, "owner@acme.test", row.record && records.foreign[row.record], row.invalid);
    expect(res.status).toBe(403);
    expect(res.body.errors).toBeUndefined();
  });

  it.runIf(row.record && !row.ownersOnly)(
    "is 403 for a record outside a Standard user's visibility with an invalid body",
    async () => {
      const res = await send(op, "assigned@acme.test", row.record && records.hidden[row.record], row.invalid);
      expect(res.status).toBe(403);
      expect(res.body.errors).toBeUndefined();
    },
  );

  it.runIf(row.record && row.invalid)("is 422 for a visible record with an invalid body", async () => {
    const email = row.ownersOnly ? "owner@acme.test" : "assigned@acme.test";
    const visible = row.ownersOnly
      ? (await webhookOf({ tenantId: (await tenantByName("Acme Accounting")).id })).uuid
      : undefined;
    const res = await send(op, email, visible ?? (row.record && records.visible[row.record]), row.invalid);
    expect(res.status).toBe(422);
  });
});
