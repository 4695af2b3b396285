// The built server (`next start`) on the embedded database: answers are not compressed (the proxy in front does that);
// SIGTERM lets requests in flight finish and exits 0;
// kill -9 in the middle of a stream of creates loses none that were acknowledged. Needs `npm run build` first.
import { type IncomingHttpHeaders, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BuiltServerDatabase,
  built,
  client,
  freePort,
  kill,
  startServer as startBuiltServer,
} from "../support/built-server";

const PORT = await freePort();
let database: BuiltServerDatabase;
let send: ReturnType<typeof client>;

beforeAll(async () => {
  if (!built || process.env.DATABASE_URL) return;
  database = await BuiltServerDatabase.create();
  send = client(PORT, database);
});
afterAll(async () => {
  await database?.remove();
});

const startServer = () => startBuiltServer(PORT, database);

describe.skipIf(!built || process.env.DATABASE_URL)("the built server on the embedded database", () => {
  it("leaves compression to the proxy in front: an answer is plain JSON even to a caller that accepts gzip", async () => {
    const { server, exited } = await startServer();
    try {
      const answer = await new Promise<{ headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
        const req = request(
          {
            host: "127.0.0.1",
            port: PORT,
            path: "/api/v1/clients?limit=50",
            headers: { Authorization: `Bearer ${database.token}`, "Accept-Encoding": "gzip, deflate, br" },
          },
          (res) => {
            let text = "";
            res.setEncoding("utf8").on("data", (chunk) => (text += chunk));
            res.on("end", () => resolve({ headers: res.headers, text }));
          },
        );
        req.on("error", reject).end();
      });
      expect(answer.headers["content-encoding"]).toBeUndefined();
      expect(JSON.parse(answer.text).data.length).toBeGreaterThan(0);
    } finally {
      kill(server, "SIGTERM");
    }
    expect(await exited).toBe(0);
  });

  it("on SIGTERM finishes the requests in flight, refuses new connections, and exits 0", async () => {
    const { server, exited } = await startServer();
    let resume = () => {};
    const held = new Promise<void>((resolve) => {
      resume = resolve;
    });
    // Creates whose bodies are still arriving when the signal comes: in flight in the handler.
    const inFlight = Array.from({ length: 3 }, (_, i) =>
      send("POST", "/api/v1/clients", { body: { name: `Deploy ${i}` }, pause: held }),
    );
    await new Promise((r) => setTimeout(r, 500));
    kill(server, "SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    await expect(send("GET", "/api/v1/me")).rejects.toThrow(/ECONNREFUSED/);
    resume();

    const answers = await Promise.all(inFlight);
    for (const res of answers) expect(res.status).toBe(201);
    expect(await exited).toBe(0);
    const stored = await database.read((db) =>
      db.client.count({ where: { uuid: { in: answers.map((a) => a.body.uuid) } } }),
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
          const res = await send("POST", "/api/v1/clients", { body: { name: `Stream ${worker}-${i}` } }).catch(
            () => undefined,
          );
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
