// Per-resource token access (decisions.md, Tokens): every operation of the document, for every level its resource
// can have, refuses below the level it needs with a 403 naming the resource, and lets the request through at or above
// it; what a token may do is its access intersected with its user's role; the presets do what the old scopes did.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as tokenRoute from "@/app/api/v1/token/route";
import { apiRoute, SELF_PATHS } from "@/lib/api/route";
import { prisma } from "@/lib/db/client";
import { createApiToken } from "@/lib/tokens";
import {
  ACCESS_LEVELS,
  FULL_ACCESS,
  levelsOf,
  NO_ACCESS,
  READ_ONLY,
  resourceLabel,
  TOKEN_RESOURCES,
  type TokenAccess,
} from "@/lib/tokens/access";
import { call, tableCounts, tokenWithAccess, userByEmail } from "../support/api";
import { importRoute, type Operation, operations, pathOf, routeModule } from "../support/routes";

const tokenWith = (email: string, access: TokenAccess) => tokenWithAccess(email, access);

/** Path values that name no record, and a body that fails validation: nothing is ever changed by these calls. */
const PARAMS: Record<string, string> = {
  uuid: "00000000-0000-4000-8000-000000000000",
  id: "999999",
  email: "x@y.test",
};
async function send(op: Operation, token: string) {
  const params = Object.fromEntries(Object.keys(op.params ?? {}).map((name) => [name, PARAMS[name]]));
  return call(await routeModule(op.path), op.method.toUpperCase(), pathOf(op, params).slice(1), {
    token,
    params,
    body: op.method === "get" || op.method === "delete" ? undefined : { name: 42, url: 42 },
  });
}

const needed = (op: Operation) => (op.method === "get" ? "read" : "write");
const withResource = operations.filter((op) => op.resource);
const label = resourceLabel;

describe.each(withResource.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))("%s", (_, op) => {
  const resource = op.resource!;
  it.each(levelsOf(resource))(`with ${resource} at %s`, async (level) => {
    // Every other resource at its most, so that only this one's level decides.
    const token = await tokenWith("owner@acme.test", { ...FULL_ACCESS, [resource]: level });
    const before = await tableCounts();
    const res = await send(op, token);
    const enough = level === "write" || (level === "read" && needed(op) === "read");
    if (enough) {
      expect(res.status === 403 && /^This token/.test(res.body.message)).toBe(false);
    } else {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(
        level === "none"
          ? `This token has no access to ${label(resource)}.`
          : `This token can only read ${label(resource)}.`,
      );
    }
    expect(await tableCounts()).toEqual(before);
  });
});

describe("a token resource on every operation", () => {
  it("is named by every operation but the caller's own (/me, /token, /token/requests)", () => {
    const without = operations.filter((op) => !op.resource).map((op) => op.path);
    expect(
      without.every((p) => (SELF_PATHS as readonly string[]).includes(p)),
      without.join(", "),
    ).toBe(true);
    expect(operations.find((op) => op.id === "listAuditEvents")?.resource).toBe("audit");
  });

  it("is required of every endpoint: the wrapper refuses to build a route whose endpoint names none", async () => {
    const route = (resource: unknown, path = "/clients", method = "get", extra = {}) =>
      apiRoute({ method, path, resource, handler: async () => ({}), ...extra } as never);
    for (const [resource, path] of <[unknown, string][]>[
      [null, "/clients"],
      [undefined, "/clients"],
      ["", "/clients"],
      ["/clients", "/clients"],
      ["client", "/clients"],
      [null, "/me/"],
    ])
      expect(() => route(resource, path), `${resource} on ${path}`).toThrow(/names the token resource/);
    expect(() => route(null, "/me")).not.toThrow();
    expect(() => route("clients")).not.toThrow();
    // A webhook write must say which events the endpoint has after it; one route is one path, one endpoint a method.
    expect(() => route("webhooks", "/webhooks", "post")).toThrow(/subscribes/);
    expect(() => route("webhooks", "/webhooks", "post", { subscribes: () => [] })).not.toThrow();
    const list = operations.find((op) => op.id === "listClients")!;
    expect(() => apiRoute(list, { ...list, method: "post", path: "/jobs" })).toThrow(/all of one path/);
    expect(() => apiRoute(list, list)).toThrow(/one endpoint per method/);
    // Every route file loads: the wrapper judged its endpoints.
    const entries = await readdir(path.resolve("app/api/v1"), { recursive: true });
    const files = entries.filter((f) => f.endsWith("route.ts") && !f.includes("[[...") && !f.startsWith("openapi."));
    expect(files.length).toBe(new Set(operations.map((op) => op.path)).size);
    for (const file of files) await importRoute(file);
  });

  it("the audit log needs audit: read, which Full access and Read-only hold", async () => {
    const list = operations.find((op) => op.id === "listAuditEvents")!;
    const none = await send(list, await tokenWith("owner@acme.test", { ...FULL_ACCESS, audit: "none" }));
    expect(none).toMatchObject({ status: 403, body: { message: "This token has no access to the audit log." } });
    for (const access of [FULL_ACCESS, READ_ONLY, { ...NO_ACCESS, audit: "read" } as TokenAccess])
      expect((await send(list, await tokenWith("owner@acme.test", access))).status).toBe(200);
    // The role's audit.read still applies.
    const standard = await send(list, await tokenWith("standard@acme.test", FULL_ACCESS));
    expect(standard.status).toBe(403);
    expect(standard.body.message).not.toMatch(/^This token/);
  });
});

describe("the presets do what the old scopes did", () => {
  it.each(withResource.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    "%s: Full access passes, Read-only passes reads and refuses writes as read-only",
    async (_, op) => {
      const full = await send(op, await tokenWith("owner@acme.test", FULL_ACCESS));
      expect(full.status === 403 && /^This token/.test(full.body.message)).toBe(false);
      const read = await send(op, await tokenWith("owner@acme.test", READ_ONLY));
      if (op.method === "get") expect(read.status === 403 && /^This token/.test(read.body.message)).toBe(false);
      else expect(read).toMatchObject({ status: 403, body: { message: "This token is read-only." } });
    },
  );
});

describe("the token's access intersected with the role", () => {
  // What each built-in role may do on a write (decisions.md, Tenancy): Standard lacks webhooks.manage, Viewer all.
  const roles = [
    ["owner@acme.test", { clients: true, webhooks: true }],
    ["admin@acme.test", { clients: true, webhooks: true }],
    ["standard@acme.test", { clients: true, webhooks: false }],
    ["viewer@acme.test", { clients: false, webhooks: false }],
  ] as const;
  const createClient = operations.find((op) => op.id === "createClient")!;
  const createWebhook = operations.find((op) => op.id === "createWebhook")!;
  const listTimeLogs = operations.find((op) => op.id === "listTimeLogs")!;

  it.each(roles)("%s: the token's refusal comes first, then the role's", async (email, may) => {
    for (const [op, resource] of [
      [createClient, "clients"],
      [createWebhook, "webhooks"],
    ] as const) {
      const readOnly = await send(op, await tokenWith(email, { ...NO_ACCESS, [resource]: "read" }));
      expect(readOnly).toMatchObject({ status: 403, body: { message: `This token can only read ${resource}.` } });
      const writing = await send(op, await tokenWith(email, { ...NO_ACCESS, [resource]: "write" }));
      // Allowed by both: the invalid body is what is refused; refused by the role: its 403.
      expect(writing.status).toBe(may[resource] ? 422 : 403);
      if (!may[resource]) expect(writing.body.message).not.toMatch(/^This token/);
    }
    const timeLogs = await send(listTimeLogs, await tokenWith(email, { ...NO_ACCESS, time_logs: "read" }));
    expect(timeLogs.status).toBe(200);
    const none = await send(listTimeLogs, await tokenWith(email, { ...NO_ACCESS, clients: "write" }));
    expect(none).toMatchObject({ status: 403, body: { message: "This token has no access to time logs." } });
  });
});

describe("GET /token", () => {
  it("describes the calling token with no access at all, and for every access", async () => {
    for (const access of [NO_ACCESS, FULL_ACCESS, { ...NO_ACCESS, clients: "read", jobs: "write" } as TokenAccess]) {
      const token = await tokenWith("standard@acme.test", access);
      const res = await call(tokenRoute, "GET", "token", { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        name: "access",
        access,
        expires_at: null,
        created_at: expect.any(String),
        last_used_at: expect.any(String),
        app: null,
      });
    }
  });

  it("is 401 without a token and 405 for writes", async () => {
    expect((await call(tokenRoute, "GET", "token")).status).toBe(401);
    const token = await tokenWith("standard@acme.test", FULL_ACCESS);
    expect((await call(tokenRoute, "POST", "token", { token, body: {} })).status).toBe(405);
  });
});

it("stores only levels a resource can have", async () => {
  const user = await userByEmail("owner@acme.test");
  const owner = { tenantId: user.tenantId, userId: user.id };
  for (const resource of TOKEN_RESOURCES)
    for (const level of ACCESS_LEVELS.filter((l) => !levelsOf(resource).includes(l)))
      await expect(
        createApiToken(await prisma(), owner, "bad", { access: { ...NO_ACCESS, [resource]: level } }),
      ).rejects.toThrow();
  // The database refuses one too, whatever the app sends.
  const bad = { ...FULL_ACCESS, time_logs: "write" };
  await expect(
    (await prisma())
      .$executeRaw`UPDATE api_tokens SET access = ${JSON.stringify(bad)}::jsonb WHERE tenant_id = ${user.tenantId}`,
  ).rejects.toThrow(/api_tokens_access_check/);
});

describe("webhook endpoints a token manages", () => {
  it("may subscribe only to events about what the token may read, and nothing is stored otherwise", async () => {
    const webhooks = await routeModule("/webhooks");
    const token = await tokenWith("owner@acme.test", { ...NO_ACCESS, webhooks: "write", clients: "read" });
    const before = await tableCounts();
    const refused = await call(webhooks, "POST", "webhooks", {
      token,
      body: { url: "https://hooks.example.com/in", events: ["client.created", "job.updated"] },
    });
    expect(refused).toMatchObject({
      status: 403,
      body: { message: "This token has no access to jobs, so it cannot subscribe to job.updated." },
    });
    // The token's 403 comes before the body's shape is judged (decisions.md's order): a bad URL changes nothing.
    for (const body of [
      { url: "not a url", events: ["job.updated"] },
      { url: "https://hooks.example.com/in", events: ["job.updated", "no.such_event", 7] },
    ])
      expect(await call(webhooks, "POST", "webhooks", { token, body }), JSON.stringify(body)).toMatchObject({
        status: 403,
        body: { message: "This token has no access to jobs, so it cannot subscribe to job.updated." },
      });
    // Without an event it may not read, the shape is what is refused.
    const invalid = await call(webhooks, "POST", "webhooks", { token, body: { url: "x", events: "client.created" } });
    expect(invalid.status).toBe(422);
    expect(await tableCounts()).toEqual(before);
    const made = await call(webhooks, "POST", "webhooks", {
      token,
      body: { url: "https://hooks.example.com/in", events: ["client.created"] },
    });
    expect(made.status).toBe(201);

    const one = await routeModule("/webhooks/{uuid}");
    const params = { uuid: made.body.uuid };
    const widened = await call(one, "PUT", `webhooks/${made.body.uuid}`, {
      token,
      params,
      body: { events: ["contact.created"] },
    });
    expect(widened).toMatchObject({ status: 403, body: { message: expect.stringMatching(/no access to contacts/) } });
    const widenedBadly = await call(one, "PUT", `webhooks/${made.body.uuid}`, {
      token,
      params,
      body: { events: ["contact.created"], enabled: "yes" },
    });
    expect(widenedBadly).toMatchObject({
      status: 403,
      body: { message: expect.stringMatching(/no access to contacts/) },
    });
    const renamed = await call(one, "PUT", `webhooks/${made.body.uuid}`, { token, params, body: { description: "x" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.events).toEqual(["client.created"]);
  });

  it("may not redirect, re-enable, rotate or test an endpoint whose stored events it cannot read", async () => {
    const owner = await tokenWith("owner@acme.test", FULL_ACCESS);
    const made = await call(await routeModule("/webhooks"), "POST", "webhooks", {
      token: owner,
      body: { url: "https://hooks.example.com/owner", events: ["client.updated"] },
    });
    expect(made.status).toBe(201);
    const uuid = made.body.uuid;
    const params = { uuid };
    const token = await tokenWith("owner@acme.test", { ...NO_ACCESS, webhooks: "write" });
    const refusal = { status: 403, body: { message: expect.stringMatching(/no access to clients/) } };
    const before = await tableCounts();
    const one = await routeModule("/webhooks/{uuid}");
    for (const body of [{ url: "https://attacker.example.com/in" }, { enabled: false }, { description: "mine" }])
      expect(await call(one, "PUT", `webhooks/${uuid}`, { token, params, body }), JSON.stringify(body)).toMatchObject(
        refusal,
      );
    for (const action of ["rotate-secret", "test"])
      expect(
        await call(await routeModule(`/webhooks/{uuid}/${action}`), "POST", `webhooks/${uuid}/${action}`, {
          token,
          params,
        }),
        action,
      ).toMatchObject(refusal);
    expect(await tableCounts()).toEqual(before);
    const stored = await call(one, "GET", `webhooks/${uuid}`, { token, params });
    expect(stored.body).toMatchObject({ url: "https://hooks.example.com/owner", enabled: true });
    // A token that reads clients may.
    const reader = await tokenWith("owner@acme.test", { ...NO_ACCESS, webhooks: "write", clients: "read" });
    const moved = await call(one, "PUT", `webhooks/${uuid}`, {
      token: reader,
      params,
      body: { url: "https://hooks.example.com/moved" },
    });
    expect(moved).toMatchObject({ status: 200, body: { url: "https://hooks.example.com/moved" } });
  });
});

describe("linking a record", () => {
  it("needs read access to its resource: client_uuid in a contact or job body", async () => {
    const user = await userByEmail("owner@acme.test");
    const client = await (await prisma()).client.findFirstOrThrow({ where: { tenantId: user.tenantId } });
    const job = await (await prisma()).job.findFirstOrThrow({ where: { tenantId: user.tenantId } });
    const token = await tokenWith("owner@acme.test", { ...FULL_ACCESS, clients: "none" });
    const before = await tableCounts();
    const contact = { firstname: "Link", lastname: "Test", email: "link.test@example.test" };
    const linked = await call(await routeModule("/contacts"), "POST", "contacts", {
      token,
      body: { ...contact, client_uuid: client.uuid },
    });
    const refusal = {
      status: 403,
      body: { message: "This token has no access to clients, so it cannot link client_uuid." },
    };
    expect(linked).toMatchObject(refusal);
    const moved = await call(await routeModule("/jobs/{uuid}"), "PUT", `jobs/${job.uuid}`, {
      token,
      params: { uuid: job.uuid },
      body: { client_uuid: client.uuid },
    });
    expect(moved).toMatchObject(refusal);
    expect(await tableCounts()).toEqual(before);
    // Without a link, the same token writes; its answer names the job's client by uuid only.
    const kept = await call(await routeModule("/jobs/{uuid}"), "PUT", `jobs/${job.uuid}`, {
      token,
      params: { uuid: job.uuid },
      body: {},
    });
    expect(kept.status).toBe(200);
    if (kept.body.client) expect(Object.keys(kept.body.client)).toEqual(["uuid"]);
    const made = await call(await routeModule("/contacts"), "POST", "contacts", { token, body: contact });
    expect(made.status).toBe(201);
  });
});
