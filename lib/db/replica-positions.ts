// Where each caller's last write is kept (its WAL position on the primary), for read-your-writes on replicas
// (replicas.ts): in Redis when the app has one (UPSTASH_REDIS_REST_URL/TOKEN), so that a write on one instance
// holds a read on another to it; in process otherwise. Each entry expires after the set's sticky time.
// With Redis, what this instance wrote is kept in process as well (SharedPositions): Redis that lost its data (a
// restart without persistence, FLUSHALL, an eviction) then never makes a writer's own reads stale.
import { logError } from "@/lib/core/log";
import { lsn, lsnText } from "./replicas";

export interface PositionStore {
  /** The caller's last write's position, if it wrote within the sticky time. */
  get(caller: string): Promise<bigint | undefined>;
  set(caller: string, position: bigint, ttlMs: number): Promise<void>;
}

/** The positions of one process's callers. */
export class InProcessPositions implements PositionStore {
  private readonly entries = new Map<string, { position: bigint; until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async get(caller: string) {
    const entry = this.entries.get(caller);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.position;
    this.entries.delete(caller);
    return undefined;
  }

  async set(caller: string, position: bigint, ttlMs: number) {
    // Expired entries go as new ones come: the map holds at most the callers who wrote within the sticky time.
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (entry.until > now) break;
      this.entries.delete(key);
    }
    const kept = this.entries.get(caller);
    this.entries.delete(caller); // re-inserted last: the map stays in order of expiry
    this.entries.set(caller, {
      position: kept && kept.position > position ? kept.position : position,
      until: now + ttlMs,
    });
  }
}

/** What RedisPositions needs of a Redis client (@upstash/redis's). */
export interface RedisLike {
  get<T = unknown>(key: string): Promise<T | null>;
  set(key: string, value: string, options: { px: number }): Promise<unknown>;
}

/** The positions in Redis, seen by every instance; a failed call fails (the caller then reads from the primary). */
export class RedisPositions implements PositionStore {
  constructor(
    private readonly redis: RedisLike,
    private readonly prefix = "cjt:wal",
  ) {}

  async get(caller: string) {
    const text = await this.redis.get<string>(`${this.prefix}:${caller}`);
    return text === null ? undefined : lsn(String(text));
  }

  async set(caller: string, position: bigint, ttlMs: number) {
    await this.redis.set(`${this.prefix}:${caller}`, lsnText(position), { px: ttlMs });
  }
}

/** Whether a Redis is in an outage: shared with the rate limiter on the same Redis (lib/ratelimit/upstash.ts). */
export interface RedisOutage {
  unavailableUntil: number;
}

/** Thrown by get() while Redis is away: the caller's last write may be on another instance, so read the primary. */
export class PositionUnknown extends Error {}

/**
 * Redis and this process together. A write is kept in both; a read takes the later of the two. Once a Redis call
 * fails, Redis is known away for `outageMs` (one call waits out its deadline, the rest none): writes are kept in
 * process only, and reads go to the primary (decisions.md, Deployment). Logged once per outage.
 */
export class SharedPositions implements PositionStore {
  constructor(
    private readonly redis: PositionStore,
    private readonly local: InProcessPositions,
    private readonly outage: RedisOutage,
    private readonly outageMs: number,
  ) {}

  async get(caller: string) {
    const own = await this.local.get(caller);
    if (this.away()) throw new PositionUnknown("Redis is away");
    let shared: bigint | undefined;
    try {
      shared = await this.redis.get(caller);
    } catch (error) {
      this.wentAway(error);
      throw new PositionUnknown("Redis is away");
    }
    if (shared === undefined) return own;
    return own !== undefined && own > shared ? own : shared;
  }

  async set(caller: string, position: bigint, ttlMs: number) {
    await this.local.set(caller, position, ttlMs);
    if (this.away()) return;
    try {
      await this.redis.set(caller, position, ttlMs);
    } catch (error) {
      this.wentAway(error);
    }
  }

  private away() {
    return Date.now() < this.outage.unavailableUntil;
  }

  private wentAway(error: unknown) {
    // Calls in flight when Redis went away all land here: only the first starts the window and logs.
    if (this.away()) return;
    this.outage.unavailableUntil = Date.now() + this.outageMs;
    logError(
      `Upstash Redis did not answer: for ${this.outageMs / 1000} s rate limiting is off and reads go to the ` +
        "primary (read-your-writes positions: this instance's writes are kept in process).",
      error,
    );
  }
}
