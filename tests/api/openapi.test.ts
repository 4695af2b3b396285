// The OpenAPI document: served without a token, complete (every route file and method is in it), and strict
// enough that the contract check in tests/support/api.ts catches answers that drift from it.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as openapi from "@/app/api/v1/openapi.json/route";
import { openApiDocument } from "@/lib/openapi/document";
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
    const res = await openapi.GET();
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(Object.keys(doc.paths)).toContain("/clients/{uuid}");
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
          expect.arrayContaining(["401", "406", "429"]),
        );
      }
    }
    expect(doc.components.responses.ValidationFailed.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/ValidationError",
    });
    expect(doc.components.responses.TooManyRequests.headers).toHaveProperty("Retry-After");
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
    const lists = operationsOf().filter(({ op }) => JSON.stringify(op.responses["200"]?.content ?? "").match(/Pages"/));
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
    expect(() => assertMatchesContract("GET", "/api/v1/me", 401, { message: "Unauthenticated." })).not.toThrow();
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
