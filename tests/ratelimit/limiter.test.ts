// The limiter interface on both backends: counting uses, and reading what is left without counting one.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createRateLimiter, InProcessLimiter } from "@/lib/ratelimit";
import { startUpstashEmulator, type UpstashEmulator } from "@/scripts/upstash-emulator";
import { spyOnLog } from "../support/log";

let emulator: UpstashEmulator;
beforeAll(async () => {
  emulator = await startUpstashEmulator();
});
afterAll(async () => {
  await emulator.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

// Its own keys per run: other test files and other people's runs share this Redis.
const run = `test:limiter:${Date.now().toString(36)}:${Math.random().toString(36).slice(2, 8)}`;

const backends = [
  {
    name: "Upstash REST on Redis",
    create: (limit: number) => {
      vi.stubEnv("UPSTASH_REDIS_REST_URL", emulator.url);
      vi.stubEnv("UPSTASH_REDIS_REST_TOKEN", emulator.token);
      vi.stubEnv("RATE_LIMIT_KEY_PREFIX", run);
      return createRateLimiter({ prefix: "remaining", limit, windowMs: 60 * 60_000 });
    },
  },
  {
    name: "in-process",
    create: (limit: number) => new InProcessLimiter({ prefix: "remaining", limit, windowMs: 60 * 60_000 }),
  },
];

describe.each(backends)("a rate limiter, $name", ({ create }) => {
  it("reports what a key has left without counting a use, and refuses once nothing is left", async () => {
    const limiter = create(3);
    const key = `key-${Math.random().toString(36).slice(2)}`;
    expect(await limiter.remaining(key)).toBe(3);
    expect(await limiter.remaining(key)).toBe(3);
    expect(await limiter.limit(key)).toMatchObject({ success: true, remaining: 2 });
    expect(await limiter.remaining(key)).toBe(2);
    await limiter.limit(key);
    await limiter.limit(key);
    expect(await limiter.remaining(key)).toBe(0);
    expect((await limiter.limit(key)).success).toBe(false);
    expect(await limiter.remaining(key)).toBe(0);
    expect(await limiter.remaining(`${key}-other`)).toBe(3);
  });
});

describe("an Upstash limiter while this process's event loop is blocked", () => {
  it("waits for Redis's answer instead of failing open: a busy process never switches limits off", async () => {
    const log = spyOnLog("error");
    const limiter = backends[0].create(3);
    const key = `blocked-${Math.random().toString(36).slice(2)}`;
    // Work on the main thread past the 1 s Redis deadline, as a burst of password checks once did: right after the
    // first call to Redis has gone out, while its answer is on the way.
    const send = globalThis.fetch;
    const fetch = vi.spyOn(globalThis, "fetch").mockImplementationOnce((...request) => {
      const answer = send(...request);
      const until = performance.now() + 1_500;
      while (performance.now() < until) {}
      return answer;
    });
    expect(await limiter.limit(key)).toMatchObject({ success: true, remaining: 2 });
    fetch.mockRestore();
    expect((await limiter.limit(key)).success).toBe(true);
    expect((await limiter.limit(key)).success).toBe(true);
    expect((await limiter.limit(key)).success).toBe(false);
    expect(log).not.toHaveBeenCalled();
    log.mockRestore();
  });
});
