// The built server (`next start`) on the embedded database: SIGTERM lets requests in flight finish and exits 0;
// kill -9 in the middle of a stream of creates loses none that were acknowledged. Needs `npm run build` first.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openPGlite } from "@/lib/db/pglite";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { createApiToken } from "@/lib/tokens";

const built = existsSync(".next/BUILD_ID");
const PORT = 3281;
let dataDir: string;
let token: string;

/** Runs work on the embedded database in the folder, while no server has it open. */
async function withDatabase<T>(work: (client: PrismaClient) => Promise<T>): Promise<T> {
  const pglite = openPGlite(dataDir);
  const client = new PrismaClient({ adapter: new PrismaPGlite(pglite) as never });
  try {
    return await work(client);
  } finally {
    await client.$disconnect();
    await pglite.close();
  }
}

beforeAll(async () => {
  if (!built || process.env.DATABASE_URL) return;
  dataDir = path.join(await mkdtemp(path.join(tmpdir(), "cjt-faults-")), "pglite");
  await cp(inject("templateDatabase"), dataDir, { recursive: true });
  token = await withDatabase(async (client) => {
    const user = await client.user.findFirstOrThrow({ where: { email: "owner@acme.test" } });
    return (await createApiToken(client, { tenantId: user.tenantId, userId: user.id }, "server test")).token;
  });
});
afterAll(async () => {
  if (dataDir) await rm(path.dirname(dataDir), { recursive: true, force: true });
});

/** `next start` itself (not through npx, so that its pid is the server's), ready to answer. */
async function startServer() {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.DEMO_SEED;
  const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(PORT)], {
    env: { ...env, PGLITE_DATA_DIR: dataDir, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  server.stdout?.on("data", (chunk) => (output += chunk));
  server.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
  for (let i = 0; ; i++) {
    const res = await send("GET", "/api/v1/me").catch(() => undefined);
    if (res?.status === 200) break;
    if (i > 120 || server.exitCode !== null) throw new Error(`The server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { server, exited, output: () => output };
}

interface Sent {
  status: number;
  body: any;
}

/** A request to the server; `pause` holds back the second half of the body until it resolves. */
function send(method: string, pathname: string, body?: unknown, pause?: Promise<void>): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? "" : JSON.stringify(body);
    const req = request(
      {
        host: "127.0.0.1",
        port: PORT,
        method,
        path: pathname,
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on("error", reject);
    const half = Math.floor(payload.length / 2);
    req.write(payload.slice(0, half));
    (pause ?? Promise.resolve()).then(() => req.end(payload.slice(half)));
  });
}

function kill(server: ChildProcess, signal: NodeJS.Signals) {
  if (server.pid) process.kill(server.pid, signal);
}

describe.skipIf(!built || process.env.DATABASE_URL)("the built server on the embedded database", () => {
  it("on SIGTERM finishes the requests in flight, refuses new connections, and exits 0", async () => {
    const { server, exited } = await startServer();
    let resume = () => {};
    const held = new Promise<void>((resolve) => {
      resume = resolve;
    });
    // Creates whose bodies are still arriving when the signal comes: in flight in the handler.
    const inFlight = Array.from({ length: 3 }, (_, i) =>
      send("POST", "/api/v1/clients", { name: `Deploy ${i}` }, held),
    );
    await new Promise((r) => setTimeout(r, 500));
    kill(server, "SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    await expect(send("GET", "/api/v1/me")).rejects.toThrow(/ECONNREFUSED/);
    resume();

    const answers = await Promise.all(inFlight);
    for (const res of answers) expect(res.status).toBe(201);
    expect(await exited).toBe(0);
    const stored = await withDatabase((client) =>
      client.client.count({ where: { uuid: { in: answers.map((a) => a.body.uuid) } } }),
    );
    expect(stored).toBe(3);
  });

  it("kill -9 in the middle of a stream of creates loses none that were acknowledged", async () => {
    const { server, exited } = await startServer();
    const acknowledged: string[] = [];
    let killed = false;
    await Promise.all(
      Array.from({ length: 4 }, async (_, worker) => {
        for (let i = 0; !killed; i++) {
          const res = await send("POST", "/api/v1/clients", { name: `Stream ${worker}-${i}` }).catch(() => undefined);
          if (res?.status === 201) acknowledged.push(res.body.uuid);
          // Killed while the other workers' creates are in flight.
          if (acknowledged.length >= 12 && !killed) {
            killed = true;
            kill(server, "SIGKILL");
          }
        }
      }),
    );
    await exited;

    // Restarted on the same folder, the server has every one of them.
    const restarted = await startServer();
    const found = await Promise.all(acknowledged.map((uuid) => send("GET", `/api/v1/clients/${uuid}`)));
    expect(found.filter((res) => res.status === 200)).toHaveLength(acknowledged.length);
    kill(restarted.server, "SIGTERM");
    expect(await restarted.exited).toBe(0);
  });
});
