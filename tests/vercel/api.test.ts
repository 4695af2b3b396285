// The API on `vercel build`'s output, served as Vercel runs it (./runtime.ts): each function in its own process with
// only its traced files, frozen between invocations, waitUntil honoured; PostgreSQL through PgBouncer in transaction
// mode and Upstash's REST API behind it (.ci/vercel). The token is minted as `npm run token:create` does; the browser
// test makes one on the page.
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Receiver, startReceiver } from "../support/webhook-receiver";
import { deploymentEnv, firstOwner, mintToken, project, send, serveDeployment } from "./deployment";
import { BODY_LIMIT, type LocalVercel } from "./runtime";
import { describeMissing, unloadablePackages } from "./traced-packages";

let runtime: LocalVercel;
let token: string;
const owner = firstOwner();
const env = deploymentEnv();
const API = "/api/v1/clients";

beforeAll(async () => {
  runtime = await serveDeployment();
  token = await mintToken(owner.email, "Vercel lane API");
});
afterAll(async () => {
  await runtime?.close();
});

/** Polls until `check` holds, every `everyMs`, for what happens after an answer. */
async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, everyMs = 50) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return true;
}

// A cold instance's first call to Upstash can outlast the limiter's 1 s deadline on a busy CI machine (the emulator
// shares its CPUs); the limiter then fails open and leaves Upstash alone for 30 s. What is checked below is the
// deployment once warm: these wait out such a start, up to 40 s.
const WARM_MS = 40_000;

describe("the deployment", () => {
  it("passes the health check of docs/deploy.md's step 8: PostgreSQL migrated, Upstash reachable", async () => {
    let health = await send(runtime, "GET", "/api/health");
    await eventually(
      async () => (health = await send(runtime, "GET", "/api/health")).body?.rate_limit?.reachable === true,
      WARM_MS,
      1_000,
    );
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: "ok",
      database: { kind: "postgres", reachable: true, migrations: { up_to_date: true, pending: [] } },
      rate_limit: { store: "upstash", reachable: true },
    });
  });

  it("lists, writes and refuses bad input through the pooler, counting the rate limit in Upstash", async () => {
    const name = `Vercel lane ${Date.now()}`;
    const created = await send(runtime, "POST", API, { token, body: { name } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name, client_status: "active" });

    const listed = await send(runtime, "GET", `${API}?search=${encodeURIComponent(name)}&limit=10`, { token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((client: { uuid: string }) => client.uuid)).toEqual([created.body.uuid]);
    const read = await send(runtime, "GET", `${API}/${created.body.uuid}`, { token });
    expect([read.status, read.body.name]).toEqual([200, name]);

    const refused = await send(runtime, "POST", API, { token, body: { name: "" } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toHaveProperty("name");
    const unchanged = await send(runtime, "GET", `${API}?limit=100`, { token });
    expect(unchanged.body.data.filter((client: { name: string }) => client.name === "")).toEqual([]);

    // One limit for the deployment: an instance started now counts on from what the first one left in Upstash.
    const limited = await mintToken(owner.email, "Vercel lane rate limit");
    const remaining = async (instance: string) => {
      const answer = await send(runtime, "GET", `${API}?limit=1`, { token: limited, instance });
      expect(answer.status).toBe(200);
      return Number(/;r=(\d+)/.exec(answer.headers.get("ratelimit") ?? "")?.[1]);
    };
    const [first, second] = [runtime.instances(API)[0].id, await runtime.startInstance(API)];
    const counts: number[] = [];
    const shared = await eventually(
      async () => {
        counts.push(await remaining(first), await remaining(second), await remaining(first));
        const [a, b, c] = counts.slice(-3);
        return b === a - 1 && c === b - 1;
      },
      WARM_MS,
      1_000,
    );
    expect(shared, `remaining on the first, second, first instance: ${counts.join(", ")}`).toBe(true);
  });

  it("gives every answer Vercel's request id (x-vercel-id), never the client's X-Request-Id", async () => {
    const answer = await send(runtime, "GET", `${API}?limit=0`, {
      token,
      headers: { "X-Request-Id": "chosen-by-the-client" },
    });
    expect(answer.status).toBe(422);
    const vercelId = answer.headers.get("x-vercel-id");
    expect(vercelId).toMatch(/^iad1::[a-z0-9]{5}-\d{13}-[0-9a-f]{12}$/);
    expect(answer.headers.get("x-request-id")).toBe(vercelId);
    expect(answer.body.request_id).toBe(vercelId);
  });

  it("answers a body over 4.5 MB with Vercel's own text 413, before any function runs", async () => {
    const invocations = () => runtime.instances().reduce((sum, instance) => sum + instance.invocations, 0);
    const before = invocations();
    const answer = await send(runtime, "POST", API, { token, body: { name: "x".repeat(BODY_LIMIT) } });
    expect(answer.status).toBe(413);
    expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(answer.text).toMatch(/^Request Entity Too Large\n\nFUNCTION_PAYLOAD_TOO_LARGE\n\n/);
    expect(invocations()).toBe(before);
  });

  it("runs the cron route Vercel Cron calls, with CRON_SECRET only", async () => {
    const { readFile } = await import("node:fs/promises");
    const config = JSON.parse(await readFile(`${project()}/.vercel/output/config.json`, "utf8"));
    expect(config.crons).toContainEqual({ path: "/api/cron/webhooks", schedule: expect.any(String) });

    const without = await send(runtime, "GET", "/api/cron/webhooks");
    expect(without.status).toBe(401);
    expect(without.body.message).toMatch(/CRON_SECRET/);
    const wrong = await send(runtime, "GET", "/api/cron/webhooks", { headers: { Authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    const ran = await send(runtime, "GET", "/api/cron/webhooks", {
      headers: { Authorization: `Bearer ${env.CRON_SECRET}` },
    });
    expect(ran.status).toBe(200);
    expect(ran.body).toMatchObject({ claimed: expect.any(Number), succeeded: expect.any(Number) });
  });
});

describe("the MCP endpoint", () => {
  it("runs a tool call as its REST endpoint, statelessly, on a function's instance", async () => {
    const answer = await send(runtime, "POST", "/api/mcp", {
      token,
      headers: { Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_clients", arguments: { limit: 2 } } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.result.isError).toBeFalsy();
    const rest = await send(runtime, "GET", `${API}?limit=2`, { token });
    expect(answer.body.result.structuredContent.data.map((c: { uuid: string }) => c.uuid)).toEqual(
      rest.body.data.map((c: { uuid: string }) => c.uuid),
    );
  });
});

describe("what docs/deploy.md says holds on Vercel, with no front door before Next", () => {
  it("answers a method the path lacks with the JSON 405 and Allow", async () => {
    const answer = await send(runtime, "DELETE", API, { token });
    expect(answer.status).toBe(405);
    expect(answer.body.message).toMatch(/Method not allowed/);
    expect(answer.headers.get("allow")).toMatch(/GET.*POST|POST.*GET/);
  });

  it("answers `//` and a trailing slash in an API path with a JSON 404, never a redirect to another route", async () => {
    for (const [method, path] of [
      ["GET", "/api/v1//me"],
      ["GET", `${API}/`],
      ["POST", "/api/v1/webhooks//test"],
    ]) {
      const answer = await send(runtime, method, path, { token, body: method === "POST" ? {} : undefined });
      expect([answer.status, answer.headers.get("content-type")], `${method} ${path}`).toEqual([
        404,
        expect.stringContaining("application/json"),
      ]);
    }
  });

  it("serves 40 requests at once on one instance without a 503 (Vercel sends an instance what it can run)", async () => {
    const id = await runtime.startInstance(API);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => send(runtime, "GET", `${API}?limit=5`, { token, instance: id })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200));
  });
});

describe("work after the answer, on an instance frozen once it is done", () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it("delivers a webhook's first attempt, signed, though the instance is frozen after it", async () => {
    const hook = await send(runtime, "POST", "/api/v1/webhooks", {
      token,
      body: { url: receiver.url, events: ["client.created"] },
    });
    expect(hook.status).toBe(201);
    const created = await send(runtime, "POST", API, { token, body: { name: `Hooked ${Date.now()}` } });
    expect(created.status).toBe(201);
    expect(await eventually(() => receiver.received.length > 0)).toBe(true);
    const { body, headers } = receiver.received[0];
    const verified = new Webhook(hook.body.secret).verify(body, headers as Record<string, string>);
    expect(verified).toMatchObject({ type: "client.created", data: { uuid: created.body.uuid } });
    await runtime.frozen(API);
  });

  it("keeps a token's recent requests though its instance froze and was then recycled", async () => {
    const logged = await mintToken(owner.email, "Vercel lane request log");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await send(runtime, "GET", `${API}?limit=1&page=${i + 1}`, { token: logged });
      expect(answer.status).toBe(200);
      ids.push(answer.headers.get("x-request-id") ?? "");
    }
    await runtime.frozen(API);
    // Longer than the log's flush interval: a frozen instance runs nothing, a timer included.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await runtime.recycle({ pathname: API });

    const recent = await send(runtime, "GET", "/api/v1/token/requests?limit=100", { token: logged });
    expect(recent.status).toBe(200);
    const kept = recent.body.data.map((entry: { request_id: string }) => entry.request_id);
    expect(
      ids.filter((id) => !kept.includes(id)),
      "requests missing from the log",
    ).toEqual([]);
  });
});

describe("revocation", () => {
  it("refuses a token at once on an instance that had it cached, when the database revoked it elsewhere", async () => {
    const revoked = await mintToken(owner.email, "Vercel lane revoked");
    const [instance] = runtime.instances(API);
    const cached = await send(runtime, "GET", "/api/v1/me", { token: revoked, instance: instance.id });
    expect(cached.status).toBe(200);
    await runtime.frozen(API);

    // As the settings page does on another function's instance: the token's row deleted, through the pooler.
    const db = new pg.Client({ connectionString: env.DATABASE_URL.replace("?pgbouncer=true", "") });
    await db.connect();
    try {
      const deleted = await db.query("DELETE FROM api_tokens WHERE name = $1", ["Vercel lane revoked"]);
      expect(deleted.rowCount).toBe(1);
    } finally {
      await db.end();
    }
    const refused = await send(runtime, "GET", "/api/v1/me", { token: revoked, instance: instance.id });
    expect(refused.status).toBe(401);
  });
});

describe("the functions' files", () => {
  it("held every package the instances loaded", async () => {
    expect(describeMissing(await unloadablePackages(project(), runtime.loadLog))).toBe("");
  });
});
