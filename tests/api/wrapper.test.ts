// The API wrapper's error model, tested on real routes where one exists and on a probe route for body handling.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import * as unknown from "@/app/api/v1/[[...path]]/route";
import * as me from "@/app/api/v1/me/route";
import { MAX_BODY_BYTES } from "@/lib/api/request";
import { apiRoute, created } from "@/lib/api/route";
import { call, tokenFor } from "../support/api";
import { spyOnLog } from "../support/log";

const probeSchema = z.object({
  name: z.string().max(5),
  contact: z.object({ email: z.email() }).optional(),
  tags: z.array(z.number().int()).optional(),
});
const probe = apiRoute(
  { method: "post", path: "/me", resource: null, body: probeSchema, handler: async ({ body }) => created(body) },
  {
    method: "put",
    path: "/me",
    resource: null,
    handler: async () => {
      throw new Error('relation "secret_table" does not exist: SELECT * FROM secret_table');
    },
  },
);
let token: string;
beforeAll(async () => {
  token = await tokenFor("owner@acme.test");
});

describe("request bodies", () => {
  it("passes a JSON object to the handler", async () => {
    const res = await call(probe, "POST", "probe", { token, body: { name: "ok" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name: "ok" });
  });

  it.each([
    ["truncated JSON", '{"name": "x"'],
    ["not JSON at all", "name=x"],
    ["an empty body", ""],
    ["stray characters", "\u00ff\u00fe"],
  ])("is 400 for %s", async (_, rawBody) => {
    const res = await call(probe, "POST", "probe", { token, rawBody, headers: { "Content-Type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "The request body is not valid JSON." });
  });

  it.each([
    ["an array", [1, 2]],
    ["a string", "name"],
    ["null", null],
    ["a number", 42],
  ])("is 400 when the body is %s", async (_, body) => {
    const res = await call(probe, "POST", "probe", {
      token,
      rawBody: JSON.stringify(body),
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "The request body must be a JSON object." });
  });

  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])(
    "is 415 for Content-Type %s",
    async (type) => {
      const res = await call(probe, "POST", "probe", {
        token,
        rawBody: '{"name":"ok"}',
        headers: { "Content-Type": type },
      });
      expect(res.status).toBe(415);
      expect(res.body.message).toMatch(/Content-Type: application\/json/);
    },
  );

  it("is 415 without a Content-Type", async () => {
    const res = await call(probe, "POST", "probe", { token, rawBody: '{"name":"ok"}' });
    expect(res.status).toBe(415);
  });

  it("accepts a JSON content type with a charset", async () => {
    const res = await call(probe, "POST", "probe", {
      token,
      rawBody: '{"name":"ok"}',
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
    expect(res.status).toBe(201);
  });

  it("is 413 for a body over the limit, without reading all of it", async () => {
    const res = await call(probe, "POST", "probe", { token, body: { name: "x".repeat(MAX_BODY_BYTES + 1) } });
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/larger than/);
  });

  it("is 422 with an errors map keyed by dot paths", async () => {
    const res = await call(probe, "POST", "probe", {
      token,
      body: { name: "toolong", contact: { email: "nope" }, tags: [1, "x"] },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/invalid/i);
    expect(res.body.errors).toEqual({
      name: ["Must be at most 5 characters."],
      "contact.email": ["Must be a valid email address."],
      "tags.1": ["Must be a number, not string."],
    });
  });

  it("is 422 naming a missing required field", async () => {
    const res = await call(probe, "POST", "probe", { token, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ name: ["This field is required."] });
  });

  it("checks the token before it reads the body", async () => {
    const res = await call(probe, "POST", "probe", { rawBody: "{", headers: { "Content-Type": "application/json" } });
    expect(res.status).toBe(401);
  });
});

describe("content negotiation", () => {
  it.each(["application/json", "*/*", "application/*", "text/html, application/json;q=0.9", "APPLICATION/JSON"])(
    "answers Accept: %s",
    async (accept) => {
      const res = await call(me, "GET", "me", { token, headers: { Accept: accept } });
      expect(res.status).toBe(200);
    },
  );

  it.each(["text/html", "application/xml", "application/json;q=0"])("is 406 for Accept: %s", async (accept) => {
    const res = await call(me, "GET", "me", { token, headers: { Accept: accept } });
    expect(res.status).toBe(406);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body.message).toMatch(/application\/json/);
  });
});

describe("paths and methods", () => {
  it("is 404 JSON for an unknown path, for any method", async () => {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
      const res = await call(unknown, method, "nope/here", { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Endpoint not found." });
    }
  });

  it("is 405 with an Allow header for a method the path does not have", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
      const res = await call(me, method, "me", { token, body: {} });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, OPTIONS");
      expect(res.body.message).toMatch(/not allowed/);
    }
  });

  it("is 405 before the token: with none, a malformed one or an unknown one, and counted against the address's limit", async () => {
    vi.stubEnv("RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE", "60");
    vi.resetModules();
    const fresh = await import("@/app/api/v1/me/route");
    for (const sent of [undefined, "not-a-token", `cjt_${"a".repeat(43)}x`]) {
      const res = await call(fresh, "DELETE", "me", { token: sent });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, OPTIONS");
      expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    }
    vi.unstubAllEnvs();
  });

  it("answers OPTIONS with the allowed methods", async () => {
    const res = await call(me, "OPTIONS", "me");
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("GET, OPTIONS");
  });
});

describe("unexpected errors", () => {
  it("are a 500 with a fixed body that leaks nothing, and the cause is logged", async () => {
    const log = spyOnLog("error");
    const res = await call(probe, "PUT", "probe", { token, body: {} });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: "Server error" });
    expect(log).toHaveBeenCalledWith(
      "Unhandled error in API request",
      expect.objectContaining({ message: expect.stringContaining("secret_table") }),
    );
    log.mockRestore();
  });
});

describe("a client that hangs up mid-body", () => {
  it("gets a 400, and nothing is logged as a server error", async () => {
    const log = spyOnLog("error");
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name": "par'));
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    const request = new Request("http://localhost/api/v1/probe", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    const res = await probe.POST(request, { params: Promise.resolve({}) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: "The request body could not be read.",
      request_id: res.headers.get("x-request-id"),
    });
    expect(log).not.toHaveBeenCalled();
    log.mockRestore();
  });
});
