// Where each caller's last write is kept (its WAL position on the primary), for read-your-writes on replicas
// (replicas.ts): in Redis when the app has one (UPSTASH_REDIS_REST_URL/TOKEN), so that a write on one instance
// holds a read on another to it; in process otherwise. Each entry expires after the set's sticky time.
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
