// The limiter on Upstash Redis over REST (@upstash/ratelimit), shared by every app instance. If Redis cannot be
// reached the API keeps answering (fail open): a check that fails or outlasts REDIS_TIMEOUT_MS lets the request
// through, Redis is then left alone for FAIL_OPEN_MS so that no request waits on it, and one line is logged. Only Redis's own silence counts (decisions.md, "Security"): the deadline does not run while this
// process's event loop is blocked, so a burst of work here (sign-in's password checks) cannot switch limits off.
// A limiter given a fallback (sign-in's) also counts every use in process, and answers from those counts while
// Redis is out: its limits never switch off and never start again from zero.
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import { logError } from "@/lib/core/log";
import type { RateLimiter, RateLimitResult, RateLimitRule } from "./index";

const REDIS_TIMEOUT_MS = 1_000;
/** How long Redis is left alone once a call failed: by the limiters, and by read replicas' write positions. */
export const FAIL_OPEN_MS = 30_000;
/** A timer that fires this much later than asked was held up by the event loop, not by Redis. */
const LOOP_LAG_MS = 50;
/** However busy the event loop, a call is given up after this long. */
const LONGEST_WAIT_MS = 15_000;

/**
 * The abort signal of one Redis call: it fires once REDIS_TIMEOUT_MS have passed with the event loop running on time.
 * When the loop was blocked (a timer fires late), Redis's answer may be waiting unread behind the blocking work: the
 * deadline is moved by the time the loop was late, so the answer is read before the call is given up.
 */
export function redisDeadline(timeoutMs = REDIS_TIMEOUT_MS, now: () => number = () => performance.now()): AbortSignal {
  const controller = new AbortController();
  const start = now();
  const arm = (wait: number) => {
    const due = now() + wait;
    const timer = setTimeout(() => {
      const late = now() - due;
      if (late > LOOP_LAG_MS && now() - start < LONGEST_WAIT_MS) return arm(Math.min(late, timeoutMs));
      controller.abort(new DOMException(`Redis did not answer within ${timeoutMs} ms`, "TimeoutError"));
    }, wait);
    timer.unref?.();
  };
  arm(timeoutMs);
  return controller.signal;
}

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
      signal: () => redisDeadline(),
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
        await this.fallback?.limit(key);
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

  async refund(key: string): Promise<void> {
    await this.fallback?.refund(key);
    await this.failingOpen(
      async () => {
        await this.ratelimit.limit(key, { rate: -1 });
      },
      async () => {},
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
        logError(
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
