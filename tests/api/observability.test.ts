// What every API request leaves for an operator and an integrator (issue 40): its X-Request-Id, the same id in an
// error's body and in its log line; the log line's fields; nothing secret in the log; the IETF rate-limit headers;
// and the calling token's recent requests (GET /token/requests), written in batches off the request path.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as unknown from "@/app/api/v1/[[...path]]/route";
import * as clientsRoute from "@/app/api/v1/clients/route";
import * as me from "@/app/api/v1/me/route";
import * as tokenRequests from "@/app/api/v1/token/requests/route";
import { apiRoute } from "@/lib/api/route";
import { logThrottled } from "@/lib/api/unavailable";
import { prisma } from "@/lib/db/client";
import { flushTokenRequests } from "@/lib/request-log/buffer";
import { createApiToken } from "@/lib/tokens";
import { call, tokenFor, userByEmail } from "../support/api";
import { captureLog, type LogLine } from "../support/log";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const failing = apiRoute({
  method: "get",
  path: "/me",
  resource: null,
  handler: async () => {
    throw new Error("the forced failure's cause");
  },
});

let owner: string;
let viewer: string;
let log: ReturnType<typeof captureLog>;
beforeAll(async () => {
  owner = await tokenFor("owner@acme.test");
  viewer = await tokenFor("viewer@acme.test");
});
beforeEach(() => {
  log = captureLog();
});
afterEach(() => {
  log.restore();
  vi.unstubAllEnvs();
});

const requestLine = (id: string | null) => {
  const lines = log.lines.filter((l) => l.kind === "request" && l.request_id === id);
  expect(lines).toHaveLength(1);
  return lines[0] as LogLine;
};

/** A fresh token of a user (by email), its value and id. */
async function freshToken(email: string) {
  const user = await userByEmail(email);
  const { token, summary } = await createApiToken(
    await prisma(),
    { tenantId: user.tenantId, userId: user.id },
    `observed ${Math.random()}`,
  );
  return { token, id: summary.id, user };
}

describe("request ids and the request log line", () => {
  it("a success: X-Request-Id, and one line with the request's ids, timing, bytes and rate-limit remaining", async () => {
    const res = await call(me, "GET", "me", { token: owner });
    expect(res.status).toBe(200);
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(UUID);
    const user = await userByEmail("owner@acme.test");
    const line = requestLine(id);
    expect(line).toMatchObject({
      level: "info",
      method: "GET",
      route: "/api/v1/me",
      status: 200,
      tenant_id: user.tenantId,
      user_id: user.id,
      token_id: expect.any(Number),
      bytes_out: Buffer.byteLength(JSON.stringify(res.body)),
      rate_limit_remaining: Number(res.headers.get("x-ratelimit-remaining")),
    });
    expect(line.duration_ms).toBeGreaterThan(0);
    // Authentication reads the database, so some of the time was spent there, and no more than the whole.
    expect(line.db_ms).toBeGreaterThan(0);
    expect(line.db_ms).toBeLessThanOrEqual(line.duration_ms as number);
    expect(new Date(line.time as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("a 422: the id in the body equals the header and the log line (call() checks the body)", async () => {
    const res = await call(clientsRoute, "POST", "clients", { token: owner, body: { name: "" } });
    expect(res.status).toBe(422);
    expect(requestLine(res.headers.get("x-request-id"))).toMatchObject({ status: 422, route: "/api/v1/clients" });
  });

  it("a 403 and a 404 carry their ids the same way", async () => {
    const forbidden = await call(clientsRoute, "POST", "clients", { token: viewer, body: { name: "Nope" } });
    expect(forbidden.status).toBe(403);
    expect(requestLine(forbidden.headers.get("x-request-id"))).toMatchObject({ status: 403, method: "POST" });
    const missing = await call(unknown, "GET", "no-such-thing/12", { token: owner });
    expect(missing.status).toBe(404);
    expect(requestLine(missing.headers.get("x-request-id"))).toMatchObject({
      status: 404,
      route: "/api/v1/no-such-thing/{id}",
    });
  });

  it("names the route by its template, never by the email or query the path was sent with", async () => {
    const byEmail = await import("@/app/api/v1/users/email/[email]/route");
    const res = await call(byEmail, "GET", "users/email/owner%40acme.test?search=Jane+Harper", {
      token: owner,
      params: { email: "owner@acme.test" },
    });
    expect(res.status).toBe(200);
    const line = requestLine(res.headers.get("x-request-id"));
    expect(line).toMatchObject({ status: 200, route: "/api/v1/users/email/{email}" });
    const raw = log.raw.find((text) => text.includes(res.headers.get("x-request-id")!));
    expect(raw).not.toMatch(/owner|acme\.test|Jane/);
    // A path no route names keeps no email either.
    const unnamed = await call(unknown, "GET", "users/email/someone%40example.com/extra", { token: owner });
    expect(requestLine(unnamed.headers.get("x-request-id"))).toMatchObject({
      status: 404,
      route: "/api/v1/users/email/{email}/extra",
    });
  });

  it("a 500: the cause in an error line with the same request id, the body says nothing of it", async () => {
    const res = await call(failing, "GET", "failing", { token: owner });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: "Server error" });
    const id = res.headers.get("x-request-id");
    expect(requestLine(id)).toMatchObject({ status: 500 });
    const errors = log.lines.filter((l) => l.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      request_id: id,
      kind: "error",
      message: "Unhandled error in API request",
      error: { message: "the forced failure's cause", stack: expect.stringContaining("Error") },
    });
  });

  it("a 401 without a token still has an id and a line, with no caller", async () => {
    const res = await call(me, "GET", "me");
    expect(res.status).toBe(401);
    expect(requestLine(res.headers.get("x-request-id"))).toMatchObject({
      status: 401,
      tenant_id: null,
      user_id: null,
      token_id: null,
    });
  });

  it("never logs a token, a body or a password", async () => {
    const { token } = await freshToken("owner@acme.test");
    const marker = `Body marker ${Math.random()}`;
    await call(clientsRoute, "POST", "clients", { token, body: { name: marker, password: "demo-password" } });
    await call(clientsRoute, "POST", "clients", { token, body: { name: "", notes: marker } });
    await call(me, "GET", "me", { headers: { Authorization: `Bearer ${token}x` } });
    const all = log.raw.join("\n");
    expect(log.lines.length).toBeGreaterThanOrEqual(3);
    expect(all).not.toContain(token);
    expect(all).not.toContain(token.slice(4));
    expect(all).not.toContain(marker);
    expect(all).not.toContain("demo-password");
  });

  it("ignores a client's X-Request-Id without a trusted proxy, and keeps a trusted proxy's", async () => {
    const sent = "proxy-chosen-id-1234";
    const ignored = await call(me, "GET", "me", { token: owner, headers: { "X-Request-Id": sent } });
    expect(ignored.headers.get("x-request-id")).toMatch(UUID);
    vi.stubEnv("TRUST_PROXY", "true");
    const kept = await call(me, "GET", "me", { token: owner, headers: { "X-Request-Id": sent } });
    expect(kept.headers.get("x-request-id")).toBe(sent);
    expect(requestLine(sent)).toMatchObject({ status: 200 });
    // Not even from a trusted proxy is an id taken that could break a header or a log line.
    const odd = await call(me, "GET", "me", { token: owner, headers: { "X-Request-Id": "a b<script>" } });
    expect(odd.headers.get("x-request-id")).toMatch(UUID);
  });

  it("takes Vercel's own id on Vercel, never the client's X-Request-Id, which Vercel passes on untouched", async () => {
    vi.stubEnv("VERCEL", "1");
    const vercelId = "fra1::iad1::8ztqq-1764403200000-0123456789ab";
    const sent = await call(me, "GET", "me", {
      token: owner,
      headers: { "X-Request-Id": "chosen-by-the-client", "x-vercel-id": vercelId },
    });
    expect(sent.headers.get("x-request-id")).toBe(vercelId);
    expect(requestLine(vercelId)).toMatchObject({ status: 200 });
    const without = await call(me, "GET", "me", { token: owner, headers: { "X-Request-Id": "chosen-by-the-client" } });
    expect(without.headers.get("x-request-id")).toMatch(UUID);
  });
});

describe("refusals and faults", () => {
  it("logs overload refusals as refusals and database faults as errors, each with its cause", () => {
    logThrottled("overloaded", "Answering 503: overloaded.");
    logThrottled("unreachable", "Answering 503: database fault (unreachable).", new Error("connect ECONNREFUSED"));
    expect(log.lines).toEqual([
      expect.objectContaining({ level: "warn", kind: "refusal", cause: "overloaded" }),
      expect.objectContaining({
        level: "error",
        kind: "error",
        cause: "unreachable",
        error: expect.objectContaining({ message: "connect ECONNREFUSED" }),
      }),
    ]);
  });

  it("logs a rate-limited request as a request, not as an error", async () => {
    vi.stubEnv("RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE", "1");
    vi.resetModules();
    const fresh = await import("@/app/api/v1/me/route");
    const first = await call(fresh, "GET", "me");
    const refused = await call(fresh, "GET", "me");
    expect([first.status, refused.status]).toEqual([401, 429]);
    expect(requestLine(refused.headers.get("x-request-id"))).toMatchObject({ level: "info", status: 429 });
    expect(log.lines.filter((l) => l.level === "error")).toEqual([]);
  });

  it("names the token, user and firm in the log line of a 429 over the token's limit", async () => {
    vi.stubEnv("RATE_LIMIT_PER_MINUTE", "1");
    vi.resetModules();
    const fresh = await import("@/app/api/v1/me/route");
    const { token, id, user } = await freshToken("owner@acme.test");
    const first = await call(fresh, "GET", "me", { token });
    const refused = await call(fresh, "GET", "me", { token });
    expect([first.status, refused.status]).toEqual([200, 429]);
    expect(requestLine(refused.headers.get("x-request-id"))).toMatchObject({
      status: 429,
      token_id: id,
      user_id: user.id,
      tenant_id: user.tenantId,
    });
  });
});

describe("IETF rate-limit headers", () => {
  it("name each limit that applied with its quota and window, and what is left of it", async () => {
    const res = await call(me, "GET", "me", { token: owner });
    const remaining = res.headers.get("x-ratelimit-remaining");
    expect(res.headers.get("ratelimit-policy")).toBe(`"token";q=${res.headers.get("x-ratelimit-limit")};w=60`);
    expect(res.headers.get("ratelimit")).toMatch(new RegExp(`^"token";r=${remaining};t=\\d+$`));
  });
});

describe("GET /token/requests", () => {
  it("lists the calling token's requests, newest first, with a 4xx's message and field errors", async () => {
    const { token } = await freshToken("owner@acme.test");
    const ok = await call(me, "GET", "me", { token });
    const invalid = await call(clientsRoute, "POST", "clients", { token, body: { name: "" } });
    const missing = await call(unknown, "GET", "nothing-here", { token });
    await flushTokenRequests();

    const res = await call(tokenRequests, "GET", "token/requests", { token });
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ total: 3 });
    expect(res.body.data.map((r: { request_id: string }) => r.request_id)).toEqual(
      [missing, invalid, ok].map((r) => r.headers.get("x-request-id")),
    );
    const [notFound, unprocessable, success] = res.body.data;
    expect(success).toMatchObject({ method: "GET", path: "/api/v1/me", status: 200, message: null, errors: null });
    expect(unprocessable).toMatchObject({
      method: "POST",
      path: "/api/v1/clients",
      status: 422,
      message: invalid.body.message,
      errors: invalid.body.errors,
    });
    expect(unprocessable.errors.name).toEqual(expect.any(Array));
    expect(notFound).toMatchObject({ status: 404, message: missing.body.message });
    expect(success.duration_ms).toEqual(expect.any(Number));
    expect(Date.parse(success.created_at)).toBeGreaterThan(Date.now() - 60_000);

    const failures = await call(tokenRequests, "GET", "token/requests?status_class=error", { token });
    expect(failures.body.data.map((r: { status: number }) => r.status)).toEqual([404, 422]);
    const successes = await call(tokenRequests, "GET", "token/requests?status_class=2xx", { token });
    expect(successes.body.data.map((r: { status: number }) => r.status)).toEqual([200]);
    const bad = await call(tokenRequests, "GET", "token/requests?status_class=nope", { token });
    expect(bad.status).toBe(422);
  });

  it("shows no other token's requests, of the same firm or another", async () => {
    const mine = await freshToken("owner@acme.test");
    const colleague = await freshToken("viewer@acme.test");
    const otherFirm = await freshToken("owner@birch.test");
    await call(me, "GET", "me", { token: colleague.token });
    await call(me, "GET", "me", { token: otherFirm.token });
    await flushTokenRequests();
    const res = await call(tokenRequests, "GET", "token/requests", { token: mine.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    const db = await prisma();
    expect(await db.tokenRequest.count({ where: { tokenId: colleague.id, tenantId: colleague.user.tenantId } })).toBe(
      1,
    );
    expect(await db.tokenRequest.count({ where: { tokenId: otherFirm.id, tenantId: otherFirm.user.tenantId } })).toBe(
      1,
    );
  });

  it("keeps each token's newest REQUEST_LOG_PER_TOKEN entries, whatever the rate limit allows; others' untouched", async () => {
    vi.stubEnv("REQUEST_LOG_PER_TOKEN", "5");
    const busy = await freshToken("owner@acme.test");
    const other = await freshToken("owner@acme.test");
    for (let i = 0; i < 3; i++) await call(me, "GET", "me", { token: other.token });
    await flushTokenRequests();
    for (let i = 0; i < 8; i++) await call(me, "GET", "me", { token: busy.token });
    await flushTokenRequests();
    const db = await prisma();
    const rows = (token: typeof busy) =>
      db.tokenRequest.findMany({
        where: { tenantId: token.user.tenantId, tokenId: token.id },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        select: { id: true },
      });
    const kept = await rows(busy);
    expect(kept).toHaveLength(5);
    // Two more in a later batch: still five, the newest.
    for (let i = 0; i < 2; i++) await call(me, "GET", "me", { token: busy.token });
    await flushTokenRequests();
    const later = await rows(busy);
    expect(later).toHaveLength(5);
    expect(later.slice(2)).toEqual(kept.slice(0, 3));
    expect(await rows(other)).toHaveLength(3);
  });

  it("is written once its batch is flushed, not while answering, and shows nothing older than 7 days", async () => {
    const { token, id, user } = await freshToken("owner@acme.test");
    for (let i = 0; i < 3; i++) await call(me, "GET", "me", { token });
    const db = await prisma();
    const where = { tenantId: user.tenantId, tokenId: id };
    // Answered, but not yet written: the requests did not wait for the log.
    expect(await db.tokenRequest.count({ where })).toBe(0);
    await flushTokenRequests();
    expect(await db.tokenRequest.count({ where })).toBe(3);
    await db.tokenRequest.updateMany({ where, data: { createdAt: new Date(Date.now() - 8 * 24 * 60 * 60_000) } });
    const res = await call(tokenRequests, "GET", "token/requests", { token });
    // The listing itself is a new entry once flushed; the old ones are not shown.
    expect(res.body.data).toEqual([]);
  });
});
