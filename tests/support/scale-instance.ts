// Built app servers (`next start`, after `npm run build`) started by the many-instances tests (tests/scale), on the
// test file's PostgreSQL database, and requests to them.
import { type ChildProcess, spawn } from "node:child_process";

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export interface SendOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Gives up on an answer after this long (a fetch error), e.g. when the server may have died. */
  timeoutMs?: number;
}

/** A request to one instance, on a connection of its own (none is kept for a server that may be killed). */
export async function send(
  port: number,
  method: string,
  path: string,
  { token, body, headers = {}, timeoutMs }: SendOptions = {},
): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      Connection: "close",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

export interface Instance {
  port: number;
  server: ChildProcess;
  /** What it printed so far (for a failure's message, or CJT_SCALE_LOGS). */
  output: () => string;
  /** Ends the server and anything it started (its own process group), as `kill -9` would by default. */
  kill: (signal?: NodeJS.Signals) => void;
  /** Resolves once the server's process has exited. */
  exited: Promise<void>;
}

/** Starts a server of the build on `port` with `env` added, once it answers /api/live. */
export async function startInstance(port: number, env: Record<string, string>): Promise<Instance> {
  const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port)], {
    env: { ...process.env, ...env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so that a kill reaches whatever next start runs the server in.
    detached: true,
  });
  let output = "";
  server.stdout?.on("data", (chunk) => (output += chunk));
  server.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  const kill = (signal: NodeJS.Signals = "SIGKILL") => {
    if (server.exitCode === null && server.signalCode === null && server.pid) process.kill(-server.pid, signal);
  };
  const instance = { port, server, output: () => output, kill, exited };
  for (let i = 0; ; i++) {
    const res = await send(port, "GET", "/api/live").catch(() => undefined);
    if (res?.status === 200) return instance;
    if (i > 240 || server.exitCode !== null) {
      kill();
      throw new Error(`The instance on ${port} did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
