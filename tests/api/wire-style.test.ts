// Every answer under /api/v1 is written in one JSON style (issue 38, item 7; docs/architecture.md, "The JSON
// style"): compact, byte for byte what JSON.stringify writes for its value, with each object's keys in the order of
// its schema's properties in the OpenAPI document (a client's custom fields after them). Whoever writes the body:
// PostgreSQL for lists, records and searches (lib/db/json-rows.ts), a stream of its chunks for a long page, the
// serializers for writes, errors and webhook payloads. Every GET of the document is walked, for a full token and for
// tokens that get nested records reduced to their identifier.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "@/lib/db/client";
import { STREAMED_ROWS } from "@/lib/db/wire-list";
import { createApiToken } from "@/lib/tokens";
import { FULL_ACCESS, type TokenAccess } from "@/lib/tokens/access";
import { type ApiResult, call, tenantByName, userByEmail } from "../support/api";
import { operations, pathOf, recordParams, routeModule } from "../support/routes";
import { answerSchema, compact, keyOrderProblems } from "../support/wire-style";

const OWNER = "owner@acme.test";
/** Text that JSON escapes, or that a writer could escape differently: quotes, a backslash, controls, non-ASCII. */
const AWKWARD = 'Quote " back\\slash\ttab\nline \u0001 \u007f café ✓ 𝄞 </script>';
/** Clients of one name, enough for a streamed page (more than STREAMED_ROWS rows). */
const STREAMED = "Wire style";
let tenantId: number;

async function tokenWith(access: TokenAccess) {
  const user = await userByEmail(OWNER);
  return (await createApiToken(await prisma(), { tenantId: user.tenantId, userId: user.id }, "style", { access }))
    .token;
}

beforeAll(async () => {
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "true");
  tenantId = (await tenantByName("Acme Accounting")).id;
  const db = await prisma();
  const first = await db.client.findFirstOrThrow({ where: { tenantId }, orderBy: { id: "asc" } });
  const notes = await db.customField.findFirstOrThrow({ where: { tenantId, name: "notes" } });
  await db.client.update({
    where: { tenantId_id: { tenantId, id: first.id } },
    data: { name: `${AWKWARD} client`, city: AWKWARD },
  });
  await db.customFieldValue.upsert({
    where: { tenantId_clientId_fieldId: { tenantId, clientId: first.id, fieldId: notes.id } },
    create: { tenantId, clientId: first.id, fieldId: notes.id, value: AWKWARD },
    update: { value: AWKWARD },
  });
  await db.client.createMany({
    data: Array.from({ length: STREAMED_ROWS + 20 }, (_, i) => ({ tenantId, name: `${STREAMED} ${i}` })),
  });
});

/** What is wrong with an answer's style: spacing or escapes JSON.stringify would not write, keys out of order. */
function styleProblems(label: string, method: string, path: string, res: ApiResult) {
  const problems: string[] = [];
  if (res.text !== compact(res.text)) problems.push(`${label}: not compact: ${res.text.slice(0, 200)}`);
  const schema = answerSchema(method, new URL(path, "http://localhost/api/v1/").pathname, res.status);
  if (!schema) problems.push(`${label}: the document has no schema for ${res.status}`);
  else problems.push(...keyOrderProblems(JSON.parse(res.text), schema).map((p) => `${label} ${p}`));
  // One line per kind of problem, not per row of a page.
  return [...new Set(problems.map((p) => p.replace(/\[\d+\]/g, "[]")))];
}

/** The queries each list is also read with, beyond none: a search, a cursor page, a streamed page. */
const QUERIES: Record<string, string[]> = {
  "/clients": ["search=café", `search=${encodeURIComponent(STREAMED)}&per_page=1000`, "cursor=&per_page=5"],
  "/clients/search": ["q=café"],
  "/contacts": ["search=a", "cursor=&per_page=5"],
  "/jobs": ["cursor=&per_page=5", "sort_by=due_date"],
  "/time-logs": ["per_page=1000", "cursor=&per_page=5"],
};

describe.each([
  ["full access", {}],
  ["no access to contacts", { contacts: "none" }],
  ["no access to clients", { clients: "none" }],
  ["no access to users", { users: "none" }],
] as const)("every GET of the document, with a token of %s", (_, limits) => {
  it("answers compact JSON in the documented key order", async () => {
    const token = await tokenWith({ ...FULL_ACCESS, ...limits });
    const problems: string[] = [];
    let answers = 0;
    for (const op of operations.filter((o) => o.method === "get")) {
      const params = await recordParams(op, tenantId);
      for (const query of ["", ...(QUERIES[op.path] ?? [])]) {
        const path = `${pathOf(op, params).slice(1)}${query ? `?${query}` : ""}`;
        const res = await call(await routeModule(op.path), "GET", path, { token, params });
        // A search needs its q; a resource the token cannot read is a 403: errors are held to the style all the same.
        problems.push(...styleProblems(`GET ${path}`, "GET", path, res));
        answers++;
      }
    }
    expect(problems).toEqual([]);
    expect(answers).toBeGreaterThan(20);
  });
});

it("a streamed page is written in the same style", async () => {
  const token = await tokenWith(FULL_ACCESS);
  const path = `clients?search=${encodeURIComponent(STREAMED)}&per_page=1000`;
  const res = await call(await routeModule("/clients"), "GET", path, { token });
  expect(res.body.data.length).toBeGreaterThan(STREAMED_ROWS);
  expect(styleProblems(path, "GET", path, res)).toEqual([]);
});

it("a record with custom fields has them after the documented keys, in the fields' order", async () => {
  const token = await tokenWith(FULL_ACCESS);
  const db = await prisma();
  const { uuid } = await db.client.findFirstOrThrow({ where: { tenantId }, orderBy: { id: "asc" } });
  const res = await call(await routeModule("/clients/{uuid}"), "GET", `clients/${uuid}`, { token, params: { uuid } });
  const keys = Object.keys(res.body);
  expect(keys.slice(0, 3)).toEqual(["uuid", "name", "client_id"]);
  expect(keys.slice(-5)).toEqual(["industry", "employees", "onboarded_on", "aml_checked", "notes"]);
  expect(res.body.notes).toBe(AWKWARD);
  expect(res.text).toContain(`"contacts":[`);
});

describe("writes and errors", () => {
  it("a create, an update and their refusals answer in the style", async () => {
    const token = await tokenWith(FULL_ACCESS);
    const clients = await routeModule("/clients");
    const record = await routeModule("/clients/{uuid}");
    const created = await call(clients, "POST", "clients", {
      token,
      body: { name: `${AWKWARD} new`, custom_fields: { notes: AWKWARD, employees: 12 } },
    });
    expect(created.status).toBe(201);
    const { uuid } = created.body;
    const updated = await call(record, "PUT", `clients/${uuid}`, { token, params: { uuid }, body: { city: "Leeds" } });
    expect(updated.status).toBe(200);
    const invalid = await call(clients, "POST", "clients", { token, body: { name: "" } });
    expect(invalid.status).toBe(422);
    const missing = await call(record, "GET", "clients/00000000-0000-4000-8000-000000000000", {
      token,
      params: { uuid: "00000000-0000-4000-8000-000000000000" },
    });
    expect(missing.status).toBe(404);
    const anonymous = await call(clients, "GET", "clients", { token: null });
    expect(anonymous.status).toBe(401);
    const webhook = await call(await routeModule("/webhooks"), "POST", "webhooks", {
      token,
      body: { url: "https://hooks.example.test/style", events: ["client.updated"] },
    });
    expect(webhook.status).toBe(201);
    expect([
      ...styleProblems("POST clients", "POST", "clients", created),
      ...styleProblems("PUT clients/{uuid}", "PUT", `clients/${uuid}`, updated),
      ...styleProblems("POST clients (422)", "POST", "clients", invalid),
      ...styleProblems("GET clients/{uuid} (404)", "GET", "clients/00000000-0000-4000-8000-000000000000", missing),
      ...styleProblems("GET clients (401)", "GET", "clients", anonymous),
      ...styleProblems("POST webhooks", "POST", "webhooks", webhook),
    ]).toEqual([]);
  });
});

describe("a webhook payload", () => {
  it("is {type, timestamp, data}, data byte for byte the record its GET answers", async () => {
    // No access to users: the payloads' nested people are reduced to their ids, as this token's GETs answer them.
    const token = await tokenWith({ ...FULL_ACCESS, users: "none" });
    const events = ["client.updated", "contact.updated", "job.updated"];
    const made = await call(await routeModule("/webhooks"), "POST", "webhooks", {
      token,
      body: { url: "http://127.0.0.1:9/style", events },
    });
    expect(made.status).toBe(201);
    const db = await prisma();
    const endpoint = await db.webhookEndpoint.findFirstOrThrow({ where: { uuid: made.body.uuid } });
    const owner = await tokenWith(FULL_ACCESS);
    const client = await db.client.findFirstOrThrow({ where: { tenantId }, orderBy: { id: "asc" } });
    const contact = await db.contact.findFirstOrThrow({ where: { tenantId, clients: { some: {} } } });
    const job = await db.job.findFirstOrThrow({
      where: { tenantId, assignees: { some: {} }, clientId: { not: null } },
    });
    const problems: string[] = [];
    for (const [path, uuid, body] of [
      ["/clients/{uuid}", client.uuid, { website: "https://style.example.test" }],
      ["/contacts/{uuid}", contact.uuid, { phone_number: "0113 496 0000" }],
      ["/jobs/{uuid}", job.uuid, { description: AWKWARD }],
    ] as const) {
      const route = await routeModule(path);
      const at = path.replace("{uuid}", uuid).slice(1);
      expect((await call(route, "PUT", at, { token: owner, params: { uuid }, body })).status, path).toBe(200);
      const delivery = await db.webhookDelivery.findFirstOrThrow({
        where: { endpointId: endpoint.id },
        orderBy: { id: "desc" },
        include: { event: true },
      });
      const payload = delivery.event.body;
      const parsed = JSON.parse(payload);
      expect(Object.keys(parsed), path).toEqual(["type", "timestamp", "data"]);
      if (payload !== compact(payload)) problems.push(`${path}: payload not compact`);
      // The endpoint has the access of the token that set it up: its payload is what that token's GET answers.
      const read = await call(route, "GET", at, { token, params: { uuid } });
      expect(payload, path).toContain(`"data":${read.text}}`);
      problems.push(...keyOrderProblems(parsed.data, answerSchema("GET", `/api/v1/${at}`, 200)!, path));
    }
    expect(problems).toEqual([]);
  });
});
