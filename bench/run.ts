// `npm run bench`: measures the built app (`npm start`, port 3400) on DATABASE_URL (filled by `npm run bench:seed`;
// pending migrations are applied first) against the targets of bench/RESULTS.md, with the reference points beside
// them in the same run:
//   - each scenario's latency at one connection (p50, p99) and its throughput at 32 connections, with wrk;
//   - the framework's floor: a trivial route handler of this app (/api/live), measured like the scenarios;
//   - the database's floor: the best SQL for the scenario (bench/floor/*.sql) run by pgbench at the same concurrency;
//   - sync: every time log and every client walked by cursor pages, the cost of every page kept;
//   - overload: 4× the connections, with the in-flight limit (load shedding) and without;
//   - memory: the app's peak resident memory on PostgreSQL, and on the embedded database under the same load.
// Rate limits are lifted through their settings, not in code. Needs wrk and pgbench (Debian: wrk, postgresql-client).
// Settings: BENCH_DURATION (seconds of load per throughput measurement, default 10), BENCH_LATENCY_DURATION
// (seconds at one connection, default 5), BENCH_WARMUP (default 2), BENCH_CONNECTIONS (default 32), BENCH_ONLY
// (only the scenarios whose name contains this text), BENCH_PARTS (comma-separated subset of
// scenarios,sync,overload,embedded; default all), BENCH_IN_FLIGHT_LIMITS (the overload's API_MAX_IN_FLIGHT values,
// default 64,0).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { migrate } from "@/scripts/migrate";
import { BENCH_OUT, type BenchTokens, TOKENS_FILE } from "./config";

const APP_PORT = 3400;
const EMBEDDED_PORT = 3402;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const LATENCY_DURATION = Number(process.env.BENCH_LATENCY_DURATION ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PARTS = new Set((process.env.BENCH_PARTS ?? "scenarios,sync,overload,embedded").split(","));
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("Set DATABASE_URL to the database that `npm run bench:seed` filled.");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

async function withSession<T>(work: (session: pg.Client) => Promise<T>): Promise<T> {
  const session = new pg.Client({ connectionString: databaseUrl });
  await session.connect();
  try {
    return await work(session);
  } finally {
    await session.end();
  }
}

/** Values the scenarios and the SQL floors need from the seeded data. */
const loadFixtures = () =>
  withSession(async (session) => {
    const column = async (sql: string) => (await session.query(sql)).rows.map((r) => Object.values(r)[0] as string);
    const [tenant] = await column(`SELECT id FROM tenants WHERE name = 'Bench Large Firm'`);
    const [owner] = await column(`SELECT id FROM users WHERE tenant_id = ${tenant} AND is_owner`);
    return {
      tenant,
      owner,
      clientUuids: await column(`SELECT uuid FROM clients WHERE tenant_id = ${tenant} ORDER BY id % 997, id LIMIT 500`),
      contactEmails: await column(
        `SELECT email FROM contacts WHERE tenant_id = ${tenant} ORDER BY id % 997, id LIMIT 500`,
      ),
      postgres: (await column("SHOW server_version"))[0],
    };
  });
type Fixtures = Awaited<ReturnType<typeof loadFixtures>>;

/** A target: a p50 at one connection, and/or a throughput at 32 connections (absolute, or a share of another row). */
interface Target {
  p50Ms?: number;
  requestsPerSecond?: number;
  shareOf?: { scenario: string; share: number };
}

interface Scenario {
  name: string;
  token: keyof BenchTokens | null;
  /** Paths sent in turn; "POST <path>" creates a client (bench/wrk.lua). */
  requests: string[];
  target?: Target;
  /** bench/floor/<file>.sql: the best SQL for the same answer, for pgbench. */
  floor?: string;
}

function scenarios(fixtures: Fixtures): Scenario[] {
  const api = "/api/v1";
  const firstPage = { p50Ms: 4, requestsPerSecond: 400 };
  const search = { p50Ms: 15, requestsPerSecond: 100 };
  const all: Scenario[] = [
    { name: "trivial route (framework floor)", token: null, requests: ["/api/live"] },
    { name: "401 without a token", token: null, requests: [`${api}/me`] },
    {
      name: "GET /me",
      token: "owner",
      requests: [`${api}/me`],
      target: { p50Ms: 1.5, shareOf: { scenario: "trivial route (framework floor)", share: 0.8 } },
      floor: "me",
    },
    {
      name: "clients, first 50",
      token: "owner",
      requests: [`${api}/clients?limit=50`],
      target: firstPage,
      floor: "clients",
    },
    {
      name: "contacts, first 50",
      token: "owner",
      requests: [`${api}/contacts?limit=50`],
      target: { requestsPerSecond: 400 },
      floor: "contacts",
    },
    {
      name: "jobs, first 50",
      token: "owner",
      requests: [`${api}/jobs?limit=50`],
      target: { requestsPerSecond: 400 },
      floor: "jobs",
    },
    {
      name: "time logs, first 100",
      token: "owner",
      requests: [`${api}/time-logs?per_page=100`],
      target: firstPage,
      floor: "time-logs",
    },
    {
      name: "time logs this_year, first 100",
      token: "owner",
      requests: [`${api}/time-logs?range=this_year&per_page=100`],
      floor: "time-logs-this-year",
    },
    {
      name: "clients, page 1000 of 50",
      token: "owner",
      requests: [`${api}/clients?limit=50&page=1000`],
      target: { p50Ms: 20 },
      floor: "clients-deep",
    },
    {
      name: "time logs, page 1000 of 1000",
      token: "owner",
      requests: [`${api}/time-logs?per_page=1000&page=1000`],
      target: { p50Ms: 20 },
      floor: "time-logs-deep",
    },
    // Two specific terms (a reference, an email fragment: a few hundred matches at most) and two broad ones
    // (a word in 5,555 client names, a city of 9,333 clients).
    {
      name: "clients?search=",
      token: "owner",
      requests: ["bl-04213", "uma.walsh", "kestrel", "glasgow"].map((t) => `${api}/clients?search=${t}&limit=50`),
      target: search,
    },
    // A last name (13,632 contacts, together in the list's order) and a first name (spread over it).
    {
      name: "contacts?search=",
      token: "owner",
      requests: ["walsh", "priya"].map((t) => `${api}/contacts?search=${t}&limit=50`),
      target: search,
    },
    {
      name: "clients/search?q=",
      token: "owner",
      requests: ["har", "kest", "oak", "ember f"].map((q) => `${api}/clients/search?q=${encodeURIComponent(q)}`),
      target: search,
    },
    { name: "clients/{uuid}", token: "owner", requests: fixtures.clientUuids.map((uuid) => `${api}/clients/${uuid}`) },
    {
      name: "contacts?email=",
      token: "owner",
      requests: fixtures.contactEmails.map((email) => `${api}/contacts?email=${encodeURIComponent(email)}`),
    },
    {
      name: "jobs, status + due range",
      token: "owner",
      requests: [`${api}/jobs?statuses[]=in-progress&due_date_range=this_month`],
    },
    { name: "jobs, assigned_clients user", token: "assigned", requests: [`${api}/jobs?due_date_range=this_month`] },
    { name: "clients, assigned_clients user", token: "assigned", requests: [`${api}/clients?limit=50`] },
    { name: "POST /clients", token: "owner", requests: [`POST ${api}/clients`] },
  ];
  return all.filter((s) => !process.env.BENCH_ONLY || s.name.includes(process.env.BENCH_ONLY));
}

/** A server process and the peak resident memory of its process tree, sampled every 200 ms. */
class Server {
  peakRssBytes = 0;
  private readonly sampler: NodeJS.Timeout;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly child: ChildProcess,
  ) {
    for (const stream of [child.stdout, child.stderr])
      stream?.on("data", (chunk) => process.stderr.write(`[${name}] ${chunk}`));
    child.on("exit", (code, signal) => process.stderr.write(`[${name}] exited (${signal ?? code})\n`));
    this.sampler = setInterval(() => void this.sample(), 200);
  }

  /** Starts the app as `npm start` runs it (its heap limit included), without npm's own process in the tree. */
  static async startApp(name: string, port: number, env: Record<string, string>) {
    const { scripts } = JSON.parse(await readFile("package.json", "utf8"));
    const child = spawn("/bin/sh", ["-c", `${scripts.start} -p ${port}`], {
      env: {
        ...process.env,
        ...APP_ENV,
        ...env,
        PORT: String(port),
        PATH: `${path.resolve("node_modules", ".bin")}:${process.env.PATH}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const server = new Server(name, port, child);
    await server.ready();
    return server;
  }

  private async ready() {
    for (let attempt = 0; attempt < 240; attempt++) {
      if (this.child.exitCode !== null) throw new Error(`${this.name} exited with code ${this.child.exitCode}`);
      const answered = await fetch(`http://127.0.0.1:${this.port}/api/live`).then(
        (response) => response.ok,
        () => false,
      );
      if (answered) return;
      await sleep(500);
    }
    throw new Error(`${this.name} did not answer on port ${this.port}`);
  }

  /** The process and its descendants (`next start` may hand the work to a child process). */
  private async tree(): Promise<number[]> {
    const parents = new Map<number, number[]>();
    for (const entry of await readdir("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    }
    const pids = [this.child.pid!];
    for (let i = 0; i < pids.length; i++) pids.push(...(parents.get(pids[i]) ?? []));
    return pids;
  }

  private async sample() {
    let rss = 0;
    for (const pid of await this.tree()) {
      const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
      rss += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    }
    this.peakRssBytes = Math.max(this.peakRssBytes, rss);
  }

  /** Stops the whole tree by pid (stopping `next start` alone can leave its server running), and waits for it. */
  async stop() {
    clearInterval(this.sampler);
    const pids = await this.tree();
    for (const pid of pids.reverse()) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    for (let i = 0; i < 100 && pids.some((pid) => isAlive(pid)); i++) await sleep(100);
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until the server has worked off what the load left queued (requests in flight when the load stops are
 * still answered, and PostgreSQL runs their statements to the end): settled means PostgreSQL has run no statement
 * but ours for half a second.
 */
const settle = () =>
  withSession(async (session) => {
    const deadline = Date.now() + 60_000;
    for (let quiet = 0; quiet < 5 && Date.now() < deadline; ) {
      const { rows } = await session.query(
        "SELECT count(*)::int AS busy FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()",
      );
      quiet = rows[0].busy === 0 ? quiet + 1 : 0;
      await sleep(100);
    }
  });

interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/** Runs a command to its end, its standard output returned (its errors shown). */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => process.stderr.write(chunk));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited with ${code}: ${out}`)),
    );
  });
}

const scratch = await mkdtemp(path.join(os.tmpdir(), "cjt-bench-"));
const runId = randomBytes(4).toString("hex");

/** wrk at `connections` for `seconds`, the requests sent in turn. */
async function wrk(
  port: number,
  token: string | null,
  requests: string[],
  connections: number,
  seconds: number,
): Promise<Measurement> {
  const file = path.join(scratch, "requests.txt");
  await writeFile(file, `${requests.join("\n")}\n`);
  const out = await run(
    "wrk",
    [
      "-t1",
      `-c${connections}`,
      `-d${seconds}s`,
      "--timeout",
      "10s",
      "-s",
      path.join("bench", "wrk.lua"),
      `http://127.0.0.1:${port}`,
    ],
    { BENCH_REQUESTS: file, BENCH_TOKEN: token ?? "", BENCH_RUN_ID: `${runId}-${Date.now()}` },
  );
  const line = out.split("\n").find((l) => l.startsWith("BENCH_RESULT "));
  if (!line) throw new Error(`wrk printed no result:\n${out}`);
  const result = JSON.parse(line.slice("BENCH_RESULT ".length));
  await settle();
  // A scenario that answers 401 on purpose counts its 401s as answers, not errors.
  const expectedErrors = token === null && requests[0].startsWith("/api/v1") ? result.status_errors : 0;
  return {
    requestsPerSecond: result.requests / (result.duration_us / 1e6),
    p50Ms: result.p50_us / 1000,
    p99Ms: result.p99_us / 1000,
    errors: result.status_errors - expectedErrors + result.socket_errors,
  };
}

/** pgbench with one script at `clients` connections; at one connection, the p50 from its per-transaction log. */
async function pgbench(script: string, fixtures: Fixtures, clients: number, seconds: number): Promise<Measurement> {
  const logPrefix = path.join(scratch, `pgbench-${clients}`);
  const out = await run("pgbench", [
    "-n",
    // Prepared, as the app's statements are (lib/db/client.ts): planned once per connection.
    "--protocol=prepared",
    `-c${clients}`,
    `-j${Math.min(clients, 2)}`,
    `-T${seconds}`,
    "-f",
    path.join("bench", "floor", `${script}.sql`),
    "-D",
    `tenant=${fixtures.tenant}`,
    "-D",
    `owner=${fixtures.owner}`,
    ...(clients === 1 ? ["-l", `--log-prefix=${logPrefix}`] : []),
    databaseUrl!,
  ]);
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
  const average = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1]);
  const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
  let p50Ms = average;
  let p99Ms = Number.NaN;
  if (clients === 1) {
    const logs = (await readdir(scratch)).filter((name) => name.startsWith(path.basename(logPrefix)));
    const latencies: number[] = [];
    for (const name of logs) {
      for (const line of (await readFile(path.join(scratch, name), "utf8")).split("\n")) {
        const fields = line.split(" ");
        if (fields.length >= 3) latencies.push(Number(fields[2]) / 1000);
      }
      await rm(path.join(scratch, name));
    }
    p50Ms = percentile(latencies, 50);
    p99Ms = percentile(latencies, 99);
  }
  return { requestsPerSecond: tps, p50Ms, p99Ms, errors: failed };
}

function percentile(values: number[], p: number) {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const APP_ENV = {
  NEXT_TELEMETRY_DISABLED: "1",
  NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
  // Lifted for the benchmark: one token sends thousands of requests a minute.
  RATE_LIMIT_PER_MINUTE: "0",
  RATE_LIMIT_SEARCH_PER_MINUTE: "0",
  RATE_LIMIT_USER_PER_HOUR: "0",
  RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: "0",
  UPSTASH_REDIS_REST_URL: "",
  UPSTASH_REDIS_REST_TOKEN: "",
};

const verdict = (met: boolean) => (met ? "met" : "**not met**");

/** The scenarios: latency at one connection, throughput at CONNECTIONS, and the SQL floor beside each. */
async function measureScenarios(fixtures: Fixtures, tokens: BenchTokens, out: string[]) {
  const rows: string[] = [];
  const throughput = new Map<string, number>();
  for (const scenario of scenarios(fixtures)) {
    process.stderr.write(`${scenario.name} ...\n`);
    const token = scenario.token && tokens[scenario.token];
    if (WARMUP > 0) await wrk(APP_PORT, token, scenario.requests, CONNECTIONS, WARMUP);
    const single = await wrk(APP_PORT, token, scenario.requests, 1, LATENCY_DURATION);
    const loaded = await wrk(APP_PORT, token, scenario.requests, CONNECTIONS, DURATION);
    throughput.set(scenario.name, loaded.requestsPerSecond);
    let floor = "";
    if (scenario.floor) {
      const floorSingle = await pgbench(scenario.floor, fixtures, 1, LATENCY_DURATION);
      const floorLoaded = await pgbench(scenario.floor, fixtures, CONNECTIONS, DURATION);
      floor = `${ms(floorSingle.p50Ms)} ms · ${floorLoaded.requestsPerSecond.toFixed(0)}/s`;
    }
    const checks: string[] = [];
    const target = scenario.target;
    if (target?.p50Ms) checks.push(`p50 ≤ ${target.p50Ms} ms: ${verdict(single.p50Ms <= target.p50Ms)}`);
    if (target?.requestsPerSecond)
      checks.push(`≥ ${target.requestsPerSecond}/s: ${verdict(loaded.requestsPerSecond >= target.requestsPerSecond)}`);
    if (target?.shareOf) {
      const base = throughput.get(target.shareOf.scenario) ?? Number.NaN;
      const share = loaded.requestsPerSecond / base;
      checks.push(
        `≥ ${target.shareOf.share * 100}% of the trivial route: ${Math.round(share * 100)}%, ${verdict(share >= target.shareOf.share)}`,
      );
    }
    rows.push(
      `| ${scenario.name} | ${ms(single.p50Ms)} | ${ms(single.p99Ms)} | ${loaded.requestsPerSecond.toFixed(0)} | ${ms(loaded.p50Ms)} | ${ms(loaded.p99Ms)} | ${single.errors + loaded.errors} | ${floor} | ${checks.join("; ")} |`,
    );
  }
  out.push(
    "## Scenarios",
    "",
    `1 connection for ${LATENCY_DURATION} s, then ${CONNECTIONS} connections for ${DURATION} s (after ${WARMUP} s of warm-up), wrk; latency in ms.`,
    `SQL floor: the best SQL for the same answer (bench/floor/), pgbench: p50 at 1 connection · transactions/s at ${CONNECTIONS}.`,
    "",
    `| Scenario | 1 conn p50 | 1 conn p99 | ${CONNECTIONS} conn req/s | p50 | p99 | errors | SQL floor | Targets |`,
    "|---|---:|---:|---:|---:|---:|---:|---|---|",
    ...rows,
    "",
  );
}

/** Walks a list by cursor pages from the first to the last, one request after another, timing each page. */
async function walk(token: string, firstPath: string, rowsExpected: number) {
  const times: number[] = [];
  let rows = 0;
  let next: string | null = `http://127.0.0.1:${APP_PORT}${firstPath}`;
  const started = performance.now();
  while (next) {
    const before = performance.now();
    const response = await fetch(next, { headers: { Authorization: `Bearer ${token}`, Accept: "application/json" } });
    const body = (await response.json()) as { data: unknown[]; links: { next: string | null } };
    times.push(performance.now() - before);
    if (!response.ok) throw new Error(`${next} answered ${response.status}`);
    rows += body.data.length;
    // The links are absolute on the public origin; the walk stays on this server.
    next =
      body.links.next &&
      `http://127.0.0.1:${APP_PORT}${new URL(body.links.next).pathname}${new URL(body.links.next).search}`;
  }
  const seconds = (performance.now() - started) / 1000;
  if (rows !== rowsExpected) throw new Error(`${firstPath} walked ${rows} rows, expected ${rowsExpected}`);
  return { seconds, times, rows };
}

/** Each tenth of the walk: its p50 and p99 page time, to show whether the cost per page stays flat with depth. */
function byDepth(times: number[]) {
  const tenth = Math.ceil(times.length / 10);
  return Array.from({ length: Math.ceil(times.length / tenth) }, (_, i) => {
    const slice = times.slice(i * tenth, (i + 1) * tenth);
    return {
      from: i * tenth + 1,
      to: i * tenth + slice.length,
      p50: percentile(slice, 50),
      p99: percentile(slice, 99),
    };
  });
}

async function measureSync(fixtures: Fixtures, tokens: BenchTokens, out: string[]) {
  const counts = await withSession(async (session) => {
    const count = async (table: string) =>
      Number(
        (await session.query(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = $1`, [fixtures.tenant])).rows[0].n,
      );
    return { timeLogs: await count("time_logs"), clients: await count("clients") };
  });
  const walks = [
    {
      name: "all time logs, 1,000 per page",
      path: "/api/v1/time-logs?cursor=&per_page=1000",
      rows: counts.timeLogs,
      targetSeconds: 60,
    },
    {
      name: "all clients, 1,000 per page",
      path: "/api/v1/clients?cursor=&limit=1000&include_archived=true",
      rows: counts.clients,
      targetSeconds: 15,
    },
    {
      name: "all time logs, 100 per page",
      path: "/api/v1/time-logs?cursor=&per_page=100",
      rows: counts.timeLogs,
      pageP50Ms: 4,
    },
    {
      name: "all clients, 50 per page",
      path: "/api/v1/clients?cursor=&limit=50&include_archived=true",
      rows: counts.clients,
      pageP50Ms: 4,
    },
  ];
  const only = process.env.BENCH_ONLY;
  const chosen = walks.filter((spec) => !only || spec.name.includes(only));
  out.push(
    "## Sync: cursor walks",
    "",
    "One request after another, as a sync job makes them; each page timed by the caller.",
    "",
  );
  const depthTables: string[] = [];
  const summary: string[] = [];
  for (const spec of chosen) {
    process.stderr.write(`sync: ${spec.name} ...\n`);
    const result = await walk(tokens.owner, spec.path, spec.rows);
    const csv = path.join(BENCH_OUT, `walk-${spec.name.replace(/[^a-z0-9]+/gi, "-")}.csv`);
    await writeFile(csv, `page,ms\n${result.times.map((t, i) => `${i + 1},${t.toFixed(3)}`).join("\n")}\n`);
    const depth = byDepth(result.times);
    const worstP50 = Math.max(...depth.map((d) => d.p50));
    const checks = [
      spec.targetSeconds ? `≤ ${spec.targetSeconds} s: ${verdict(result.seconds <= spec.targetSeconds)}` : "",
      spec.pageP50Ms ? `page p50 ≤ ${spec.pageP50Ms} ms at every depth: ${verdict(worstP50 <= spec.pageP50Ms)}` : "",
    ].filter(Boolean);
    summary.push(
      `| ${spec.name} | ${result.rows.toLocaleString("en")} | ${result.times.length.toLocaleString("en")} | ${result.seconds.toFixed(1)} | ${ms(percentile(result.times, 50))} | ${ms(worstP50)} | ${checks.join("; ")} |`,
    );
    depthTables.push(
      `${spec.name}: page time by depth (each tenth of the walk)`,
      "",
      "| Pages | p50 ms | p99 ms |",
      "|---|---:|---:|",
      ...depth.map((d) => `| ${d.from}–${d.to} | ${ms(d.p50)} | ${ms(d.p99)} |`),
      "",
    );
  }
  out.push(
    "| Walk | rows | pages | seconds | page p50 | worst tenth's p50 | Targets |",
    "|---|---:|---:|---:|---:|---:|---|",
    ...summary,
    "",
    ...depthTables,
  );
}

/** Served answers' p99 and the share refused, at 4× the connections; autocannon reports each answer's status. */
async function overload(token: string, target: string, connections: number) {
  const served: number[] = [];
  let refused = 0;
  let other = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${APP_PORT}${target}`,
        connections,
        duration: DURATION,
        timeout: 30,
        headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (statusCode === 200) served.push(responseTime);
      else if (statusCode === 503) refused++;
      else other++;
    });
  });
  await settle();
  return {
    servedPerSecond: served.length / DURATION,
    p50: percentile(served, 50),
    p99: percentile(served, 99),
    refused,
    errors: other + result.errors + result.timeouts,
  };
}

async function measureOverload(
  tokens: BenchTokens,
  startApp: (env: Record<string, string>) => Promise<Server>,
  out: string[],
) {
  const target = "/api/v1/clients?limit=50";
  const connections = CONNECTIONS * 4;
  const rows: string[] = [];
  // BENCH_IN_FLIGHT_LIMITS: the API_MAX_IN_FLIGHT values to compare (0: no shedding).
  const limits = (process.env.BENCH_IN_FLIGHT_LIMITS ?? "64,0").split(",");
  for (const [label, limit] of limits.map((n) => [
    n === "0" ? "load shedding off (API_MAX_IN_FLIGHT=0)" : `load shedding at API_MAX_IN_FLIGHT=${n}`,
    n,
  ])) {
    process.stderr.write(`overload: ${label} ...\n`);
    const app = await startApp({ API_MAX_IN_FLIGHT: limit });
    try {
      await wrk(APP_PORT, tokens.owner, [target], CONNECTIONS, WARMUP || 1);
      const result = await overload(tokens.owner, target, connections);
      rows.push(
        `| ${label} | ${result.servedPerSecond.toFixed(0)} | ${ms(result.p50)} | ${ms(result.p99)} | ${result.refused} | ${result.errors} |`,
      );
    } finally {
      await app.stop();
    }
  }
  out.push(
    "## Overload",
    "",
    `\`GET ${target}\` at ${connections} connections (4× the ${CONNECTIONS} of the scenarios) for ${DURATION} s, autocannon; latency of the answered (200) requests only, in ms.`,
    "",
    "| Server | answered/s | p50 | p99 | refused (503) | other errors |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows,
    "",
  );
}

/** The embedded default (PGlite, demo data) under the same kind of load: its memory, and what it answers. */
async function measureEmbedded(out: string[]) {
  const dataDir = path.join(scratch, "pglite");
  const env = { DATABASE_URL: "", DIRECT_DATABASE_URL: "", PGLITE_DATA_DIR: dataDir };
  const seeded = await run("npx", ["tsx", "scripts/seed.ts"], env);
  const token = /Demo API token[^\n]*\n\s+(\S+)/.exec(seeded)?.[1];
  if (!token) throw new Error(`No demo token in the seed's output:\n${seeded}`);
  const app = await Server.startApp("embedded", EMBEDDED_PORT, env);
  const rows: string[] = [];
  try {
    for (const target of ["/api/v1/me", "/api/v1/clients?limit=50", "/api/v1/time-logs?per_page=100"]) {
      await wrk(EMBEDDED_PORT, token, [target], CONNECTIONS, WARMUP || 1);
      const single = await wrk(EMBEDDED_PORT, token, [target], 1, LATENCY_DURATION);
      const loaded = await wrk(EMBEDDED_PORT, token, [target], CONNECTIONS, DURATION);
      rows.push(
        `| ${target} | ${ms(single.p50Ms)} | ${loaded.requestsPerSecond.toFixed(0)} | ${ms(loaded.p99Ms)} | ${single.errors + loaded.errors} |`,
      );
    }
  } finally {
    await app.stop();
  }
  out.push(
    "## Embedded default (PGlite, demo data)",
    "",
    "| Request | 1 conn p50 | req/s | p99 | errors |",
    "|---|---:|---:|---:|---:|",
    ...rows,
    "",
    `Peak resident memory of the embedded app: ${mb(app.peakRssBytes)}.`,
    "",
  );
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

// A database seeded before the latest migrations would answer with errors (or old plans): bring it up to date first.
const applied = await migrate();
if (applied.length) {
  process.stderr.write(`Applied ${applied.join(", ")}; vacuuming and analyzing ...\n`);
  await withSession((session) => session.query("VACUUM ANALYZE"));
}

const tokens: BenchTokens = JSON.parse(await readFile(TOKENS_FILE, "utf8"));
const fixtures = await loadFixtures();
const startApp = (env: Record<string, string> = {}) => Server.startApp("app", APP_PORT, env);
const loadBefore = os.loadavg()[0];
const started = new Date();
const file = path.join(BENCH_OUT, `results-${started.toISOString().replace(/[:.]/g, "-")}.md`);
const out: string[] = [];
/** The report so far, written after each part: a run stopped midway keeps what it measured. */
async function save() {
  const header = [
    `# Benchmark run ${started.toISOString()}`,
    "",
    `Node ${process.version} (the app's too), PostgreSQL ${fixtures.postgres}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model}); ` +
      `1-minute load average ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} now.`,
    "",
  ];
  await writeFile(file, `${[...header, ...out].join("\n")}\n`);
}
try {
  if (PARTS.has("scenarios") || PARTS.has("sync")) {
    const app = await startApp();
    try {
      if (PARTS.has("scenarios")) await measureScenarios(fixtures, tokens, out);
      await save();
      if (PARTS.has("sync")) await measureSync(fixtures, tokens, out);
    } finally {
      await app.stop();
    }
    out.push(
      `Peak resident memory of the app on PostgreSQL, over the scenarios and walks: ${mb(app.peakRssBytes)} (target ≤ 250 MB: ${verdict(app.peakRssBytes <= 250 * 1024 * 1024)}).`,
      "",
    );
    await save();
  }
  if (PARTS.has("overload")) await measureOverload(tokens, startApp, out);
  await save();
  if (PARTS.has("embedded")) await measureEmbedded(out);
  await save();
} finally {
  await rm(scratch, { recursive: true, force: true });
}
console.log(await readFile(file, "utf8"));
console.error(`Written to ${file}`);
