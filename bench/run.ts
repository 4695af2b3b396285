// `npm run bench`: starts the built app (`next start`, port 3400) and the floor server (port 3401) on DATABASE_URL
// (filled by `npm run bench:seed`; pending migrations are applied first), drives each scenario with autocannon at
// fixed concurrency for a fixed time, and prints requests/s, p50 and p99 latency, errors (anything but 2xx), the
// ratio to the floor where one exists and the servers' peak resident memory. Rate limits are lifted through their
// settings, not in code.
// Settings: BENCH_DURATION (seconds per scenario, default 10), BENCH_WARMUP (seconds, default 2),
// BENCH_CONNECTIONS (default 32), BENCH_ONLY (run only scenarios whose name contains this text).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { migrate } from "@/scripts/migrate";
import { BENCH_OUT, type BenchTokens, TOKENS_FILE } from "./config";

const APP_PORT = 3400;
const FLOOR_PORT = 3401;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("Set DATABASE_URL to the database that `npm run bench:seed` filled.");

/** Values the scenarios need from the seeded data: real uuids and emails, rotated across requests. */
async function loadFixtures() {
  const session = new pg.Client({ connectionString: databaseUrl });
  await session.connect();
  try {
    const large = `(SELECT id FROM tenants WHERE name = 'Bench Large Firm')`;
    const column = async (sql: string) => (await session.query(sql)).rows.map((r) => Object.values(r)[0] as string);
    return {
      clientUuids: await column(`SELECT uuid FROM clients WHERE tenant_id = ${large} ORDER BY id % 997, id LIMIT 500`),
      contactEmails: await column(
        `SELECT email FROM contacts WHERE tenant_id = ${large} ORDER BY id % 997, id LIMIT 500`,
      ),
    };
  } finally {
    await session.end();
  }
}

interface Scenario {
  name: string;
  token: keyof BenchTokens;
  /** Requests to send in turn (autocannon cycles through them); a path alone is a GET. */
  requests: autocannon.Request[];
  /** The same request on the floor server, when it answers it. */
  floor?: boolean;
}

const get = (target: string): autocannon.Request => ({ method: "GET", path: target });
const rotate = (values: string[], toPath: (value: string) => string): autocannon.Request[] =>
  values.map((v) => get(toPath(v)));

function scenarios(fixtures: Awaited<ReturnType<typeof loadFixtures>>): Scenario[] {
  const api = "/api/v1";
  const runId = randomBytes(4).toString("hex");
  let created = 0;
  const all: Scenario[] = [
    { name: "GET /me", token: "owner", requests: [get(`${api}/me`)] },
    { name: "clients, by name", token: "owner", requests: [get(`${api}/clients?limit=50`)], floor: true },
    {
      name: "clients, created_at desc",
      token: "owner",
      requests: [get(`${api}/clients?limit=50&sort_by=created_at&sort_direction=desc`)],
    },
    { name: "clients, page 1000", token: "owner", requests: [get(`${api}/clients?limit=50&page=1000`)], floor: true },
    // Two specific terms (a reference, an email fragment: a few hundred matches at most) and two broad ones
    // (a word in 5,555 client names, a city of 9,333 clients).
    {
      name: "clients?search=",
      token: "owner",
      requests: ["bl-04213", "uma.walsh", "kestrel", "glasgow"].map((t) => get(`${api}/clients?search=${t}&limit=50`)),
    },
    {
      name: "clients/search?q=",
      token: "owner",
      requests: ["har", "kest", "oak", "ember f"].map((q) => get(`${api}/clients/search?q=${encodeURIComponent(q)}`)),
    },
    {
      name: "clients/{uuid}",
      token: "owner",
      requests: rotate(fixtures.clientUuids, (uuid) => `${api}/clients/${uuid}`),
    },
    // A last name (13,632 contacts, together in the list's order) and a first name (spread over it).
    {
      name: "contacts?search=",
      token: "owner",
      requests: ["walsh", "priya"].map((t) => get(`${api}/contacts?search=${t}&limit=50`)),
    },
    {
      name: "contacts?email=",
      token: "owner",
      requests: rotate(fixtures.contactEmails, (email) => `${api}/contacts?email=${encodeURIComponent(email)}`),
    },
    {
      name: "jobs, status + due range",
      token: "owner",
      requests: [get(`${api}/jobs?statuses[]=in-progress&due_date_range=this_month`)],
    },
    {
      name: "jobs, assigned_clients user",
      token: "assigned",
      requests: [get(`${api}/jobs?due_date_range=this_month`)],
    },
    { name: "clients, assigned_clients user", token: "assigned", requests: [get(`${api}/clients?limit=50`)] },
    {
      name: "time-logs this_year",
      token: "owner",
      requests: [get(`${api}/time-logs?range=this_year&per_page=100`)],
      floor: true,
    },
    {
      name: "time-logs, page 1000",
      token: "owner",
      requests: [get(`${api}/time-logs?range=this_year&per_page=100&page=1000`)],
      floor: true,
    },
    {
      name: "POST /clients",
      token: "owner",
      requests: [
        {
          method: "POST",
          path: `${api}/clients`,
          // A fresh name and reference per request, so that no request fails the uniqueness check.
          setupRequest: (request) => {
            created += 1;
            return {
              ...request,
              body: JSON.stringify({
                name: `Bench ${runId} ${created}`,
                client_id: `BENCH-${runId}-${created}`,
                city: "Leeds",
              }),
            };
          },
        },
      ],
    },
  ];
  return all.filter((s) => !process.env.BENCH_ONLY || s.name.includes(process.env.BENCH_ONLY));
}

/** A server process and the peak resident memory of its process tree, sampled while the benchmark runs. */
class Server {
  /** Since the start, and since the last `startScenario()`. */
  peakRssBytes = 0;
  scenarioPeakRssBytes = 0;
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

  static async start(name: string, port: number, command: string[], env: Record<string, string>) {
    const child = spawn(command[0], command.slice(1), {
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const server = new Server(name, port, child);
    await server.ready();
    return server;
  }

  private async ready() {
    for (let attempt = 0; attempt < 120; attempt++) {
      if (this.child.exitCode !== null) throw new Error(`${this.name} exited with code ${this.child.exitCode}`);
      const answered = await fetch(`http://127.0.0.1:${this.port}/api/v1/clients`).then(
        () => true,
        () => false,
      );
      if (answered) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
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
    this.scenarioPeakRssBytes = Math.max(this.scenarioPeakRssBytes, rss);
  }

  startScenario() {
    this.scenarioPeakRssBytes = 0;
  }

  /** Stops the whole tree by pid: stopping `next start` alone can leave its server running. */
  async stop() {
    clearInterval(this.sampler);
    for (const pid of (await this.tree()).reverse()) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  }
}

interface Measurement {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * Waits until the server has worked off what the load left queued: autocannon stops on time and drops requests still
 * in flight, which the server finishes anyway (and PostgreSQL runs their statements to the end), and that backlog
 * must not slow the next measurement. Settled means PostgreSQL has run no statement but ours for half a second.
 */
async function settle() {
  const session = new pg.Client({ connectionString: databaseUrl });
  await session.connect();
  try {
    const deadline = Date.now() + 60_000;
    for (let quiet = 0; quiet < 5 && Date.now() < deadline; ) {
      const { rows } = await session.query(
        "SELECT count(*)::int AS busy FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()",
      );
      quiet = rows[0].busy === 0 ? quiet + 1 : 0;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await session.end();
  }
}

async function measure(
  port: number,
  token: string,
  requests: autocannon.Request[],
  seconds: number,
): Promise<Measurement> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { Authorization: `Bearer ${token}`, Accept: "application/json", "Content-Type": "application/json" },
    requests,
  });
  await settle();
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

const appEnv = {
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

// A database seeded before the latest migrations would answer with errors (or old plans): bring it up to date first.
const applied = await migrate();
if (applied.length) {
  process.stderr.write(`Applied ${applied.join(", ")}; vacuuming and analyzing ...\n`);
  const session = new pg.Client({ connectionString: databaseUrl });
  await session.connect();
  await session.query("VACUUM ANALYZE").finally(() => session.end());
}

const tokens: BenchTokens = JSON.parse(await readFile(TOKENS_FILE, "utf8"));
const list = scenarios(await loadFixtures());
// The app runs as `npm start` runs it (its heap limit included), without npm's own process in the measured tree.
const { scripts } = JSON.parse(await readFile("package.json", "utf8"));
const appPath = `${path.resolve("node_modules", ".bin")}:${process.env.PATH}`;
const app = await Server.start("app", APP_PORT, ["/bin/sh", "-c", `${scripts.start} -p ${APP_PORT}`], {
  ...appEnv,
  PATH: appPath,
});
const floor = await Server.start(
  "floor",
  FLOOR_PORT,
  [process.execPath, "--import", "tsx", path.join("bench", "floor-server.ts")],
  {},
);

const loadBefore = os.loadavg()[0];
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const rows: string[][] = [];
try {
  for (const scenario of list) {
    const token = tokens[scenario.token];
    process.stderr.write(`${scenario.name} ...\n`);
    app.startScenario();
    if (WARMUP > 0) await measure(APP_PORT, token, scenario.requests, WARMUP);
    const result = await measure(APP_PORT, token, scenario.requests, DURATION);
    let versusFloor = "";
    if (scenario.floor) {
      if (WARMUP > 0) await measure(FLOOR_PORT, token, scenario.requests, WARMUP);
      const base = await measure(FLOOR_PORT, token, scenario.requests, DURATION);
      versusFloor = `${Math.round((result.requestsPerSecond / base.requestsPerSecond) * 100)}% of ${base.requestsPerSecond.toFixed(0)}/s (p50 ${base.p50}, p99 ${base.p99}, errors ${base.errors})`;
    }
    const rss = mb(app.scenarioPeakRssBytes);
    rows.push([
      scenario.name,
      result.requestsPerSecond.toFixed(0),
      String(result.p50),
      String(result.p99),
      String(result.errors),
      rss,
      versusFloor,
    ]);
  }
} finally {
  await app.stop();
  await floor.stop();
}

const table = [
  `${CONNECTIONS} connections, ${DURATION} s per scenario after ${WARMUP} s of warm-up; latency in ms. ` +
    `${os.cpus().length} CPUs; 1-minute load average ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end.`,
  "",
  "| Scenario | req/s | p50 | p99 | errors | app RSS | vs floor (floor req/s, p50, p99) |",
  "|---|---:|---:|---:|---:|---:|---|",
  ...rows.map((r) => `| ${r.join(" | ")} |`),
  "",
  `Peak RSS: app (next-server) ${mb(app.peakRssBytes)}, floor ${mb(floor.peakRssBytes)}.`,
].join("\n");
console.log(table);
const file = path.join(BENCH_OUT, `results-${new Date().toISOString().replace(/[:.]/g, "-")}.md`);
await writeFile(file, table + "\n");
console.error(`Written to ${file}`);
