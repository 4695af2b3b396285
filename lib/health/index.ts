// What GET /api/health reports: whether this instance can serve (readiness; /api/live is liveness). It must have
// warmed up once (./readiness.ts: "starting" until then), and the database must answer and carry every migration
// of this build (else 503: a load balancer or deploy check should hold traffic back); the rate-limit store is
// reported too, but the API fails open without it, so an unreachable one does not make the instance unhealthy.

import { log, logError } from "@/lib/core/log";
import { type Database, database } from "@/lib/db/client";
import { diskLatelyFull } from "@/lib/db/disk-space";
import { type ReplicaHealth, replicaUrls, serverName } from "@/lib/db/replicas";
import expectedMigrations from "@/lib/generated/migrations.json";
import { upstashFromEnv } from "@/lib/ratelimit/upstash";
import { isWarm, warmUp } from "./readiness";

/**
 * The whole check answers within this bound whatever the database or Redis does (a hung primary, a blackholed
 * host): a balancer's probe times out after a few seconds, and a late answer is no answer to it.
 */
const CHECK_TIMEOUT_MS = 2_000;

export interface HealthReport {
  /** "starting" until the instance has warmed up once (./readiness.ts): not ready, though alive (/api/live). */
  status: "ok" | "starting" | "unavailable";
  database: {
    kind: "postgres" | "pglite";
    reachable: boolean;
    /** False while writes are refused for want of disk space (lib/db/disk-space.ts): the instance cannot serve writes. */
    writable: boolean;
    migrations?: { up_to_date: boolean; applied: number; pending: string[] };
  };
  rate_limit: { store: "upstash" | "memory"; reachable: boolean };
  /**
   * Each read replica (DATABASE_REPLICA_URLS), checked now: named by host, port and database only. One that is
   * unreachable or lags past the bound is not in use (the primary answers its reads): reported, not a 503.
   */
  replicas?: ReplicaHealth[];
}

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`)),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const running = new Map<string, Promise<unknown>>();
/**
 * One check of each part at a time: a probe that arrives while the last one still waits on a hung database joins it
 * rather than taking one more pooled connection into the hang.
 */
function once<T>(what: string, check: () => Promise<T>): Promise<T> {
  let pending = running.get(what) as Promise<T> | undefined;
  if (!pending) {
    pending = check().finally(() => running.delete(what));
    running.set(what, pending);
  }
  return withTimeout(pending, what);
}

const failing = new Set<string>();
/**
 * The cause goes to the server log only (the endpoint is public, and messages can name internal hosts), and once
 * per change: a part that stays away while a balancer probes every second is one line, not one per probe.
 */
function noteCheck(what: string, error?: unknown) {
  if (error === undefined) {
    if (failing.delete(what)) log().info({ part: what }, `Health check: ${what} answers again`);
    return;
  }
  if (failing.has(what)) return;
  failing.add(what);
  logError(`Health check: ${what} failed`, error);
}

/** The replicas as checked now, or nothing when none is configured (or the primary is not open). */
async function checkReplicas(): Promise<ReplicaHealth[] | undefined> {
  if (replicaUrls().length === 0) return undefined;
  try {
    const replicas = await once("the replicas", async () => (await database()).replicas?.health());
    noteCheck("the replicas");
    return replicas;
  } catch (error) {
    noteCheck("the replicas", error);
    return replicaUrls().map((url) => ({
      server: serverName(url),
      reachable: false,
      lag_seconds: null,
      lag_bytes: null,
      in_use: false,
    }));
  }
}

async function checkDatabase(): Promise<HealthReport["database"]> {
  const kind = process.env.DATABASE_URL ? "postgres" : "pglite";
  let db: Database;
  let applied: { migration_name: string }[];
  try {
    [db, applied] = await once("the database", async () => {
      const db = await database();
      return [
        db,
        await db.prisma.$queryRaw<{ migration_name: string }[]>`
          SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      ] as const;
    });
    noteCheck("the database");
  } catch (error) {
    noteCheck("the database", error);
    return { kind, reachable: false, writable: false };
  }
  const done = new Set(applied.map((row) => row.migration_name));
  const pending = expectedMigrations.filter((name) => !done.has(name));
  return {
    kind: db.kind,
    reachable: true,
    writable: !diskLatelyFull(),
    migrations: { up_to_date: pending.length === 0, applied: done.size, pending },
  };
}

async function checkRateLimitStore(): Promise<HealthReport["rate_limit"]> {
  const upstash = upstashFromEnv();
  if (!upstash) return { store: "memory", reachable: true };
  const what = "the rate-limit store (Upstash Redis)";
  try {
    await once(what, () => upstash.redis.ping());
    noteCheck(what);
    return { store: "upstash", reachable: true };
  } catch (error) {
    noteCheck(what, error);
    return { store: "upstash", reachable: false };
  }
}

/** Whether the instance has warmed up, waiting for its warm-up within the check's bound. */
async function checkWarm(): Promise<boolean> {
  if (isWarm()) return true;
  try {
    await once("the warm-up", warmUp);
    return true;
  } catch {
    return false; // a warm-up cut by the bound goes on; a failed one is retried by the next check
  }
}

export async function healthReport(): Promise<HealthReport> {
  const [warm, db, rateLimit, replicas] = await Promise.all([
    checkWarm(),
    checkDatabase(),
    checkRateLimitStore(),
    checkReplicas(),
  ]);
  const healthy = db.reachable && db.writable && db.migrations?.up_to_date === true;
  return {
    status: !healthy ? "unavailable" : warm ? "ok" : "starting",
    database: db,
    rate_limit: rateLimit,
    ...(replicas ? { replicas } : {}),
  };
}
