// Many instances, proven together: two built app servers (`next start`, after `npm run build`) on one PostgreSQL
// database and one Redis (through the Upstash REST emulator), as a scaled-out deployment runs. Run by .ci/run's
// scale-out step (CJT_SCALE_TESTS=1, on PostgreSQL, after the build); skipped by a plain `vitest run`.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN_RATE_LIMITED } from "@/lib/auth/sign-in-errors";
import { prisma } from "@/lib/db/client";
import { DEMO_PASSWORD } from "@/lib/demo/seed";
import { createApiToken, revokeApiToken } from "@/lib/tokens";
import { startUpstashEmulator, type UpstashEmulator } from "@/scripts/upstash-emulator";
import { built } from "../support/built-server";
import { databaseUrlFor } from "../support/postgres";
import { type Instance, send, startInstance } from "../support/scale-instance";
import { startReceiver } from "../support/webhook-receiver";

// CI's ports; CJT_SCALE_PORTS=a,b runs the suite beside another run of it.
const PORTS = (process.env.CJT_SCALE_PORTS?.split(",").map(Number) ?? [4601, 4602]) as [number, number];
const PER_TOKEN_PER_MINUTE = 12;
const CRON_SECRET = `scale-cron-${randomUUID()}`;
const enabled = process.env.CJT_SCALE_TESTS === "1" && Boolean(process.env.DATABASE_URL) && built;

let emulator: UpstashEmulator;
const instances: Instance[] = [];

/** The standby's URL of this file's database, when a standby is given. */
const replicaUrl = () =>
  process.env.CJT_REPLICA_URL
    ? databaseUrlFor(process.env.CJT_REPLICA_URL, new URL(process.env.DATABASE_URL!).pathname.slice(1))
    : undefined;

/** A new token of a demo user: each test counts its own requests. */
async function tokenOf(email: string, name = `scale ${randomUUID()}`) {
  const client = await prisma();
  const user = await client.user.findFirstOrThrow({ where: { email } });
  const { token, summary } = await createApiToken(client, { tenantId: user.tenantId, userId: user.id }, name);
  return { token, id: summary.id, owner: { tenantId: user.tenantId, userId: user.id } };
}

/** One password sign-in through next-auth's credentials callback, as the sign-in form sends it: the error code, if any. */
async function signIn(port: number, email: string, password: string, address: string): Promise<string | null> {
  const csrf = await fetch(`http://127.0.0.1:${port}/api/auth/csrf`, { headers: { "X-Forwarded-For": address } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const res = await fetch(`http://127.0.0.1:${port}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, "X-Forwarded-For": address },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  const url = res.headers.get("location") ?? ((await res.json()) as { url: string }).url;
  return new URL(url, `http://127.0.0.1:${port}`).searchParams.get("error");
}

beforeAll(async () => {
  if (!enabled) return;
  emulator = await startUpstashEmulator();
  const env = {
    DATABASE_URL: process.env.DATABASE_URL!,
    DIRECT_DATABASE_URL: process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL!,
    UPSTASH_REDIS_REST_URL: emulator.url,
    UPSTASH_REDIS_REST_TOKEN: emulator.token,
    RATE_LIMIT_KEY_PREFIX: `cjt:scale:${randomUUID()}`,
    RATE_LIMIT_PER_MINUTE: String(PER_TOKEN_PER_MINUTE),
    // Webhooks to the loopback receiver below, each instance polling for due deliveries often, and the cron route.
    WEBHOOKS_ALLOW_PRIVATE: "true",
    WEBHOOKS_POLL_MS: "100",
    CRON_SECRET,
    // A proxy in front tells the client's address (the sign-in limits count per address).
    TRUST_PROXY: "true",
    // Deployment settings every instance shares.
    CURSOR_SECRET: `scale-${randomUUID()}`,
    NEXTAUTH_SECRET: `scale-${randomUUID()}`,
    // With a hot standby (CJT_REPLICA_URL: .ci/standby), both read from it: this database is on it too.
    ...(replicaUrl() ? { DATABASE_REPLICA_URLS: replicaUrl()! } : {}),
  };
  instances.push(...(await Promise.all(PORTS.map((port) => startInstance(port, env)))));
}, 120_000);

afterAll(async () => {
  for (const instance of instances) {
    instance.kill();
    await instance.exited;
    if (process.env.CJT_SCALE_LOGS) console.log(instance.output());
  }
  await emulator?.close();
});

describe.runIf(enabled)("two instances on one database and one Redis", () => {
  const [a, b] = PORTS;

  it("refuse on one instance, at once, a token revoked elsewhere while both hold it in their caches", async () => {
    const { token, id, owner } = await tokenOf("admin@acme.test");
    // Each instance opens its listener on first use; a few requests over a second leave the token cached on both.
    for (let i = 0; i < 5; i++) {
      for (const port of PORTS) expect((await send(port, "GET", "/api/v1/me", { token })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Revoked as the settings page of a third instance does it.
    expect(await revokeApiToken(await prisma(), owner, id)).toBe(true);
    const [onA, onB] = await Promise.all(PORTS.map((port) => send(port, "GET", "/api/v1/me", { token })));
    expect(onA.status).toBe(401);
    expect(onB.status).toBe(401);
  });

  it("count one per-token rate limit across both", async () => {
    const { token } = await tokenOf("standard@acme.test");
    const statuses: number[] = [];
    for (let i = 0; i < PER_TOKEN_PER_MINUTE + 4; i++) {
      statuses.push((await send(PORTS[i % 2], "GET", "/api/v1/me", { token })).status);
    }
    expect(statuses.slice(0, PER_TOKEN_PER_MINUTE)).toEqual(Array(PER_TOKEN_PER_MINUTE).fill(200));
    expect(statuses.slice(PER_TOKEN_PER_MINUTE)).toEqual([429, 429, 429, 429]);
  });

  it("follow on one a cursor made on the other", async () => {
    const { token } = await tokenOf("owner@acme.test");
    const first = await send(a, "GET", "/api/v1/clients?limit=2&cursor=", { token });
    expect(first.status).toBe(200);
    expect(first.body.meta.next_cursor).toEqual(expect.any(String));
    const next = await send(
      b,
      "GET",
      `/api/v1/clients?limit=2&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`,
      {
        token,
      },
    );
    expect(next.status).toBe(200);
    expect(next.body.data).toHaveLength(2);
    const seen = new Set(first.body.data.map((c: { uuid: string }) => c.uuid));
    for (const client of next.body.data) expect(seen.has(client.uuid)).toBe(false);
  });

  it.runIf(process.env.CJT_REPLICA_URL)(
    "read back on one instance a write made on the other, while the replica has not replayed it",
    async () => {
      const writer = await tokenOf("owner@acme.test");
      const reader = await tokenOf("admin@acme.test");
      const replicaInUse = async (port: number) =>
        (await send(port, "GET", "/api/health")).body.replicas?.[0]?.in_use === true;
      for (let i = 0; !((await replicaInUse(a)) && (await replicaInUse(b))); i++) {
        if (i > 200) throw new Error("The instances never put the replica in use");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const standby = new pg.Client({ connectionString: replicaUrl() });
      await standby.connect();
      await standby.query("SELECT pg_wal_replay_pause()");
      try {
        const created = await send(a, "POST", "/api/v1/clients", {
          token: writer.token,
          body: { name: `Scale sticky ${randomUUID()}` },
        });
        expect(created.status).toBe(201);
        const path = `/api/v1/clients/${created.body.uuid}`;
        // The writer's position is in Redis: the other instance reads it from the primary.
        const read = await send(b, "GET", path, { token: writer.token });
        expect(read.status).toBe(200);
        expect(read.body.name).toBe(created.body.name);
        // Another caller on it reads the replica, which has not replayed the write yet.
        expect((await send(b, "GET", path, { token: reader.token })).status).toBe(404);
      } finally {
        await standby.query("SELECT pg_wal_replay_resume()");
        await standby.end();
      }
    },
  );

  it("answer 409 on one while the other still runs a request with the same Idempotency-Key, and write once", async () => {
    const { token } = await tokenOf("owner@acme.test");
    const key = randomUUID();
    const name = `Scale in flight ${key}`;
    const request = { token, body: { name }, headers: { "Idempotency-Key": key } };
    // Holds the first request's insert of the client (not its claim of the key) until the second has been answered.
    const locker = new pg.Client({ connectionString: process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE clients IN SHARE ROW EXCLUSIVE MODE");
      const first = send(a, "POST", "/api/v1/clients", request);
      // The key is claimed (committed) before the insert waits on the lock.
      const client = await prisma();
      for (let i = 0; i < 100; i++) {
        if ((await client.idempotencyKey.count({ where: { key } })) === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const second = await send(b, "POST", "/api/v1/clients", request);
      expect(second.status).toBe(409);
      await locker.query("COMMIT");
      expect((await first).status).toBe(201);
      const replay = await send(b, "POST", "/api/v1/clients", request);
      expect(replay.status).toBe(201);
      expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
      expect(await client.client.count({ where: { name } })).toBe(1);
    } finally {
      await locker.end();
    }
  });
  it("share the sign-in limits: wrong passwords from one address, split across both, throttle it on both", async () => {
    const address = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    // 30 wrong passwords from one address (each for another email, so that no email's own delay slows the test).
    const FAILURES_PER_ADDRESS = 30;
    for (let i = 0; i < FAILURES_PER_ADDRESS; i++) {
      expect(await signIn(PORTS[i % 2], `nobody-${i}-${randomUUID()}@example.test`, "wrong", address)).toBe(
        "CredentialsSignin",
      );
    }
    // Each instance saw 15; the limit is one count: the right password from that address is refused on both.
    for (const port of PORTS)
      expect(await signIn(port, "viewer@acme.test", DEMO_PASSWORD, address)).toBe(SIGN_IN_RATE_LIMITED);
    // From another address it signs in.
    expect(await signIn(b, "viewer@acme.test", DEMO_PASSWORD, "198.51.100.251")).toBeNull();
  });
  it("deliver each webhook attempt once, while both send due deliveries at the same time", async () => {
    const receiver = await startReceiver();
    try {
      const { token } = await tokenOf("owner@acme.test");
      const webhook = await send(a, "POST", "/api/v1/webhooks", {
        token,
        body: { url: receiver.url, events: ["client.created"] },
      });
      expect(webhook.status).toBe(201);
      // Within the token's rate limit (PER_TOKEN_PER_MINUTE), with the webhook's own create.
      const names = Array.from({ length: 8 }, (_, i) => `Scale webhook ${i} ${randomUUID()}`);
      const cron = (port: number) =>
        send(port, "GET", "/api/cron/webhooks", { headers: { Authorization: `Bearer ${CRON_SECRET}` } });
      // Creates on both instances, while both also run the cron route's sweep (and their own timers poll).
      const [creates] = await Promise.all([
        Promise.all(names.map((name, i) => send(PORTS[i % 2], "POST", "/api/v1/clients", { token, body: { name } }))),
        Promise.all([0, 1, 2].flatMap(() => PORTS.map(cron))),
      ]);
      // A refusal shows its body (which 503 it was: its message names the cause).
      expect(creates.map((res) => (res.status === 201 ? 201 : `${res.status} ${JSON.stringify(res.body)}`))).toEqual(
        names.map(() => 201),
      );
      const deadline = Date.now() + 20_000;
      while (receiver.received.length < names.length && Date.now() < deadline) {
        await Promise.all(PORTS.map(cron));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // time for a second delivery, were there one
      const ids = receiver.received.map((r) => r.headers["webhook-id"]);
      expect(new Set(ids).size).toBe(ids.length);
      const delivered = receiver.received.map((r) => JSON.parse(r.body).data.name).sort();
      expect(delivered).toEqual([...names].sort());
    } finally {
      await receiver.close();
    }
  });
});
