// The limiter on Upstash Redis over REST (@upstash/ratelimit), shared by every app instance. If Redis cannot be
// reached the API keeps answering (fail open): a check that fails or outlasts REDIS_TIMEOUT_MS lets the request
// through, Redis is then left alone for FAIL_OPEN_MS so that no request waits on it, and one line is logged.
// A limiter given a fallback (sign-in's) counts in process during that time instead of letting everything through.
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import type { RateLimiter, RateLimitResult, RateLimitRule } from "./index";

const REDIS_TIMEOUT_MS = 1_000;
const FAIL_OPEN_MS = 30_000;

/** One REST client per Redis, and whether it is in an outage, shared by all limiters on it. */
interface UpstashConnection {
  redis: Redis;
  unavailableUntil: number;
}

const connections = new Map<string, UpstashConnection>();

/** The connection named by UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN, if both are set. */
export function upstashFromEnv(): UpstashConnection | undefined {
  const url = process.env.UPSTASH_REDIS_REST_URL;
  const token = process.env.UPSTASH_REDIS_REST_TOKEN;
  if (!url || !token) return undefined;
  const id = `${url} ${token}`;
  let connection = connections.get(id);
  if (!connection) {
    // The client retries five times with backoff by default; here a request gets one attempt with a deadline.
    const redis = new Redis({
      url,
      token,
      retry: false,
      signal: () => AbortSignal.timeout(REDIS_TIMEOUT_MS),
      enableTelemetry: false,
    });
    connection = { redis, unavailableUntil: 0 };
    connections.set(id, connection);
  }
  return connection;
}

export class UpstashLimiter implements RateLimiter {
  private readonly ratelimit: Ratelimit;

  constructor(
    private readonly rule: RateLimitRule,
    private readonly connection: UpstashConnection,
    keyPrefix: string,
    private readonly fallback?: RateLimiter,
  ) {
    this.ratelimit = new Ratelimit({
      redis: connection.redis,
      limiter: Ratelimit.slidingWindow(rule.limit, `${rule.windowMs} ms`),
      prefix: `${keyPrefix}:${rule.prefix}`,
      // Its own timeout answers "allowed, limit 0"; the client's deadline above fails instead, handled below.
      timeout: 0,
    });
  }

  async limit(key: string): Promise<RateLimitResult> {
    return this.failingOpen(
      async () => {
        const { success, limit, remaining, reset } = await this.ratelimit.limit(key);
        return { success, limit, remaining, reset };
      },
      async () => (this.fallback ? this.fallback.limit(key) : this.uncounted()),
    );
  }

  async remaining(key: string): Promise<number> {
    return this.failingOpen(
      async () => (await this.ratelimit.getRemaining(key)).remaining,
      async () => (this.fallback ? this.fallback.remaining(key) : this.rule.limit),
    );
  }

  /** Runs a Redis call, or answers without Redis (the fallback's count, or nothing used) while Redis is out. */
  private async failingOpen<T>(call: () => Promise<T>, whileOut: () => Promise<T>): Promise<T> {
    if (Date.now() < this.connection.unavailableUntil) return whileOut();
    try {
      return await call();
    } catch (error) {
      // Requests in flight when Redis went away all land here: only the first one starts the interval and logs.
      if (Date.now() >= this.connection.unavailableUntil) {
        this.connection.unavailableUntil = Date.now() + FAIL_OPEN_MS;
        console.error(
          `Rate limiting is off for ${FAIL_OPEN_MS / 1000} s: Upstash Redis did not answer (sign-in limits count in process).`,
          error,
        );
      }
      return whileOut();
    }
  }

  /** The answer while Redis is out: allowed, and reported as if nothing had been used yet. */
  private uncounted(): RateLimitResult {
    const { limit, windowMs } = this.rule;
    return { success: true, limit, remaining: limit, reset: (Math.floor(Date.now() / windowMs) + 1) * windowMs };
  }
}
