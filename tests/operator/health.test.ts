// GET /api/health: what a load balancer or a deploy step reads to decide whether an instance may take traffic.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET } from "@/app/api/health/route";
import { GET as liveGET } from "@/app/api/live/route";
import { prisma } from "@/lib/db/client";
import { listMigrations } from "@/lib/db/migrations";
import { startUpstashEmulator, type UpstashEmulator } from "@/scripts/upstash-emulator";
import { spyOnLog } from "../support/log";

let emulator: UpstashEmulator;
beforeAll(async () => {
  emulator = await startUpstashEmulator();
});
afterAll(() => emulator.close());
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

async function health() {
  const response = await GET(new Request("http://localhost/api/health"));
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return { status: response.status, body: await response.json() };
}

describe("GET /api/health", () => {
  it("is 200 with a reachable, fully migrated database and the in-memory rate-limit store", async () => {
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body).toEqual({
      status: "ok",
      database: {
        kind: process.env.DATABASE_URL ? "postgres" : "pglite",
        reachable: true,
        writable: true,
        migrations: { up_to_date: true, applied: (await listMigrations()).length, pending: [] },
      },
      rate_limit: { store: "memory", reachable: true },
    });
  });

  it("is 503 naming the migrations that this build has and the database lacks", async () => {
    const [latest] = (await listMigrations()).slice(-1);
    const client = await prisma();
    const row = await client.$queryRaw<
      object[]
    >`SELECT * FROM "_prisma_migrations" WHERE migration_name = ${latest.name}`;
    await client.$executeRaw`DELETE FROM "_prisma_migrations" WHERE migration_name = ${latest.name}`;
    try {
      const { status, body } = await health();
      expect(status).toBe(503);
      expect(body.status).toBe("unavailable");
      expect(body.database.migrations).toMatchObject({ up_to_date: false, pending: [latest.name] });
    } finally {
      const [r] = row as { id: string; checksum: string; started_at: Date; finished_at: Date }[];
      await client.$executeRaw`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
        VALUES (${r.id}, ${r.checksum}, ${latest.name}, ${r.started_at}, ${r.finished_at}, 1)`;
    }
    expect((await health()).status).toBe(200);
  });

  it("is 503 when the database cannot be reached, without leaking the cause", async () => {
    const log = spyOnLog("error");
    vi.stubEnv("DATABASE_URL", "postgresql://app:s3cret@127.0.0.1:1/nowhere");
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body).toMatchObject({ status: "unavailable", database: { kind: "postgres", reachable: false } });
    expect(JSON.stringify(body)).not.toMatch(/s3cret|127\.0\.0\.1|ECONNREFUSED/);
    expect(log).toHaveBeenCalled();
  });

  it("reports Upstash as the rate-limit store, and whether it answers (the API fails open without it)", async () => {
    vi.stubEnv("UPSTASH_REDIS_REST_URL", emulator.url);
    vi.stubEnv("UPSTASH_REDIS_REST_TOKEN", emulator.token);
    expect(await health()).toMatchObject({ status: 200, body: { rate_limit: { store: "upstash", reachable: true } } });

    spyOnLog("error");
    vi.stubEnv("UPSTASH_REDIS_REST_TOKEN", "wrong-token");
    expect(await health()).toMatchObject({
      status: 200,
      body: { status: "ok", rate_limit: { store: "upstash", reachable: false } },
    });
  });
});

describe("GET /api/health while Upstash is away", () => {
  it("logs one line when Upstash goes away and one when it is back, not one per call", async () => {
    vi.stubEnv("UPSTASH_REDIS_REST_URL", emulator.url);
    vi.stubEnv("UPSTASH_REDIS_REST_TOKEN", emulator.token);
    expect((await health()).body.rate_limit.reachable).toBe(true);

    const errors = spyOnLog("error");
    vi.stubEnv("UPSTASH_REDIS_REST_TOKEN", "wrong-token");
    for (let i = 0; i < 5; i++) expect((await health()).body.rate_limit.reachable).toBe(false);
    const aboutUpstash = () => errors.mock.calls.filter(([message]) => /rate-limit store/.test(message));
    expect(aboutUpstash()).toHaveLength(1);

    vi.stubEnv("UPSTASH_REDIS_REST_TOKEN", emulator.token);
    expect((await health()).body.rate_limit.reachable).toBe(true);
    vi.stubEnv("UPSTASH_REDIS_REST_TOKEN", "wrong-token");
    for (let i = 0; i < 3; i++) await health();
    // Away again after it came back: a second line.
    expect(aboutUpstash()).toHaveLength(2);
  });
});

describe("GET /api/live", () => {
  it("answers 200 JSON without touching the database, so an outage does not get the process restarted", async () => {
    vi.stubEnv("DATABASE_URL", "postgresql://app:s3cret@127.0.0.1:1/nowhere");
    const response = liveGET();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok" });
  });
});
