// The built server (`next start`, after `npm run build`) on a copy of the embedded test database, for the tests that
// need a real HTTP server in front of the app (tests/faults). Each test file asks the system for a free port
// (freePort), so that two runs on one machine never meet on a fixed one.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { createServer, type RequestOptions, request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { inject } from "vitest";
import { openPGlite } from "@/lib/db/pglite";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { createApiToken } from "@/lib/tokens";

export const built = existsSync(".next/BUILD_ID");

/** A port the system has just given out and nobody holds: a test server listens on it next. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject).listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** A copy of the test database in its own folder, with an owner's token, for servers started on it. */
export class BuiltServerDatabase {
  private constructor(
    readonly dataDir: string,
    readonly token: string,
  ) {}

  static async create(): Promise<BuiltServerDatabase> {
    const dataDir = path.join(await mkdtemp(path.join(tmpdir(), "cjt-faults-")), "pglite");
    await cp(inject("templateDatabase"), dataDir, { recursive: true });
    const token = await withDatabase(dataDir, async (client) => {
      const user = await client.user.findFirstOrThrow({ where: { email: "owner@acme.test" } });
      return (await createApiToken(client, { tenantId: user.tenantId, userId: user.id }, "server test")).token;
    });
    return new BuiltServerDatabase(dataDir, token);
  }

  /** Runs work on the database while no server has it open. */
  read<T>(work: (client: PrismaClient) => Promise<T>): Promise<T> {
    return withDatabase(this.dataDir, work);
  }

  remove() {
    return rm(path.dirname(this.dataDir), { recursive: true, force: true });
  }
}

/** Runs work on an embedded database folder while no server has it open. */
export async function withDatabase<T>(dataDir: string, work: (client: PrismaClient) => Promise<T>): Promise<T> {
  const pglite = openPGlite(dataDir);
  const client = new PrismaClient({ adapter: new PrismaPGlite(pglite) as never });
  try {
    return await work(client);
  } finally {
    await client.$disconnect();
    await pglite.close();
  }
}

/**
 * Requests to a server on a port, with the owner's token unless `token: null`, each on a new connection (a kept-alive
 * one the server closes on shutdown would fail as a reset rather than a refusal).
 */
export function client(port: number, database: BuiltServerDatabase) {
  /** `pause` holds back the second half of the body until it resolves; `signal` aborts the request. */
  return function send(
    method: string,
    pathname: string,
    { body, pause, token = database.token, signal }: SendOptions = {},
  ): Promise<Sent> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? "" : JSON.stringify(body);
      const req = request(
        { ...jsonRequest(port, method, pathname, payload, token ? { Authorization: `Bearer ${token}` } : {}), signal },
        (res) => {
          let text = "";
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null }),
          );
        },
      );
      req.on("error", reject);
      const half = Math.floor(payload.length / 2);
      req.write(payload.slice(0, half));
      (pause ?? Promise.resolve()).then(() => req.end(payload.slice(half)));
    });
  };
}

/** A JSON request's options, on a connection of its own to the server on `port`, with `payload` as its body. */
export function jsonRequest(
  port: number,
  method: string,
  path: string,
  payload: string,
  headers: Record<string, string> = {},
): RequestOptions {
  return {
    host: "127.0.0.1",
    port,
    agent: false,
    method,
    path,
    headers: { ...headers, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) },
  };
}

interface SendOptions {
  body?: unknown;
  pause?: Promise<void>;
  token?: string | null;
  signal?: AbortSignal;
}

// A production start refuses to run without a session secret (lib/db/startup.ts).
const SESSION_SECRET = randomBytes(32).toString("base64url");

/** `next start` itself (not through npx, so that its pid is the server's), ready to answer. */
export async function startServer(port: number, database: BuiltServerDatabase, extraEnv: Record<string, string> = {}) {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.DEMO_SEED;
  const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port)], {
    env: {
      ...env,
      ...extraEnv,
      PGLITE_DATA_DIR: database.dataDir,
      NODE_ENV: "production",
      NEXTAUTH_SECRET: SESSION_SECRET,
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  server.stdout?.on("data", (chunk) => (output += chunk));
  server.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
  const send = client(port, database);
  for (let i = 0; ; i++) {
    const res = await send("GET", "/api/v1/me").catch(() => undefined);
    if (res?.status === 200) break;
    if (i > 120 || server.exitCode !== null) throw new Error(`The server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { server, exited, output: () => output };
}

export function kill(server: ChildProcess, signal: NodeJS.Signals) {
  if (server.pid) process.kill(server.pid, signal);
}

/**
 * A `next start` expected to stop by itself (refused at start-up): its exit code and what it printed. One still up
 * after `patienceMs` (answering, or failing every request) is killed, and its code is null.
 */
export async function startExpectingExit(
  port: number,
  env: NodeJS.ProcessEnv,
  patienceMs = 60_000,
): Promise<{ code: number | null; output: string }> {
  const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port)], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  server.stdout.on("data", (chunk) => (output += chunk));
  server.stderr.on("data", (chunk) => (output += chunk));
  const timer = setTimeout(() => kill(server, "SIGKILL"), patienceMs);
  const code = await new Promise<number | null>((resolve) => server.on("exit", resolve));
  clearTimeout(timer);
  return { code, output };
}
