// The API's rate limits as a client sees them (statuses, headers, bodies), on both backends: @upstash/ratelimit on
// the local Redis through the REST emulator, and the in-process limiter. Limits are small and set per test.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { prisma } from "@/lib/db/client";
import { createApiToken, generateTokenValue } from "@/lib/tokens";
import { startUpstashEmulator, type UpstashEmulator } from "@/scripts/upstash-emulator";
import { type ApiResult, call, userByEmail } from "../support/api";
import { startAppInstance } from "../support/app-instance";
import { spyOnLog } from "../support/log";

let emulator: UpstashEmulator;
beforeAll(async () => {
  emulator = await startUpstashEmulator();
});
afterAll(async () => {
  await emulator.close();
});

// Every test counts under its own Redis keys: other test files and other people's runs share this Redis.
const run = `test:${Date.now().toString(36)}:${Math.random().toString(36).slice(2, 8)}`;
let testNumber = 0;

beforeEach(() => {
  // Start each test just after a minute begins: the N+1st request is then refused however long the test takes,
  // where a minute boundary in the middle would let the sliding window release part of the count.
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: Math.ceil(Date.now() / 60_000) * 60_000 + 1_000 });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

async function newToken(email: string) {
  const user = await userByEmail(email);
  return (await createApiToken(await prisma(), { tenantId: user.tenantId, userId: user.id }, "rate limit test")).token;
}

const seconds = (res: ApiResult, header: string) => Number(res.headers.get(header));

function expectRefused(res: ApiResult, limit: number, windowSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ message: expect.stringMatching(/^Too many requests/) });
  expect(res.headers.get("x-ratelimit-limit")).toBe(String(limit));
  expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
  expect(Number.isInteger(seconds(res, "retry-after"))).toBe(true);
  expect(seconds(res, "retry-after")).toBeGreaterThanOrEqual(1);
  expect(seconds(res, "retry-after")).toBeLessThanOrEqual(windowSeconds);
}

const backends = [
  {
    name: "Upstash REST on Redis",
    shared: true,
    env: () => ({ UPSTASH_REDIS_REST_URL: emulator.url, UPSTASH_REDIS_REST_TOKEN: emulator.token }),
  },
  { name: "in-process", shared: false, env: () => ({}) },
];

describe.each(backends)("API rate limits, $name", (backend) => {
  const limits = (settings: Record<string, string>) => ({
    RATE_LIMIT_KEY_PREFIX: `${run}:${++testNumber}`,
    RATE_LIMIT_PER_MINUTE: "100",
    ...settings,
    ...backend.env(),
  });

  it("refuses a token's request over its per-minute limit with 429, while another token of the same user goes on", async () => {
    const app = await startAppInstance(limits({ RATE_LIMIT_PER_MINUTE: "3" }));
    const [token, otherToken] = [await newToken("owner@acme.test"), await newToken("owner@acme.test")];

    for (const remaining of [2, 1, 0]) {
      const res = await call(app.me, "GET", "me", { token });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("3");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(remaining));
      expect(seconds(res, "x-ratelimit-reset")).toBeGreaterThanOrEqual(1);
      expect(seconds(res, "x-ratelimit-reset")).toBeLessThanOrEqual(60);
      expect(res.headers.get("retry-after")).toBeNull();
    }
    const refused = await call(app.me, "GET", "me", { token });
    expectRefused(refused, 3, 60);
    expect(seconds(refused, "retry-after")).toBe(seconds(refused, "x-ratelimit-reset"));

    const other = await call(app.me, "GET", "me", { token: otherToken });
    expect(other.status).toBe(200);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("2");
  });

  it.runIf(backend.shared)("holds across app instances that share Redis", async () => {
    const settings = limits({ RATE_LIMIT_PER_MINUTE: "3" });
    const [first, second] = [await startAppInstance(settings), await startAppInstance(settings)];
    const token = await newToken("admin@acme.test");

    expect((await call(first.me, "GET", "me", { token })).status).toBe(200);
    expect((await call(second.me, "GET", "me", { token })).status).toBe(200);
    expect((await call(first.me, "GET", "me", { token })).headers.get("x-ratelimit-remaining")).toBe("0");
    expectRefused(await call(second.me, "GET", "me", { token }), 3, 60);
  });

  it.runIf(backend.shared)("names tokens and users in Redis by id, never by their secret", async () => {
    const settings = limits({ RATE_LIMIT_USER_PER_HOUR: "10" });
    const app = await startAppInstance(settings);
    const token = await newToken("viewer@acme.test");
    expect((await call(app.me, "GET", "me", { token })).status).toBe(200);

    const res = await fetch(emulator.url, {
      method: "POST",
      headers: { Authorization: `Bearer ${emulator.token}` },
      body: JSON.stringify(["KEYS", `${settings.RATE_LIMIT_KEY_PREFIX}:*`]),
    });
    const { result: keys } = (await res.json()) as { result: string[] };
    // prefix:limiter:tenant id:token or user id:window
    expect(keys.sort()).toEqual([
      expect.stringMatching(new RegExp(`^${settings.RATE_LIMIT_KEY_PREFIX}:api:token:\\d+:\\d+:\\d+$`)),
      expect.stringMatching(new RegExp(`^${settings.RATE_LIMIT_KEY_PREFIX}:api:user-hour:\\d+:\\d+:\\d+$`)),
    ]);
    for (const key of keys) expect(key).not.toContain(token.slice(4));
  });

  it("gives a named endpoint its lower limit, without using up the rest of the API", async () => {
    const app = await startAppInstance(limits({ RATE_LIMIT_PER_MINUTE: "10", RATE_LIMIT_SEARCH_PER_MINUTE: "2" }));
    const token = await newToken("standard@acme.test");

    for (const remaining of [1, 0]) {
      const res = await call(app.search, "GET", "clients/search?q=a", { token });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("2");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(remaining));
    }
    expectRefused(await call(app.search, "GET", "clients/search?q=a", { token }), 2, 60);

    const elsewhere = await call(app.me, "GET", "me", { token });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get("x-ratelimit-limit")).toBe("10");
  });

  it("can limit a user per hour across all their tokens", async () => {
    const app = await startAppInstance(limits({ RATE_LIMIT_USER_PER_HOUR: "3" }));
    const [token, otherToken] = [await newToken("owner@birch.test"), await newToken("owner@birch.test")];

    expect((await call(app.me, "GET", "me", { token })).status).toBe(200);
    expect((await call(app.me, "GET", "me", { token: otherToken })).status).toBe(200);
    const last = await call(app.me, "GET", "me", { token });
    expect(last.status).toBe(200);
    expect(last.headers.get("x-ratelimit-limit")).toBe("3");
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");
    expectRefused(await call(app.me, "GET", "me", { token: otherToken }), 3, 3600);

    expect((await call(app.me, "GET", "me", { token: await newToken("owner@acme.test") })).status).toBe(200);
  });

  it("limits requests without a valid token per client address, as a trusted proxy reports it", async () => {
    const app = await startAppInstance(limits({ RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: "2", TRUST_PROXY: "true" }));
    const from = (address: string) => ({ "X-Forwarded-For": `${address}, 10.0.0.1` });
    const attacker = from("203.0.113.9");

    for (const [remaining, token] of [
      [1, generateTokenValue()],
      [0, null],
    ] as const) {
      const res = await call(app.me, "GET", "me", { token, headers: attacker });
      expect(res.status).toBe(401);
      expect(res.headers.get("x-ratelimit-limit")).toBe("2");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(remaining));
    }
    expectRefused(await call(app.me, "GET", "me", { token: generateTokenValue(), headers: attacker }), 2, 60);
    expectRefused(await call(app.me, "GET", "me", { token: "not-a-token", headers: attacker }), 2, 60);
    expect(
      (await call(app.me, "GET", "me", { token: generateTokenValue(), headers: from("198.51.100.4") })).status,
    ).toBe(401);
  });

  it("never lets a flood of bad tokens make a valid token fail, from the same address", async () => {
    const app = await startAppInstance(limits({ RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: "60", TRUST_PROXY: "true" }));
    const headers = { "X-Forwarded-For": "10.2.2.2" };
    for (let i = 0; i < 60; i++) await call(app.me, "GET", "me", { token: generateTokenValue(), headers });
    expectRefused(await call(app.me, "GET", "me", { token: generateTokenValue(), headers }), 60, 60);

    const valid = await call(app.me, "GET", "me", { token: await newToken("owner@acme.test"), headers });
    expect(valid.status).toBe(200);
    expect(valid.headers.get("x-ratelimit-limit")).toBe("100"); // judged by the token's own limit
  });

  it("ignores a client's X-Forwarded-For without a trusted proxy: every address it claims shares one bucket", async () => {
    const app = await startAppInstance(limits({ RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: "2", TRUST_PROXY: "" }));
    const claiming = (address: string) => ({ "X-Forwarded-For": address, "X-Real-IP": address });
    expect((await call(app.me, "GET", "me", { headers: claiming("192.0.2.1") })).status).toBe(401);
    expect((await call(app.me, "GET", "me", { headers: claiming("192.0.2.2") })).status).toBe(401);
    expectRefused(await call(app.me, "GET", "me", { headers: claiming("192.0.2.3") }), 2, 60);
    const token = await newToken("owner@acme.test");
    expect((await call(app.me, "GET", "me", { token, headers: claiming("192.0.2.4") })).status).toBe(200);
  });

  it("puts the headers on error answers too", async () => {
    const app = await startAppInstance(limits({}));
    const token = await newToken("admin@acme.test");
    const answers = [
      await call(app.me, "GET", "me"),
      await call(app.missingRecord, "GET", "clients/999", { token }),
      await call(app.unknownPath, "GET", "nope", { token }),
      await call(app.me, "DELETE", "me", { token }),
    ];
    expect(answers.map((res) => res.status)).toEqual([401, 404, 404, 405]);
    for (const res of answers) {
      expect(res.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
      expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
      expect(res.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
    }
  });
});

describe("when Upstash Redis cannot be reached", () => {
  const unreachable = (url: string) => ({
    RATE_LIMIT_KEY_PREFIX: `${run}:${++testNumber}`,
    RATE_LIMIT_PER_MINUTE: "1",
    UPSTASH_REDIS_REST_URL: url,
    UPSTASH_REDIS_REST_TOKEN: "t",
  });

  it("keeps answering, and logs once rather than per request", async () => {
    const stopped = await startUpstashEmulator();
    await stopped.close();
    const log = spyOnLog("error");
    const app = await startAppInstance(unreachable(stopped.url));
    const token = await newToken("owner@acme.test");

    for (let i = 0; i < 3; i++) expect((await call(app.me, "GET", "me", { token })).status).toBe(200);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^Rate limiting is off/), expect.anything());
  });

  it("does not wait long on a Redis that never answers", async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const log = spyOnLog("error");
    const app = await startAppInstance(unreachable(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`));
    const token = await newToken("owner@acme.test");
    try {
      const started = performance.now();
      expect((await call(app.me, "GET", "me", { token })).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(log).toHaveBeenCalledOnce();
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
