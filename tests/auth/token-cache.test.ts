// Authentication from this instance's cache (lib/auth/token-cache.ts): repeated requests of a token skip the
// lookup, and every change that ends or narrows a token's use, made by any connection (here: another "instance"'s
// session, not this process's pool), is refused on the very next request.
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import * as me from "@/app/api/v1/me/route";
import { closeDatabase, type Database, database } from "@/lib/db/client";
import { createApiToken } from "@/lib/tokens";
import { call, userByEmail } from "../support/api";
import { startFaultProxy } from "../support/fault-proxy";

const postgres = Boolean(process.env.DATABASE_URL);
let other: pg.Client | undefined;

beforeAll(async () => {
  if (postgres) {
    other = new pg.Client({ connectionString: process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL });
    await other.connect();
  }
});
afterAll(async () => {
  await other?.end();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A statement from outside this process's pool on PostgreSQL (as another instance writes); PGlite has one process. */
async function elsewhere(sql: string, values: unknown[] = []) {
  if (other) await other.query(sql, values);
  else await (await database()).pglite!.query(sql, values);
}

/** Counts the token lookups this process sends (authentication's one query, lib/api/authenticate.ts). */
async function countLookups(db: Database) {
  const read = vi.spyOn(db, "read");
  return () => read.mock.calls.filter(([statement]) => statement.text.includes("FROM api_tokens t")).length;
}

async function freshToken(email = "admin@acme.test", name = "cached") {
  const user = await userByEmail(email);
  const db = await database();
  const { token, summary } = await createApiToken(db.prisma, { tenantId: user.tenantId, userId: user.id }, name);
  return { token, id: summary.id, user };
}

/** Requests /me until one is answered from the cache (the listener opens on first use), at most for 5 s. */
async function untilCached(token: string, lookups: () => number) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const before = lookups();
    const res = await call(me, "GET", "me", { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (lookups() === before) return;
    if (Date.now() > deadline) throw new Error("authentication never answered from its cache");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the authentication cache", () => {
  it("answers repeated requests of a token without looking it up again", async () => {
    const lookups = await countLookups(await database());
    const { token } = await freshToken();
    await untilCached(token, lookups);
    const before = lookups();
    for (let i = 0; i < 5; i++) expect((await call(me, "GET", "me", { token })).status).toBe(200);
    expect(lookups()).toBe(before);
  });

  it.each([
    ["the token is revoked", "DELETE FROM api_tokens WHERE tenant_id = $1 AND id = $2"],
    [
      "the token expires",
      "UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE tenant_id = $1 AND id = $2",
    ],
    [
      "its user is archived",
      "UPDATE users SET archived_date = current_date WHERE (tenant_id, id) = (SELECT tenant_id, user_id FROM api_tokens WHERE tenant_id = $1 AND id = $2)",
    ],
  ])("refuses a cached token on the next request once %s elsewhere", async (_, sql) => {
    const lookups = await countLookups(await database());
    const { token, id, user } = await freshToken();
    await untilCached(token, lookups);
    await elsewhere(sql, [user.tenantId, id]);
    const res = await call(me, "GET", "me", { token });
    expect(res.status).toBe(401);
  });

  it("narrows a cached token's access and its role's permissions on the next request", async () => {
    const lookups = await countLookups(await database());
    const { token, id, user } = await freshToken("standard@acme.test", "narrowed");
    await untilCached(token, lookups);
    expect((await call(clients, "GET", "clients", { token })).status).toBe(200);

    await elsewhere(`UPDATE api_tokens SET access = access || '{"clients": "none"}' WHERE tenant_id = $1 AND id = $2`, [
      user.tenantId,
      id,
    ]);
    expect((await call(clients, "GET", "clients", { token })).status).toBe(403);

    const { token: second } = await freshToken("standard@acme.test", "role narrowed");
    await untilCached(second, lookups);
    expect((await call(clients, "POST", "clients", { token: second, body: {} })).status).not.toBe(403);
    await elsewhere(
      "UPDATE roles SET permissions = array_remove(permissions, 'clients.create') WHERE tenant_id = $1 AND id = $2",
      [user.tenantId, user.roleId],
    );
    expect((await call(clients, "POST", "clients", { token: second, body: {} })).status).toBe(403);
  });
});

describe.runIf(postgres)("the authentication cache without its listener", () => {
  it("is not used once the listener's session is gone, and is used again once it is back", async () => {
    const db = await database();
    const lookups = await countLookups(db);
    const { token, id, user } = await freshToken("owner@acme.test", "unheard");
    await untilCached(token, lookups);

    await elsewhere(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'cjt-auth-listener'",
    );
    // A change no notification tells of (triggers off for that session): only the database knows.
    await other!.query("SET session_replication_role = replica");
    try {
      await other!.query("DELETE FROM api_tokens WHERE tenant_id = $1 AND id = $2", [user.tenantId, id]);
    } finally {
      await other!.query("SET session_replication_role = origin");
    }
    // The listener's end may take a moment to reach this process; until then the sync on it fails, which is the same.
    const before = lookups();
    expect((await call(me, "GET", "me", { token })).status).toBe(401);
    expect(lookups()).toBe(before + 1);

    // Reopened on a later request: a new token is answered from the cache again.
    const { token: next } = await freshToken("owner@acme.test", "heard again");
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await untilCached(next, lookups);
  });
  it("is not used behind PgBouncer without a direct URL, where a LISTEN would hear nothing", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const pooled = new URL(process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL!);
    pooled.searchParams.set("pgbouncer", "true");
    vi.stubEnv("DATABASE_URL", pooled.toString());
    vi.stubEnv("DIRECT_DATABASE_URL", "");
    try {
      const lookups = await countLookups(await database());
      const { token } = await freshToken("viewer@acme.test", "pooled");
      for (let i = 0; i < 5; i++) {
        expect((await call(me, "GET", "me", { token })).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      expect(lookups()).toBe(5);
      expect(log).toHaveBeenCalledTimes(1);
      expect(String(log.mock.calls[0][1])).toMatch(/DIRECT_DATABASE_URL/);
    } finally {
      await closeDatabase();
      vi.unstubAllEnvs();
    }
  });

  it("is not used when its listener hears nothing of what the app's pool announces (a LISTEN through a pooler)", async () => {
    // A session that answers every statement but is never told of this database's changes: another database of
    // the same server, as a transaction-mode pooler's LISTEN is (its syncs succeed, its notifications never come).
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const deaf = new URL(process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL!);
    deaf.pathname = "/postgres";
    await closeDatabase();
    vi.stubEnv("DIRECT_DATABASE_URL", deaf.toString());
    try {
      const lookups = await countLookups(await database());
      const { token, id, user } = await freshToken("viewer@acme.test", "deaf");
      for (let i = 0; i < 3; i++) {
        expect((await call(me, "GET", "me", { token })).status).toBe(200);
        // The listener's proof takes its own time to fail: give it that, then ask again.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      }
      expect(lookups()).toBe(3);
      await elsewhere("DELETE FROM api_tokens WHERE tenant_id = $1 AND id = $2", [user.tenantId, id]);
      expect((await call(me, "GET", "me", { token })).status).toBe(401);
      expect(log.mock.calls.map((args) => String(args[1])).join("\n")).toMatch(/did not hear a notification/);
    } finally {
      await closeDatabase();
      vi.unstubAllEnvs();
    }
  });

  // CI's PgBouncer lane (transaction mode): the listener told to LISTEN through the pooler itself.
  it.runIf(new URL(process.env.DATABASE_URL ?? "postgresql://x/y").searchParams.get("pgbouncer") === "true")(
    "is not used when it listens through PgBouncer in transaction mode",
    async () => {
      const log = vi.spyOn(console, "error").mockImplementation(() => {});
      const throughPooler = new URL(process.env.DATABASE_URL!);
      throughPooler.searchParams.delete("pgbouncer");
      await closeDatabase();
      vi.stubEnv("DIRECT_DATABASE_URL", throughPooler.toString());
      try {
        const lookups = await countLookups(await database());
        const { token } = await freshToken("viewer@acme.test", "pooled listener");
        for (let i = 0; i < 3; i++) {
          expect((await call(me, "GET", "me", { token })).status).toBe(200);
          await new Promise((resolve) => setTimeout(resolve, 1_500));
        }
        expect(lookups()).toBe(3);
        expect(log.mock.calls.map((args) => String(args[1])).join("\n")).toMatch(/did not hear a notification/);
      } finally {
        await closeDatabase();
        vi.unstubAllEnvs();
      }
    },
  );

  it("ends a listener whose sync goes unanswered, so that only one request waits for it", async () => {
    const direct = new URL(process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL!);
    const proxy = await startFaultProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    await closeDatabase();
    vi.stubEnv("DIRECT_DATABASE_URL", proxy.via(direct.toString()));
    try {
      const lookups = await countLookups(await database());
      const { token } = await freshToken("viewer@acme.test", "frozen");
      await untilCached(token, lookups);
      // The listener's connection goes silent, as one dropped while a Vercel instance was frozen.
      await proxy.set("blackhole");
      const before = lookups();
      const started = performance.now();
      for (let i = 0; i < 3; i++) expect((await call(me, "GET", "me", { token })).status).toBe(200);
      const took = performance.now() - started;
      expect(lookups()).toBe(before + 3);
      expect(log.mock.calls.filter((args) => String(args[0]).includes("did not answer"))).toHaveLength(1);
      // One sync wait (1 s), not one per request.
      expect(took).toBeLessThan(2_000);
    } finally {
      await closeDatabase();
      vi.unstubAllEnvs();
      await proxy.close();
    }
  });
});
