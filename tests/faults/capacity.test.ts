// One firm can never take the API from another (decisions.md, Capacity): while tenant A abuses the built server (slow
// bodies, long pages it does not read, webhook tests to a receiver that sleeps), tenant B's requests are answered
// 200, not 503. The places are few (API_MAX_IN_FLIGHT=2) and the deadlines short here;
// `npm run build` first.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { answerDeadlineMs } from "@/lib/api/in-flight";
import { bodyDeadlineMs } from "@/lib/http/body-arrival";
import { createApiToken } from "@/lib/tokens";
import { BuiltServerDatabase, built, client, freePort, kill, type Sent, startServer } from "../support/built-server";
import { type Receiver, startReceiver } from "../support/webhook-receiver";

const PORT = await freePort();
const LIMITS = {
  API_MAX_IN_FLIGHT: "2",
  API_MAX_QUEUE_MS: "500",
  API_BODY_DEADLINE_MS: "3000",
  API_ANSWER_DEADLINE_MS: "8000",
  WEBHOOKS_ALLOW_PRIVATE: "true",
};

it("defaults to 10 s for a body to arrive and 30 s for an answer to be taken", () => {
  vi.stubEnv("API_BODY_DEADLINE_MS", "");
  vi.stubEnv("API_ANSWER_DEADLINE_MS", "");
  expect(bodyDeadlineMs()).toBe(10_000);
  expect(answerDeadlineMs()).toBe(30_000);
  vi.unstubAllEnvs();
});

/** Raw HTTP on its own socket: the request line and headers now, the body as the caller chooses. */
function rawRequest(head: string): Promise<{ socket: Socket; answer: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(PORT, "127.0.0.1", () => {
      socket.write(head);
      const answer = new Promise<string>((done) => {
        let text = "";
        socket.on("data", (chunk) => (text += chunk));
        socket.on("close", () => done(text));
        socket.on("error", () => done(text));
      });
      resolve({ socket, answer });
    });
    socket.on("error", reject);
  });
}

describe.skipIf(!built || process.env.DATABASE_URL)("tenant B while tenant A abuses the built server", () => {
  let database: BuiltServerDatabase;
  let tokenB: string;
  let receiver: Receiver;
  let server: Awaited<ReturnType<typeof startServer>>;
  let send: ReturnType<typeof client>;

  beforeAll(async () => {
    database = await BuiltServerDatabase.create();
    tokenB = await database.read(async (db) => {
      const user = await db.user.findFirstOrThrow({ where: { email: "owner@birch.test" } });
      return (await createApiToken(db, { tenantId: user.tenantId, userId: user.id }, "tenant B")).token;
    });
    // Enough of A's clients, each long enough, that a 1,000-client page is larger than the sockets' buffers.
    await database.read(async (db) => {
      const owner = await db.user.findFirstOrThrow({ where: { email: "owner@acme.test" } });
      await db.client.createMany({
        data: Array.from({ length: 1_000 }, (_, i) => ({
          tenantId: owner.tenantId,
          name: `Long record ${i}`,
          streetAddress: `${i} ${"Long Street ".repeat(1_000)}`,
        })),
      });
    });
    receiver = await startReceiver();
    server = await startServer(PORT, database, LIMITS);
    send = client(PORT, database);
    // Each token authenticated once: the door now knows which tenant's queue its requests wait in.
    expect((await send("GET", "/api/v1/me", { token: tokenB })).status).toBe(200);
  });
  afterAll(async () => {
    if (server) {
      kill(server.server, "SIGTERM");
      await server.exited;
    }
    await receiver?.close();
    await database?.remove();
  });

  /** B's ordinary reads, one after another for `ms` and at least three: every status. */
  async function tenantB(ms: number): Promise<number[]> {
    const statuses: number[] = [];
    const until = Date.now() + ms;
    // At least three answers, however slow this machine is meanwhile (a CI lane beside a browser run answered B once
    // in 2 s); a B refused for a held place gets its 503 within API_MAX_QUEUE_MS.
    while (Date.now() < until || statuses.length < 3) {
      const paths = ["/api/v1/me", "/api/v1/clients", "/api/v1/jobs"];
      const res: Sent = await send("GET", paths[statuses.length % paths.length], { token: tokenB });
      statuses.push(res.status);
    }
    return statuses;
  }

  it("slow bodies: A's creates sending a byte every second hold no place; each is a JSON 408 at the deadline", async () => {
    const body = JSON.stringify({ name: "Slow body" });
    const slow = await Promise.all(
      Array.from({ length: 4 }, () =>
        rawRequest(
          "POST /api/v1/clients HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
            `Authorization: Bearer ${database.token}\r\nContent-Length: ${body.length}\r\n\r\n`,
        ),
      ),
    );
    let sent = 0;
    const drip = setInterval(() => {
      for (const { socket } of slow) if (!socket.destroyed) socket.write(body[sent]);
      sent++;
    }, 1_000);
    try {
      const started = Date.now();
      const statuses = await tenantB(2_500);
      expect(statuses.every((status) => status === 200)).toBe(true);
      for (const { answer } of slow) {
        const text = await answer;
        expect(text).toMatch(/^HTTP\/1\.1 408 /);
        expect(text).toMatch(/content-type: application\/json/i);
        expect(text).toMatch(/cache-control: no-store/i);
        const requestId = /x-request-id: (\S+)/i.exec(text)?.[1];
        expect(requestId).toBeTruthy();
        expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toEqual({
          message: expect.stringMatching(/did not arrive in time/),
          request_id: requestId,
        });
      }
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      clearInterval(drip);
    }
    // A body that arrives whole, however it was split, is read by the route as sent.
    const created = await send("POST", "/api/v1/clients", { body: { name: "Sent in two halves" } });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe("Sent in two halves");
  });

  it("slow readers: A's long pages that are not read hold no place; B is answered 200 meanwhile", async () => {
    // B sent nothing for a while: A, alone, may take every place, and its pages do.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const readers = await Promise.all(
      Array.from({ length: 6 }, () =>
        rawRequest(
          "GET /api/v1/clients?cursor=&limit=1000&include_archived=true HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
            `Authorization: Bearer ${database.token}\r\nAccept: application/json\r\n\r\n`,
        ),
      ),
    );
    // Read nothing: each page (about 12 MB) fills the sockets' buffers and waits for its reader.
    for (const { socket } of readers) socket.pause();
    await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      const statuses = await tenantB(2_000);
      expect(statuses.every((status) => status === 200)).toBe(true);
    } finally {
      for (const { socket } of readers) socket.destroy();
    }
  });

  it("webhook tests to a receiver that sleeps 12 s answer 202 at once; the attempts are recorded after", async () => {
    receiver.delayMs = 12_000;
    const endpoint = await send("POST", "/api/v1/webhooks", {
      body: { url: receiver.url, events: ["client.created"] },
    });
    expect(endpoint.status).toBe(201);
    const started = Date.now();
    const tests = await Promise.all(
      Array.from({ length: 4 }, () => send("POST", `/api/v1/webhooks/${endpoint.body.uuid}/test`)),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const res of tests) expect(res).toMatchObject({ status: 202, body: { status: "pending", attempts: 0 } });
    const statuses = await tenantB(2_000);
    expect(statuses.every((status) => status === 200)).toBe(true);
    await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThanOrEqual(4), { timeout: 5_000 });
    const listed = await send("GET", `/api/v1/webhooks/${endpoint.body.uuid}/deliveries`);
    expect(listed.body.data.map((d: { uuid: string }) => d.uuid).sort()).toEqual(tests.map((t) => t.body.uuid).sort());
    receiver.delayMs = 0;
  });
});
