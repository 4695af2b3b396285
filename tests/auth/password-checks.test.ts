// Password checks under load (issue 28): every attempt is counted before its check, so parallel attempts cannot pass
// a limit; checks run off the event loop and are bounded per instance; a password change is throttled like a
// sign-in; and no failure's own text reaches the visitor.
import { monitorEventLoopDelay } from "node:perf_hooks";
import bcrypt from "bcryptjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { changePassword } from "@/lib/auth/account";
import { comparePassword, MAX_IN_FLIGHT, PasswordChecksBusy } from "@/lib/auth/password-hash";
import { authorizeSignIn } from "@/lib/auth/sign-in";
import { nextWaitSeconds, SIGN_IN_FAILED, SIGN_IN_RATE_LIMITED } from "@/lib/auth/sign-in-errors";
import { DEMO_PASSWORD } from "@/lib/demo/seed";
import { userByEmail } from "../support/api";
import { spyOnLog } from "../support/log";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.doUnmock("@/lib/db/client");
  vi.restoreAllMocks();
});

const noWait = async () => {};
const from = (address: string) => ({ "x-forwarded-for": address });

/**
 * Settles every promise; counts the outcomes by what each resolved to or the message it was rejected with. A wrong
 * password is `wrong`, whether it resolved to null or, once the email's tries wait, was refused with the wait's code.
 */
async function outcomes(attempts: Promise<unknown>[]) {
  const counts: Record<string, number> = {};
  for (const result of await Promise.allSettled(attempts)) {
    let name: string;
    if (result.status === "rejected") {
      const message = (result.reason as Error).message;
      name = nextWaitSeconds(message) > 0 ? "wrong" : message;
    } else {
      name = result.value === null ? "wrong" : "identity";
    }
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

describe("parallel wrong passwords from one address", () => {
  it("get at most the limit's 10 password checks for one email; the rest are refused unchecked", async () => {
    vi.stubEnv("TRUST_PROXY", "true");
    const attacker = from("203.0.113.120");
    const attempts = Array.from({ length: 25 }, () =>
      authorizeSignIn({ email: "viewer@acme.test", password: "wrong" }, attacker, noWait),
    );
    expect(await outcomes(attempts)).toEqual({ wrong: 10, [SIGN_IN_RATE_LIMITED]: 15 });
    // The person still signs in from their own address.
    expect(
      await authorizeSignIn({ email: "viewer@acme.test", password: DEMO_PASSWORD }, from("198.51.100.120"), noWait),
    ).toMatchObject({ email: "viewer@acme.test" });
  });

  it("sign in in parallel when the password is right, and leave nothing counted against the address", async () => {
    vi.stubEnv("TRUST_PROXY", "true");
    const office = from("198.51.100.121");
    const people = ["owner@acme.test", "admin@acme.test", "assigned@acme.test", "standard@acme.test"];
    for (let round = 0; round < 3; round++) {
      const attempts = people.map((email) => authorizeSignIn({ email, password: DEMO_PASSWORD }, office, noWait));
      expect(await outcomes(attempts)).toEqual({ identity: people.length });
    }
    // 12 successes counted nothing: 10 wrong passwords for one email from the office are still all checked.
    const wrong = Array.from({ length: 10 }, () =>
      authorizeSignIn({ email: "groups@acme.test", password: "wrong" }, office, noWait),
    );
    expect(await outcomes(wrong)).toEqual({ wrong: 10 });
  });
});

describe("password checks", () => {
  it("run off the event loop: a burst of them leaves it free", async () => {
    const hash = await bcrypt.hash("a-password", 10);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const results = await Promise.all(Array.from({ length: 12 }, () => comparePassword("wrong", hash)));
    delay.disable();
    expect(results.every((matched) => matched === false)).toBe(true);
    expect(await comparePassword("a-password", hash)).toBe(true);
    // bcryptjs on the main thread blocks it for ~100 ms at a time per check in flight.
    expect(delay.max / 1e6).toBeLessThan(250);
  });

  it(`are bounded per instance: past ${MAX_IN_FLIGHT} in flight, a check is refused at once`, async () => {
    const hash = await bcrypt.hash("a-password", 10);
    const checks = Array.from({ length: MAX_IN_FLIGHT + 5 }, () => comparePassword("wrong", hash));
    const settled = await Promise.allSettled(checks);
    const busy = settled.filter(
      (result) => result.status === "rejected" && result.reason instanceof PasswordChecksBusy,
    );
    expect(busy).toHaveLength(5);
    expect(await comparePassword("a-password", hash)).toBe(true);
  });
});

describe("changing the password", () => {
  it("checks the current password under the sign-in throttle: 10 wrong guesses from an address, then refused", async () => {
    // The limiter's sliding window weighs the last fixed 15-minute window by how much of it still overlaps: the 10th
    // failure, counted before a window's end, weighs 9 just after it. The guesses and the check take about a minute
    // (each failure lengthens the next guess's wait), so they start only well before a window's end.
    const windowMs = 15 * 60_000;
    const left = windowMs - (Date.now() % windowMs);
    if (left < 120_000) await new Promise((resolve) => setTimeout(resolve, left + 1_000));
    vi.stubEnv("TRUST_PROXY", "true");
    const user = await userByEmail("standard@birch.test");
    const owner = { tenantId: user.tenantId, userId: user.id };
    const headers = new Headers(from("203.0.113.121"));
    const guesses = await Promise.all(
      Array.from({ length: 15 }, () => changePassword(owner, "a-guess", "new-password-123", headers)),
    );
    expect(guesses.filter((result) => result === "wrong-password")).toHaveLength(10);
    expect(guesses.filter((result) => result === "throttled")).toHaveLength(5);
    // Even the right current password is now refused from that address; another address changes it.
    expect(await changePassword(owner, DEMO_PASSWORD, "new-password-123", headers)).toBe("throttled");
    expect(await changePassword(owner, DEMO_PASSWORD, "new-password-123", new Headers(from("198.51.100.122")))).toEqual(
      expect.any(Number),
    );
  }, 300_000);
});

describe("a sign-in that fails for another reason than the credentials", () => {
  it("shows a generic error code, never the failure's own text, which goes to the server log", async () => {
    const log = spyOnLog("error");
    vi.resetModules();
    vi.doMock("@/lib/db/client", () => ({
      prisma: async () => {
        throw new Error("timeout exceeded when trying to connect");
      },
    }));
    const { authorizeSignIn: failing } = await import("@/lib/auth/sign-in");
    const attempt = failing({ email: "owner@acme.test", password: DEMO_PASSWORD }, from("198.51.100.123"));
    await expect(attempt).rejects.toThrow(new Error(SIGN_IN_FAILED));
    expect(String(log.mock.calls[0]?.[1])).toMatch(/timeout exceeded when trying to connect/);
  });
});
