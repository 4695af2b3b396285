// Sign-in limits on Upstash Redis, and what happens to them when Redis cannot be reached: unlike the API's limits
// (which fail open), they go on counting in process.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SIGN_IN_RATE_LIMITED } from "@/lib/auth/sign-in-errors";
import { DEMO_PASSWORD } from "@/lib/demo/seed";
import { startUpstashEmulator, type UpstashEmulator } from "@/scripts/upstash-emulator";
import { spyOnLog } from "../support/log";
import { wrong } from "../support/sign-in";

let emulator: UpstashEmulator;
beforeAll(async () => {
  emulator = await startUpstashEmulator();
});
afterAll(async () => {
  await emulator.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A fresh sign-in module (its limiters built anew from the environment), as a new server instance would load it. */
async function signInModule(upstashUrl: string) {
  vi.stubEnv("UPSTASH_REDIS_REST_URL", upstashUrl);
  vi.stubEnv("UPSTASH_REDIS_REST_TOKEN", emulator.token);
  vi.stubEnv("RATE_LIMIT_KEY_PREFIX", `test:${Date.now().toString(36)}:${Math.random().toString(36).slice(2, 8)}`);
  vi.stubEnv("TRUST_PROXY", "true");
  vi.resetModules();
  return import("@/lib/auth/sign-in");
}

const noWait = async () => {};
const attacker = { "x-forwarded-for": "203.0.113.66" };

async function tenWrongThenRight(authorizeSignIn: Awaited<ReturnType<typeof signInModule>>["authorizeSignIn"]) {
  for (let attempt = 1; attempt <= 10; attempt++) {
    expect(await wrong(authorizeSignIn({ email: "viewer@acme.test", password: "wrong" }, attacker, noWait))).toBeNull();
  }
  return authorizeSignIn({ email: "viewer@acme.test", password: DEMO_PASSWORD }, attacker, noWait);
}

describe("sign-in limits on Upstash Redis", () => {
  it("refuse an address after 10 wrong passwords for one email", async () => {
    const { authorizeSignIn } = await signInModule(emulator.url);
    await expect(tenWrongThenRight(authorizeSignIn)).rejects.toThrow(SIGN_IN_RATE_LIMITED);
  });

  it("go on counting in process when Redis cannot be reached, instead of switching off", async () => {
    const stopped = await startUpstashEmulator();
    await stopped.close();
    const log = spyOnLog("error");
    const { authorizeSignIn } = await signInModule(stopped.url);
    await expect(tenWrongThenRight(authorizeSignIn)).rejects.toThrow(SIGN_IN_RATE_LIMITED);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/sign-in limits count in process/), expect.anything());
  });
});

describe("sign-in limits when Redis goes away mid-way", () => {
  it("go on from the counts so far instead of starting again from zero", async () => {
    const going = await startUpstashEmulator();
    const log = spyOnLog("error");
    const { authorizeSignIn } = await signInModule(going.url);
    for (let attempt = 1; attempt <= 6; attempt++) {
      expect(
        await wrong(authorizeSignIn({ email: "viewer@acme.test", password: "wrong" }, attacker, noWait)),
      ).toBeNull();
    }
    await going.close();
    for (let attempt = 7; attempt <= 10; attempt++) {
      expect(
        await wrong(authorizeSignIn({ email: "viewer@acme.test", password: "wrong" }, attacker, noWait)),
      ).toBeNull();
    }
    await expect(
      authorizeSignIn({ email: "viewer@acme.test", password: DEMO_PASSWORD }, attacker, noWait),
    ).rejects.toThrow(SIGN_IN_RATE_LIMITED);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/sign-in limits count in process/), expect.anything());
  });
});
