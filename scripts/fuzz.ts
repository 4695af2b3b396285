// `npm run fuzz`: generated requests against a running server (`next start`, on loopback), counting what decisions.md
// forbids under /api/v1: 5xx answers and answers that are not JSON; also answers the OpenAPI document does not allow
// (an unlisted status, a body that does not match). Every documented operation gets good requests and generated bad
// ones (the generators of the in-process sweep, tests/sweeps/generators.ts), malformed paths (%-escapes, //, \,
// trailing slashes, unknown segments), odd headers and methods, and bodies nested past the depth limit.
//
// The server: demo data (DEMO_SEED=on, or `npm run db:seed`), rate limits off, private webhook targets allowed (the
// fuzz's endpoint is 127.0.0.1:9, so nothing leaves the machine), e.g.
//   RATE_LIMIT_PER_MINUTE=0 RATE_LIMIT_SEARCH_PER_MINUTE=0 RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE=0 \
//   WEBHOOKS_ALLOW_PRIVATE=true DEMO_SEED=on PORT=3331 npm start
// Settings: FUZZ_URL (http://127.0.0.1:3000), FUZZ_REQUESTS (50000), FUZZ_CONCURRENCY (8), FUZZ_SEED, and
// FUZZ_TOKEN (a read & write token of an Owner; without it, one is made for owner@acme.test in DATABASE_URL's
// database, which must be the server's).
import "./env";
import http from "node:http";
import fc from "fast-check";
import { prisma } from "@/lib/db/client";
import { type Operation, operations } from "@/lib/openapi/operations";
import { createApiToken } from "@/lib/tokens";
import { assertMatchesContract } from "../tests/support/contract";
import { bodyFor, nasty, pathParam, queryFor, rawBody } from "../tests/sweeps/generators";
import { readCommandLine } from "./usage";

readCommandLine(
  `Usage: npm run fuzz

Sends generated requests to a running server on loopback and counts 5xx answers, answers that are not JSON and
answers the OpenAPI document does not allow. Settings: FUZZ_URL (http://127.0.0.1:3000), FUZZ_REQUESTS (50000),
FUZZ_CONCURRENCY (8), FUZZ_SEED, FUZZ_TOKEN. How to start the server for it: the comment at the top of scripts/fuzz.ts.`,
  {},
);

const base = new URL(process.env.FUZZ_URL ?? "http://127.0.0.1:3000");
if (!["127.0.0.1", "localhost", "[::1]"].includes(base.hostname)) throw new Error("FUZZ_URL must be on loopback.");
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 50_000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 8);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);

interface Probe {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** A request the document describes as it is sent (its answer is checked against the document). */
  documented?: boolean;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** Sends the path exactly as generated (fetch would normalize it first). */
function send({ method, path, headers = {}, body }: Probe) {
  return new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
    // Content-Length always: Node sends a GET's or DELETE's body unframed otherwise, which the server reads as the
    // next request.
    const framed = body === undefined ? headers : { ...headers, "Content-Length": String(Buffer.byteLength(body)) };
    const options = { host: base.hostname, port: base.port, method, path, headers: framed, agent };
    const request = http.request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers["content-type"] ?? ""),
          text: Buffer.concat(chunks).toString(),
        }),
      );
      res.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

async function api(token: string, method: string, path: string, body?: unknown) {
  const res = await send({
    method,
    path: `/api/v1${path}`,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
  return JSON.parse(res.text);
}

async function ownerToken() {
  if (process.env.FUZZ_TOKEN) return process.env.FUZZ_TOKEN;
  const client = await prisma();
  const user = await client.user.findFirstOrThrow({ where: { email: "owner@acme.test" } });
  return (await createApiToken(client, { tenantId: user.tenantId, userId: user.id }, "fuzz")).token;
}

/** Real path parameters for each kind of record, read through the API (a webhook endpoint is made when none is). */
async function recordParams(token: string) {
  const [clients, contacts, jobs, users] = await Promise.all(
    ["/clients?limit=3", "/contacts?limit=3", "/jobs?limit=3", "/users"].map((p) => api(token, "GET", p)),
  );
  let webhooks = (await api(token, "GET", "/webhooks")).data;
  if (!webhooks.length)
    webhooks = [await api(token, "POST", "/webhooks", { url: "http://127.0.0.1:9/fuzz", events: ["client.created"] })];
  return {
    clients: clients.data[0].uuid,
    contacts: contacts.data[0].uuid,
    jobs: jobs.data[0].uuid,
    users: String(users.data[0].id),
    email: users.data[0].email,
    webhooks: webhooks[0].uuid,
  } as Record<string, string>;
}

/** The operation's path with its parameters: the real record's, or `raw` (encoded as a client would) in their place. */
function pathOf(op: Operation, records: Record<string, string>, raw?: string) {
  return `/api/v1${op.path.replace(/\{(\w+)\}/g, (_, name: string, offset: number) => {
    if (raw !== undefined) return encodeURIComponent(raw.toWellFormed());
    const segment = op.path.slice(0, offset).split("/").filter(Boolean).pop() ?? "";
    return encodeURIComponent(records[name === "email" ? "email" : segment]);
  })}`;
}

const exampleOf = (op: Operation) => (op.body?.meta()?.examples as unknown[] | undefined)?.[0];

/** Generated requests for one operation; `token` and `records` fill in what a real caller would send. */
function probesFor(op: Operation, token: string, records: Record<string, string>): fc.Arbitrary<Probe> {
  const method = op.method.toUpperCase();
  const path = pathOf(op, records);
  const auth = { Authorization: `Bearer ${token}`, Accept: "application/json" };
  const json = { ...auth, "Content-Type": "application/json" };
  const good = fc.constant<Probe>({
    method,
    path,
    headers: op.body ? json : auth,
    body: op.body ? JSON.stringify(exampleOf(op) ?? {}) : undefined,
    documented: true,
  });
  const badQuery = queryFor(op).map(
    (q): Probe => ({
      method,
      path: `${path}?${q}`,
      headers: op.body ? json : auth,
      body: op.body ? "{}" : undefined,
      documented: true,
    }),
  );
  const badBody = () =>
    fc.oneof(
      bodyFor(op).map((b): Probe => ({ method, path, headers: json, body: JSON.stringify(b), documented: true })),
      rawBody.map((b): Probe => ({ method, path, headers: { ...auth, "Content-Type": b.type }, body: b.raw })),
      fc.integer({ min: 33, max: 5000 }).map(
        (depth): Probe => ({
          method,
          path,
          headers: { ...json, "Idempotency-Key": `deep-${depth}-${Math.random()}` },
          body: `{"name": ${"[".repeat(depth)}${"]".repeat(depth)}}`,
          documented: true,
        }),
      ),
    );
  const badParam = pathParam.map(
    (raw): Probe => ({
      method,
      path: pathOf(op, records, raw),
      headers: op.body ? json : auth,
      body: op.body ? "{}" : undefined,
      documented: true,
    }),
  );
  const escapes = fc.constantFrom("%", "%Z", "%ZZ", "%FF", "%ED%A0%80", "%C0%AF", "%00", "%2F", "%5C", "%25", "%u0041");
  const malformedPath = fc
    .tuple(
      fc.constantFrom("escape", "double-slash", "backslash", "trailing", "segment", "dots"),
      escapes,
      fc.string({ maxLength: 12 }),
    )
    .map(([kind, escape, junk]): Probe => {
      const parts = path.split("/");
      const at = 3 + Math.floor(Math.random() * Math.max(1, parts.length - 3));
      const variant = {
        escape: `${path}${escape}`,
        "double-slash": [...parts.slice(0, at), "", ...parts.slice(at)].join("/"),
        backslash: `${parts.slice(0, at).join("/")}\\${parts.slice(at).join("/")}`,
        trailing: `${path}/`,
        segment: `${path}/${encodeURIComponent(junk) || "x"}`,
        dots: path.replace("/api/v1/", `/api/v1/${escape === "%" ? "." : "x/.."}/`),
      }[kind];
      return { method, path: variant, headers: op.body ? json : auth, body: op.body ? "{}" : undefined };
    });
  const oddHeaders = fc
    .record({
      accept: fc.constantFrom("text/html", "application/xml", "*/*;q=0", "application/json;q=0", "", "image/*, */*"),
      authorization: fc.oneof(
        fc.constant(`Bearer ${token}`),
        fc.constantFrom("Bearer", "Bearer ", "Basic dXNlcjpwYXNz", `bearer ${token}`, `Bearer ${token}x`, "cjt_"),
        nasty.map((n) => `Bearer ${n}`),
      ),
      idempotency: fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
      forwarded: fc.constantFrom("", "1.2.3.4", "::1, 10.0.0.1", "garbage, , ,"),
    })
    .map(({ accept, authorization, idempotency, forwarded }): Probe => {
      const headers: Record<string, string> = { Accept: accept, "Content-Type": "application/json" };
      // Header values must be latin-1 without control characters: what a client cannot send is left out.
      const ok = (v: string) => /^[\x20-\x7e]*$/.test(v);
      if (ok(authorization)) headers.Authorization = authorization;
      if (idempotency !== undefined && ok(idempotency)) headers["Idempotency-Key"] = idempotency;
      if (forwarded) headers["X-Forwarded-For"] = forwarded;
      return { method, path, headers, body: op.body ? JSON.stringify(exampleOf(op) ?? {}) : undefined };
    });
  const otherMethod = fc
    .constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
    .filter((m) => m !== method)
    .map((m): Probe => ({ method: m, path, headers: json, body: m === "GET" || m === "OPTIONS" ? undefined : "{}" }));
  return fc.oneof(
    { arbitrary: good, weight: 2 },
    { arbitrary: badQuery, weight: 3 },
    { arbitrary: op.body ? badBody() : badQuery, weight: 3 },
    { arbitrary: op.params ? badParam : malformedPath, weight: 2 },
    { arbitrary: malformedPath, weight: 2 },
    { arbitrary: oddHeaders, weight: 2 },
    { arbitrary: otherMethod, weight: 1 },
  );
}

async function main() {
  const token = await ownerToken();
  const records = await recordParams(token);
  const all = fc.oneof(...operations.map((op) => probesFor(op, token, records)));
  const probes = fc.sample(all, { numRuns: TOTAL, seed: SEED });
  const counts = { sent: 0, unsent: 0, serverErrors: 0, notJson: 0, undocumented: 0 };
  const statuses = new Map<number, number>();
  const samples: string[] = [];
  const note = (kind: string, probe: Probe, detail: string) => {
    if (samples.length < 30)
      samples.push(`${kind}: ${probe.method} ${probe.path.slice(0, 150)} → ${detail.slice(0, 300)}`);
  };
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < probes.length) {
        const probe = probes[next++];
        let res: Awaited<ReturnType<typeof send>>;
        try {
          res = await send(probe);
        } catch {
          counts.unsent++; // a path or header Node refuses to send: no client can send it either
          continue;
        }
        counts.sent++;
        if ((counts.sent + counts.unsent) % 5000 === 0) console.log(`… ${counts.sent + counts.unsent} requests`);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) {
          counts.serverErrors++;
          note("5xx", probe, `${res.status} ${res.text}`);
        }
        if (res.status === 204 && !res.text) continue;
        let body: unknown;
        try {
          if (!/^application\/json/.test(res.type)) throw new Error(res.type);
          body = JSON.parse(res.text);
        } catch {
          counts.notJson++;
          note("not JSON", probe, `${res.status} ${res.type} ${res.text}`);
          continue;
        }
        if (!probe.documented) continue;
        try {
          assertMatchesContract(probe.method, new URL(probe.path, base).pathname, res.status, body);
        } catch (error) {
          counts.undocumented++;
          note("undocumented", probe, (error as Error).message);
        }
      }
    }),
  );
  agent.destroy();
  const seconds = (Date.now() - started) / 1000;
  console.log(samples.join("\n"));
  console.log(
    `Seed ${SEED}: ${counts.sent} requests answered in ${seconds.toFixed(0)} s (${counts.unsent} not sendable), ` +
      `${counts.serverErrors} 5xx, ${counts.notJson} not JSON, ${counts.undocumented} not as the document says.`,
  );
  console.log(
    `Statuses: ${[...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(" ")}`,
  );
  if (!process.env.FUZZ_TOKEN) await (await prisma()).$disconnect();
  process.exitCode = counts.serverErrors || counts.notJson || counts.undocumented ? 1 : 0;
}

await main();
