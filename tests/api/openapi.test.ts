// The OpenAPI document: served without a token, complete (every route file and method is in it), and strict
// enough that the contract check in tests/support/api.ts catches answers that drift from it.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import * as openapi from "@/app/api/v1/openapi.json/route";
import { prisma } from "@/lib/db/client";
import { openApiDocument } from "@/lib/openapi/document";
import { operations } from "@/lib/openapi/operations";
import { call, tokenFor } from "../support/api";
import { assertMatchesContract } from "../support/contract";
import { importRoute } from "../support/routes";

const API_DIR = path.resolve("app/api/v1");

/** Every route file under app/api/v1 as an OpenAPI path template, e.g. clients/[uuid] → /clients/{uuid}. */
async function routeFiles() {
  const entries = await readdir(API_DIR, { recursive: true });
  return entries
    .filter((f) => f.endsWith("route.ts") && !f.includes("[[...") && !f.startsWith("openapi.json"))
    .map((f) => ({ file: f, template: `/${path.dirname(f)}`.replace(/\[(\w+)\]/g, "{$1}").replace(/^\/\.$/, "/") }));
}

describe("GET /openapi.json", () => {
  it("answers the OpenAPI 3.1 document without a token", async () => {
    const res = await openapi.GET(new Request("http://api.firm.test:8080/api/v1/openapi.json"));
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(Object.keys(doc.paths)).toContain("/clients/{uuid}");
  });

  it("names the API's absolute URL as its server, on the public origin like every link", async () => {
    const served = async (url: string, headers: Record<string, string> = {}) =>
      (await (await openapi.GET(new Request(url, { headers }))).json()).servers;
    expect(await served("http://api.firm.test:8080/api/v1/openapi.json")).toEqual([
      { url: "http://api.firm.test:8080/api/v1" },
    ]);
    // A forwarded host counts only from a trusted proxy.
    expect(await served("http://internal:3000/api/v1/openapi.json", { "x-forwarded-host": "evil.test" })).toEqual([
      { url: "http://internal:3000/api/v1" },
    ]);
    vi.stubEnv("APP_URL", "https://clients.firm.example");
    try {
      expect(await served("http://internal:3000/api/v1/openapi.json")).toEqual([
        { url: "https://clients.firm.example/api/v1" },
      ]);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("the document for generated clients", () => {
  const doc = openApiDocument() as any;
  const allOperations = Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries(methods as Record<string, any>).map(([method, op]) => ({ template, method, op })),
  );
  const parameter = (template: string, name: string) =>
    doc.paths[template].get.parameters.find((p: { name: string }) => p.name === name).schema;

  it("names every operation with a verb, once", () => {
    const ids = allOperations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^(get|list|create|update|delete|search|find|rotate|send)[A-Z][A-Za-z]+$/);
    expect(ids).toEqual(
      expect.arrayContaining(["listClients", "createClient", "updateClient", "getCurrentUser", "findUserByEmail"]),
    );
  });

  it("types numbers and booleans of queries and paths as what they are, with their bounds", () => {
    const digits = "^-?[0-9]{1,15}$";
    expect(parameter("/clients", "page")).toEqual({ type: "integer", minimum: 1, maximum: 1_000_000, pattern: digits });
    expect(parameter("/clients", "limit")).toEqual({ type: "integer", minimum: 1, maximum: 1000, pattern: digits });
    expect(parameter("/clients", "include_archived")).toEqual({ type: "boolean" });
    expect(parameter("/jobs", "users[]").items).toEqual({
      type: "integer",
      minimum: 1,
      maximum: 2_147_483_647,
      pattern: digits,
    });
    expect(parameter("/jobs", "include_completed")).toEqual({ type: "boolean" });
    expect(parameter("/users/{id}", "id")).toMatchObject({ type: "integer", minimum: 1, maximum: 2_147_483_647 });
    for (const { template, method, op } of allOperations) {
      for (const p of op.parameters) {
        const schema = JSON.stringify(p.schema);
        expect(schema, `${method} ${template} ${p.name}`).not.toContain('"1","0"');
        expect(schema, `${method} ${template} ${p.name}`).not.toContain("-?\\d");
      }
    }
  });

  it("lists the named ranges of every date range, beside the FROM,TO form", () => {
    for (const [template, name] of [
      ["/jobs", "due_date_range"],
      ["/jobs", "start_date_range"],
      ["/time-logs", "range"],
    ]) {
      const [named, fromTo] = parameter(template, name).anyOf;
      expect(named.enum).toEqual(expect.arrayContaining(["today", "last_month", "this_year"]));
      expect(fromTo.pattern).toBeDefined();
    }
    expect(doc.components.schemas.JobCreate.properties.due_date.anyOf[0]).toMatchObject({ format: "date" });
    expect(doc.components.schemas.Job.properties.due_date.anyOf[0]).toMatchObject({ format: "date" });
  });

  it("names every request body and answer, and shares one type for the links and meta of every page", () => {
    const bodies = allOperations.filter(({ op }) => op.requestBody);
    expect(bodies.length).toBeGreaterThan(0);
    for (const { op } of bodies) expect(op.requestBody.content["application/json"].schema.$ref).toBeDefined();
    // Answers too: an inline answer would repeat its components, and generators would name the copies anew.
    for (const { template, method, op } of allOperations) {
      const [[status, success]] = Object.entries(op.responses).filter(([status]) => status.startsWith("2"));
      if (status === "204") continue;
      expect((success as any).content["application/json"].schema.$ref, `${method} ${template}`).toBeDefined();
    }
    for (const name of ["ClientCreate", "ClientUpdate", "ContactCreate", "ContactUpdate", "JobCreate", "JobUpdate"])
      expect(doc.components.schemas, name).toHaveProperty(name);
    const pages = Object.entries(doc.components.schemas).filter(([name]) => name.endsWith("Page"));
    expect(pages.length).toBeGreaterThan(3);
    for (const [name, page] of pages as [string, any][]) {
      const kind = name.endsWith("CursorPage") ? "CursorPagination" : "Pagination";
      expect(page.properties.links, name).toEqual({ $ref: `#/components/schemas/${kind}Links` });
      expect(page.properties.meta, name).toEqual({ $ref: `#/components/schemas/${kind}Meta` });
    }
  });

  it("calls its error body ApiError, not Error, which would hide JavaScript's own in generated code", () => {
    expect(doc.components.schemas).toHaveProperty("ApiError");
    expect(doc.components.schemas).not.toHaveProperty("Error");
  });

  it("declares a client's fields without allowing any other key in generated types, and keeps others closed", () => {
    expect(doc.components.schemas.Client).not.toHaveProperty("additionalProperties");
    expect(doc.components.schemas.Client.description).toMatch(/custom field/);
    expect(doc.components.schemas.Contact.additionalProperties).toBe(false);
  });

  it("carries an example for every body, every list and the 422, each valid for its schema", () => {
    for (const op of operations) {
      const documented = doc.paths[op.path][op.method];
      const path = `/api/v1${op.path.replace(/\{\w+\}/g, "1")}`;
      if (op.body) {
        const example = documented.requestBody.content["application/json"].example;
        expect(example, `${op.id} body`).toBeDefined();
        expect(op.body.safeParse(example).error, `${op.id} body example`).toBeUndefined();
      }
      if (!op.response.schema) continue; // 204: no body
      const answer = documented.responses[op.response.status].content["application/json"];
      if (op.id.startsWith("list")) expect(answer.example, `${op.id} answer`).toBeDefined();
      if (answer.example !== undefined)
        assertMatchesContract(op.method.toUpperCase(), path, op.response.status, answer.example);
    }
    const invalid = doc.components.responses.ValidationFailed.content["application/json"].example;
    assertMatchesContract("POST", "/api/v1/clients", 422, invalid);
    expect(invalid.message).toMatch(/^The given data was invalid\./);
  });
});

describe("the document's completeness", () => {
  it("lists every route file with exactly the methods it answers", async () => {
    const doc = openApiDocument();
    const files = await routeFiles();
    expect(files.length).toBeGreaterThan(3);
    for (const { file, template } of files) {
      const route = await importRoute(file);
      const allow = (
        await route.OPTIONS!(new Request("http://localhost"), { params: Promise.resolve({}) })
      ).headers.get("allow") as string;
      const methods = allow
        .split(", ")
        .filter((m) => m !== "OPTIONS")
        .map((m) => m.toLowerCase())
        .sort();
      expect(Object.keys((doc.paths as Record<string, object>)[template] ?? {}).sort(), template).toEqual(methods);
    }
  });

  it("documents the error answers of every operation, with their bodies", async () => {
    const doc = openApiDocument();
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods as Record<string, { responses: Record<string, unknown> }>)) {
        expect(Object.keys(op.responses), `${method} ${template}`).toEqual(
          expect.arrayContaining([
            "401",
            "406",
            "414",
            "429",
            "503",
            ...(template.includes("{") ? ["404", "405"] : []),
          ]),
        );
      }
    }
    expect(doc.components.responses.ValidationFailed.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/ValidationError",
    });
    expect(doc.components.responses.TooManyRequests.headers).toHaveProperty("Retry-After");
  });
});

describe("the document and the server agree", () => {
  const doc = openApiDocument() as any;
  const pathSchema = (template: string, method: string, name: string) =>
    doc.paths[template][method].parameters.find((p: { name: string }) => p.name === name).schema;

  it("takes a query integer in digits only, as the pattern says: limit=1e3 is a 422", async () => {
    const clients = await importRoute("clients/route.ts");
    const token = await tokenFor("owner@acme.test");
    const pattern = new RegExp(pathSchema("/clients", "get", "limit").pattern);
    for (const [value, status] of [
      ["1e3", 422],
      ["1000.0", 422],
      ["0x10", 422],
      ["1000", 200],
    ] as const) {
      expect(pattern.test(value), value).toBe(status === 200);
      expect((await call(clients, "GET", `clients?limit=${value}`, { token })).status, value).toBe(status);
    }
  });

  it("takes a uuid in either case, as every uuid pattern says", async () => {
    const route = await importRoute("clients/[uuid]/route.ts");
    const token = await tokenFor("owner@acme.test");
    const { uuid } = await (await prisma()).client.findFirstOrThrow({ orderBy: { id: "asc" } });
    const upper = uuid.toUpperCase();
    const res = await call(route, "GET", `clients/${upper}`, { token, params: { uuid: upper } });
    expect(res.status).toBe(200);
    expect(res.body.uuid).toBe(uuid);
    const patterns = [...JSON.stringify(doc).matchAll(/"pattern":"(\^\[0-9a-f[^"]*)"/g)].map(([, p]) => p);
    expect(patterns.length).toBeGreaterThan(10);
    for (const p of patterns) {
      expect(new RegExp(JSON.parse(`"${p}"`)).test(upper), p).toBe(true);
      expect(new RegExp(JSON.parse(`"${p}"`)).test(uuid), p).toBe(true);
    }
  });

  it("answers PUT /clients/search with the 405 and Allow header the document lists for PUT /clients/{uuid}", async () => {
    const route = await importRoute("clients/search/route.ts");
    const res = await call(route, "PUT", "clients/search", { token: await tokenFor("owner@acme.test"), body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, OPTIONS");
    expect(doc.paths["/clients/{uuid}"].put.responses["405"]).toEqual({
      $ref: "#/components/responses/MethodNotAllowed",
    });
    expect(doc.components.responses.MethodNotAllowed.headers).toHaveProperty("Allow");
  });
});

describe("sync and safe retries in the document", () => {
  type Op = {
    parameters: { name: string; in: string }[];
    responses: Record<string, { headers?: Record<string, unknown>; content?: unknown }>;
  };
  const operationsOf = () =>
    Object.entries(openApiDocument().paths).flatMap(([template, methods]) =>
      Object.entries(methods as Record<string, Op>).map(([method, op]) => ({ method, template, op })),
    );

  it("declares Idempotency-Key, Idempotent-Replayed, 409 and 422 on every POST and PUT", () => {
    const writes = operationsOf().filter(({ method }) => method === "post" || method === "put");
    expect(writes.length).toBeGreaterThan(4);
    for (const { method, template, op } of writes) {
      const where = `${method} ${template}`;
      expect(op.parameters, where).toContainEqual(expect.objectContaining({ name: "Idempotency-Key", in: "header" }));
      expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(["409", "422"]));
      const success = Object.entries(op.responses).find(([status]) => status.startsWith("2"))![1];
      expect(success.headers, where).toHaveProperty("Idempotent-Replayed");
    }
  });

  it("offers cursor on every paginated list", () => {
    const schemas = openApiDocument().components.schemas as Record<string, { anyOf?: { $ref: string }[] }>;
    // A paginated list answers a page or, with cursor=, a cursor page.
    const lists = operationsOf().filter(({ op }) => {
      const ref = JSON.stringify(op.responses["200"]?.content ?? "").match(/schemas\/(\w+)"/)?.[1];
      return JSON.stringify(schemas[ref ?? ""]?.anyOf ?? "").includes("CursorPage");
    });
    expect(lists.map(({ template }) => template).sort()).toEqual(["/clients", "/contacts", "/jobs", "/time-logs"]);
    for (const { template, op } of lists)
      expect(
        op.parameters.map((p) => p.name),
        template,
      ).toEqual(expect.arrayContaining(["cursor", "updated_since"]));
  });
});

describe("the contract check", () => {
  const profile = {
    id: 1,
    firstname: "A",
    lastname: "B",
    email: "a@b.test",
    fullname: "A B",
    timezone: "UTC",
    active: true,
  };

  it("accepts an answer that matches the document", () => {
    expect(() => assertMatchesContract("GET", "/api/v1/me", 200, profile)).not.toThrow();
    expect(() =>
      assertMatchesContract("GET", "/api/v1/me", 401, { message: "Unauthenticated.", request_id: "a-request-id" }),
    ).not.toThrow();
  });

  it("refuses a field the document does not describe, a missing one, a wrong type and an undocumented status", () => {
    expect(() => assertMatchesContract("GET", "/api/v1/me", 200, { ...profile, password_hash: "x" })).toThrow(
      /does not match/,
    );
    const withoutEmail: Partial<typeof profile> = { ...profile };
    delete withoutEmail.email;
    expect(() => assertMatchesContract("GET", "/api/v1/me", 200, withoutEmail)).toThrow(/email/);
    expect(() => assertMatchesContract("GET", "/api/v1/me", 200, { ...profile, id: "1" })).toThrow(/does not match/);
    expect(() => assertMatchesContract("GET", "/api/v1/me", 201, profile)).toThrow(/does not list/);
    expect(() => assertMatchesContract("GET", "/api/v1/me", 422, { message: "x" })).toThrow(/does not list/);
    expect(() =>
      assertMatchesContract("GET", "/api/v1/clients/search", 200, { clients: [{ id: 1, uuid: "x", name: "n" }] }),
    ).toThrow(/does not match/);
  });
});
