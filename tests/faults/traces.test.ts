// Traces of the built server (`npm run build` first), received by an OTLP receiver this test starts: Next's request
// span, the route's span with the request id, tenant, token and route as attributes, and on PostgreSQL a span per SQL
// statement with its db attributes, the rate limit's Redis calls (fetches to Upstash's REST endpoint), all in one trace, linked parent to child. The same request id is in the answer's
// header and in the server's log line on stdout. The embedded PGlite has no driver instrumentation: on the PGlite run
// the statement spans are not expected.
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "@/lib/db/client";
import { createApiToken, generateTokenValue } from "@/lib/tokens";
import { startUpstashEmulator, type UpstashEmulator } from "@/scripts/upstash-emulator";
import { userByEmail } from "../support/api";
import { BuiltServerDatabase, built, client, freePort, kill } from "../support/built-server";

const PORT = await freePort();
const onPostgres = !!process.env.DATABASE_URL;

interface Attribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean };
}
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Attribute[];
}

const spans: Span[] = [];
let receiver: http.Server;
let receiverUrl: string;
let server: ChildProcess;
let output = "";
let database: BuiltServerDatabase | undefined;
let token: string;
/** The rate limits' Redis, spoken to over HTTP (the Upstash REST protocol) as in production. */
let upstash: UpstashEmulator;

const attribute = (span: Span, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? value?.boolValue : Number(value.intValue));
};

beforeAll(async () => {
  if (!built) return;
  receiver = http.createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces") {
        for (const resource of JSON.parse(text).resourceSpans ?? [])
          for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
      }
      response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  upstash = await startUpstashEmulator();
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.DEMO_SEED;
  if (onPostgres) {
    // The server works on this test file's own PostgreSQL database.
    const owner = await userByEmail("owner@acme.test");
    token = generateTokenValue();
    await createApiToken(await prisma(), { tenantId: owner.tenantId, userId: owner.id }, "traces", { value: token });
  } else {
    delete env.DATABASE_URL;
    database = await BuiltServerDatabase.create();
    token = database.token;
    env.PGLITE_DATA_DIR = database.dataDir;
  }
  server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(PORT)], {
    env: {
      ...env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      NEXTAUTH_SECRET: "traces-test-session-secret",
      LOG_FORMAT: "json",
      LOG_LEVEL: "info",
      UPSTASH_REDIS_REST_URL: upstash.url,
      UPSTASH_REDIS_REST_TOKEN: upstash.token,
      RATE_LIMIT_KEY_PREFIX: `traces-${process.pid}-${Date.now()}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (chunk) => (output += chunk));
  server.stderr?.on("data", (chunk) => (output += chunk));
  for (let i = 0; ; i++) {
    const res = await fetch(`http://127.0.0.1:${PORT}/api/health`).catch(() => undefined);
    if (res?.status === 200) break;
    if (i > 160 || server.exitCode !== null) throw new Error(`The server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 60_000);

afterAll(async () => {
  if (server?.exitCode === null) {
    const exited = new Promise((resolve) => server.on("exit", resolve));
    kill(server, "SIGTERM");
    await exited;
  }
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  await database?.remove();
  await upstash?.close();
});

async function spansOf(traceId: string, until: (trace: Span[]) => boolean): Promise<Span[]> {
  for (let i = 0; i < 60; i++) {
    const trace = spans.filter((s) => s.traceId === traceId);
    if (until(trace)) return trace;
    await new Promise((r) => setTimeout(r, 250));
  }
  return spans.filter((s) => s.traceId === traceId);
}

describe.skipIf(!built)("traces of the built server", () => {
  it("links Next's spans, the route's attributes and the SQL statements in one trace with the request's id", async () => {
    const send = client(PORT, { token } as BuiltServerDatabase);
    const res = await send("GET", "/api/v1/clients?limit=1");
    expect(res.status).toBe(200);
    const requestId = res.headers["x-request-id"] as string;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

    // The span the route tagged: the request id, tenant, token and route template.
    let tagged: Span | undefined;
    for (let i = 0; i < 80 && !tagged; i++) {
      tagged = spans.find((s) => attribute(s, "http.request.id") === requestId);
      if (!tagged) await new Promise((r) => setTimeout(r, 250));
    }
    expect(tagged, `no span with the request id; received ${spans.length} spans`).toBeDefined();
    const owner = await userByEmail("owner@acme.test");
    expect(attribute(tagged!, "cjt.tenant.id")).toBe(owner.tenantId);
    expect(attribute(tagged!, "cjt.token.id")).toEqual(expect.any(Number));
    expect(attribute(tagged!, "http.route")).toBe("/api/v1/clients");

    const trace = await spansOf(tagged!.traceId, (t) =>
      onPostgres ? t.some((s) => attribute(s, "db.system.name") === "postgresql") : t.length > 1,
    );
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    // Every span but the root has its parent in the same trace; the root is Next's span of the request.
    const roots = trace.filter((s) => !s.parentSpanId || !byId.has(s.parentSpanId));
    expect(roots).toHaveLength(1);
    expect(roots[0].name).toMatch(/GET/);
    const ancestors = (span: Span): Span[] => {
      const parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
      return parent ? [parent, ...ancestors(parent)] : [];
    };
    expect(ancestors(tagged!).at(-1)).toBe(roots[0]);

    // The rate limit's Redis calls: fetches to the Upstash REST endpoint, spans of the same request.
    const redisCalls = trace.filter((s) =>
      s.attributes.some((a) => typeof a.value.stringValue === "string" && a.value.stringValue.startsWith(upstash.url)),
    );
    expect(redisCalls.length, JSON.stringify(trace.map((s) => s.name))).toBeGreaterThan(0);
    expect(ancestors(redisCalls[0]).at(-1)).toBe(roots[0]);

    if (onPostgres) {
      // OpenTelemetry's database conventions: the system, the database, the statement's text.
      const statements = trace.filter((s) => attribute(s, "db.query.text") !== undefined);
      const statement = statements.find((s) => /from\s+"?clients"?/i.test(String(attribute(s, "db.query.text"))));
      expect(statement, JSON.stringify(statements.map((s) => s.attributes))).toBeDefined();
      expect(attribute(statement!, "db.system.name")).toBe("postgresql");
      expect(attribute(statement!, "db.namespace")).toEqual(expect.any(String));
      // A statement's span lies under the request's.
      expect(ancestors(statement!).at(-1)).toBe(roots[0]);
    }

    // The same id in the server's log line for the request.
    const line = output
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l))
      .find((l) => l.kind === "request" && l.request_id === requestId);
    expect(line).toMatchObject({ status: 200, route: "/api/v1/clients", tenant_id: owner.tenantId });
    expect(line.db_ms).toBeGreaterThan(0);
  }, 60_000);

  it("keeps no email of the path and no query string in any span or in the log line", async () => {
    const res = await fetch(`http://127.0.0.1:${PORT}/api/v1/users/email/owner%40acme.test?search=Jane+Harper&q=x`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get("x-request-id");
    let tagged: Span | undefined;
    for (let i = 0; i < 80 && !tagged; i++) {
      tagged = spans.find((s) => attribute(s, "http.request.id") === requestId);
      if (!tagged) await new Promise((r) => setTimeout(r, 250));
    }
    expect(attribute(tagged!, "http.route")).toBe("/api/v1/users/email/{email}");
    const trace = await spansOf(tagged!.traceId, (t) => t.some((s) => attribute(s, "http.target") !== undefined));
    const target = trace.map((s) => attribute(s, "http.target")).find((value) => value !== undefined);
    expect(target).toBe("/api/v1/users/email/{email}");
    const texts = trace.flatMap((s) => [s.name, ...s.attributes.map((a) => String(a.value.stringValue ?? ""))]);
    expect(texts.filter((text) => /search=|Jane|[?&]q=|owner%40|owner@acme/.test(text))).toEqual([]);
    const line = output
      .split("\n")
      .find((l) => l.startsWith("{") && l.includes(String(requestId)) && l.includes('"kind":"request"'));
    expect(JSON.parse(line!)).toMatchObject({ route: "/api/v1/users/email/{email}" });
    expect(line).not.toMatch(/owner%40|owner@acme|Jane/);
  });

  it("logs each answer once it is sent, with its body's bytes as the caller received them", async () => {
    const lineOf = (requestId: string | null) =>
      output
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l))
        .find((l) => l.kind === "request" && l.request_id === requestId);
    for (const [path, status] of [
      ["/api/v1/me", 200],
      ["/api/v1/clients?cursor=&limit=1000&include_archived=true", 200],
      ["/api/v1/clients?limit=abc", 422],
    ] as const) {
      const res = await fetch(`http://127.0.0.1:${PORT}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      const body = Buffer.from(await res.arrayBuffer());
      expect(res.status).toBe(status);
      const requestId = res.headers.get("x-request-id");
      await vi.waitFor(() => expect(lineOf(requestId)).toBeDefined());
      expect(lineOf(requestId)).toMatchObject({ status, bytes_out: body.length, route: path.split("?")[0] });
    }
  });

  it("answers a request refused at the front door with a request id, in the header and the body", async () => {
    const res = await client(PORT, { token } as BuiltServerDatabase)("GET", "/api/v1//me");
    expect(res.status).toBe(404);
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.request_id).toBe(res.headers["x-request-id"]);
  });

  it("gives /api/health a request id too, and never the token in the log", async () => {
    const res = await fetch(`http://127.0.0.1:${PORT}/api/health`);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(output).not.toContain(token);
  });
});
