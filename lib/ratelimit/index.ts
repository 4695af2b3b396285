// Rate limiting behind one small interface, used by the API and by sign-in. With UPSTASH_REDIS_REST_URL and
// UPSTASH_REDIS_REST_TOKEN set, limits are counted in Redis and shared by all instances (./upstash.ts); otherwise in
// process. The in-process limiter counts with the same sliding-window approximation as @upstash/ratelimit: the
// current fixed window's count plus the previous window's count weighted by how much of it still overlaps the
// sliding window.
import { UpstashLimiter, upstashFromEnv } from "./upstash";

export interface RateLimitResult {
  success: boolean;
  limit: number;
  remaining: number;
  /** When the current window ends, epoch milliseconds. */
  reset: number;
}

export interface RateLimiter {
  /** Counts one use of the key and says whether it was within the limit. */
  limit(key: string): Promise<RateLimitResult>;
  /** How many uses the key has left in the window, counting none. */
  remaining(key: string): Promise<number>;
  /** Takes back one counted use of the key (one that turned out not to count, such as a sign-in that succeeded). */
  refund(key: string): Promise<void>;
}

export interface RateLimitRule {
  /** Names the limiter; keys of different limiters never collide. */
  prefix: string;
  limit: number;
  windowMs: number;
  /**
   * What a Redis-backed limiter does while Redis is out: `allow` everything (the API: availability first), or
   * `count-in-process`, each instance on its own (sign-in: its limits must never switch off). Default `allow`.
   */
  duringOutage?: "allow" | "count-in-process";
}

/** The limiter for a rule, on the backend the environment names. */
export function createRateLimiter(rule: RateLimitRule): RateLimiter {
  const upstash = upstashFromEnv();
  if (!upstash) return new InProcessLimiter(rule);
  const fallback = rule.duringOutage === "count-in-process" ? new InProcessLimiter(rule) : undefined;
  // Every Redis key starts with RATE_LIMIT_KEY_PREFIX, so that deployments (or test runs) can share one Redis.
  return new UpstashLimiter(rule, upstash, process.env.RATE_LIMIT_KEY_PREFIX || "cjt:ratelimit", fallback);
}

export class InProcessLimiter implements RateLimiter {
  private readonly windows = new Map<string, number>();

  constructor(
    private readonly rule: RateLimitRule,
    // Read at each call, not captured when the limiter is made: a test's fake clock then applies to limiters made
    // when their module loaded.
    private readonly now: () => number = () => Date.now(),
  ) {}

  async limit(key: string): Promise<RateLimitResult> {
    const { limit, windowMs } = this.rule;
    const { used, currentKey, currentCount, current } = this.usage(key);
    const reset = (current + 1) * windowMs;
    if (used >= limit) return { success: false, limit, remaining: 0, reset };
    this.windows.set(currentKey, currentCount + 1);
    this.forgetOlderThan(current - 1);
    return { success: true, limit, remaining: Math.max(0, limit - used - 1), reset };
  }

  async remaining(key: string): Promise<number> {
    return Math.max(0, this.rule.limit - this.usage(key).used);
  }

  async refund(key: string): Promise<void> {
    const { currentKey, currentCount } = this.usage(key);
    if (currentCount > 0) this.windows.set(currentKey, currentCount - 1);
  }

  /** The sliding window's count for the key now: the current window's count plus the overlapping part of the last. */
  private usage(key: string) {
    const { windowMs, prefix } = this.rule;
    const now = this.now();
    const current = Math.floor(now / windowMs);
    const currentKey = `${prefix}:${key}:${current}`;
    const previousCount = this.windows.get(`${prefix}:${key}:${current - 1}`) ?? 0;
    const currentCount = this.windows.get(currentKey) ?? 0;
    const overlap = 1 - (now % windowMs) / windowMs;
    return { used: Math.floor(previousCount * overlap) + currentCount, currentKey, currentCount, current };
  }

  private forgetOlderThan(window: number) {
    if (this.windows.size < 10_000) return;
    for (const key of this.windows.keys()) {
      if (Number(key.slice(key.lastIndexOf(":") + 1)) < window) this.windows.delete(key);
    }
  }
}
