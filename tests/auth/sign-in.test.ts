import bcrypt from "bcryptjs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { authorizeSignIn, SIGN_IN_WINDOW_MS, verifyCredentials } from "@/lib/auth/sign-in";
import { SIGN_IN_RATE_LIMITED, signInErrorMessage } from "@/lib/auth/sign-in-errors";
import { clientAddress } from "@/lib/client-address";
import { prisma } from "@/lib/db/client";
import { DEMO_PASSWORD } from "@/lib/demo/seed";
import { userByEmail } from "../support/api";
import { wrong } from "../support/sign-in";

describe("checking an email and password", () => {
  it("signs in the user whose password matches, with their tenant and user ids", async () => {
    const owner = await userByEmail("owner@acme.test");
    expect(await verifyCredentials(await prisma(), "owner@acme.test", DEMO_PASSWORD)).toEqual({
      tenantId: owner.tenantId,
      userId: owner.id,
      name: "Olivia Owner",
      email: "owner@acme.test",
      sessionVersion: 0,
    });
  });

  it("ignores the case of the email", async () => {
    expect(await verifyCredentials(await prisma(), "Owner@ACME.test", DEMO_PASSWORD)).toMatchObject({
      email: "owner@acme.test",
    });
  });

  it("refuses a wrong password, an unknown email and an archived user alike", async () => {
    const client = await prisma();
    expect(await verifyCredentials(client, "owner@acme.test", "not-the-password")).toBeNull();
    expect(await verifyCredentials(client, "nobody@acme.test", DEMO_PASSWORD)).toBeNull();
    expect(await verifyCredentials(client, "archived@acme.test", DEMO_PASSWORD)).toBeNull();
  });

  it("finds a person by email in whichever tenant the password matches", async () => {
    const client = await prisma();
    const acmeAdmin = await userByEmail("admin@acme.test");
    const birch = await userByEmail("owner@birch.test");
    const birchRole = await client.role.findFirstOrThrow({ where: { tenantId: birch.tenantId, name: "Standard" } });
    const birchAdmin = await client.user.create({
      data: {
        tenantId: birch.tenantId,
        roleId: birchRole.id,
        firstname: "Adam",
        lastname: "Elsewhere",
        email: "admin@acme.test",
        passwordHash: await bcrypt.hash("birch-password", 4),
      },
    });

    expect(await verifyCredentials(client, "admin@acme.test", DEMO_PASSWORD)).toMatchObject({
      tenantId: acmeAdmin.tenantId,
      userId: acmeAdmin.id,
    });
    expect(await verifyCredentials(client, "admin@acme.test", "birch-password")).toMatchObject({
      tenantId: birch.tenantId,
      userId: birchAdmin.id,
    });
    expect(await verifyCredentials(client, "admin@acme.test", "neither")).toBeNull();

    // When the password matches in both tenants, the older tenant's user is the one signed in.
    await client.user.updateMany({
      where: { tenantId: birch.tenantId, id: birchAdmin.id },
      data: { passwordHash: acmeAdmin.passwordHash },
    });
    expect(await verifyCredentials(client, "admin@acme.test", DEMO_PASSWORD)).toMatchObject({
      tenantId: acmeAdmin.tenantId,
    });
  });
});

/** Records the waits sign-in asks for instead of sleeping through them. */
function recordedWaits() {
  const waits: number[] = [];
  const wait = async (ms: number) => {
    waits.push(ms);
  };
  return { waits, wait };
}

const from = (address: string) => ({ "x-forwarded-for": `${address}, 10.0.0.1` });

describe("malformed sign-in input", () => {
  it("is refused like wrong credentials, never an error", async () => {
    for (const email of ["owner@acme.test\u0000", "owner\ud800@acme.test", "", 42, null]) {
      expect(await authorizeSignIn({ email, password: DEMO_PASSWORD }, from("203.0.113.77"))).toBeNull();
    }
  });
});

describe("sign-in throttling behind a trusted proxy", () => {
  beforeEach(() => {
    vi.stubEnv("TRUST_PROXY", "true");
    // Each test's clock starts in the middle of a window and runs on: a test that crossed a quarter hour saw the
    // failures counted before it weighted down by the sliding window (the floor of 3 × 0.9999 is 2), as CI once did.
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(Math.floor(Date.now() / SIGN_IN_WINDOW_MS) * SIGN_IN_WINDOW_MS + SIGN_IN_WINDOW_MS / 2);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it("cannot be used to lock a person out: 10 wrong passwords from 10 addresses, then the right one from a new address signs in after a wait of at most 30 s", async () => {
    const { waits, wait } = recordedWaits();
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect(
        await wrong(
          authorizeSignIn({ email: "standard@acme.test", password: "wrong" }, from(`192.0.2.${attempt}`), wait),
        ),
      ).toBeNull();
    }
    expect(
      await authorizeSignIn({ email: "STANDARD@acme.test", password: DEMO_PASSWORD }, from("192.0.2.11"), wait),
    ).toMatchObject({ email: "standard@acme.test" });
    // No wait for the first few failures, then a growing one, capped at 30 s.
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it("refuses an address after 10 wrong passwords for one email; the person still signs in from elsewhere", async () => {
    const { wait } = recordedWaits();
    const attacker = from("203.0.113.7");
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect(await wrong(authorizeSignIn({ email: "groups@acme.test", password: "guess" }, attacker, wait))).toBeNull();
    }
    await expect(
      authorizeSignIn({ email: "groups@acme.test", password: DEMO_PASSWORD }, attacker, wait),
    ).rejects.toThrow(SIGN_IN_RATE_LIMITED);
    expect(
      await authorizeSignIn({ email: "groups@acme.test", password: DEMO_PASSWORD }, from("203.0.113.8"), wait),
    ).toMatchObject({ email: "groups@acme.test" });
  });

  it("refuses an address after 30 wrong attempts across many emails (guessing accounts)", async () => {
    const guesser = from("203.0.113.50");
    for (let attempt = 1; attempt <= 30; attempt++) {
      expect(await authorizeSignIn({ email: `guess${attempt}@acme.test`, password: "guess" }, guesser)).toBeNull();
    }
    await expect(authorizeSignIn({ email: "viewer@acme.test", password: DEMO_PASSWORD }, guesser)).rejects.toThrow(
      SIGN_IN_RATE_LIMITED,
    );
    expect(
      await authorizeSignIn({ email: "viewer@acme.test", password: DEMO_PASSWORD }, from("203.0.113.51")),
    ).toMatchObject({ email: "viewer@acme.test" });
  });

  it("never refuses the right password from an address that has not failed, however many sign in from it", async () => {
    const office = from("198.51.100.20");
    const people = ["owner@acme.test", "admin@acme.test", "assigned@acme.test", "owner@birch.test"];
    for (let signIn = 0; signIn < 35; signIn++) {
      const email = people[signIn % people.length];
      expect(await authorizeSignIn({ email, password: DEMO_PASSWORD }, office)).toMatchObject({ email });
    }
  });

  it("counts every spelling of an email that the database matches as that email", async () => {
    const client = await prisma();
    // citext matches by PostgreSQL's lower(): "admİn" is admin on a database whose locale maps İ to i, as
    // JavaScript's toLowerCase (İ to i plus a combining dot) does not.
    const spellings = [];
    for (const spelling of ["Admin@ACME.test", "admİn@acme.test", "ADMİN@ACME.TEST"]) {
      if (await verifyCredentials(client, spelling, DEMO_PASSWORD)) spellings.push(spelling);
    }
    const { waits, wait } = recordedWaits();
    for (let attempt = 0; attempt < 3; attempt++) {
      const email = spellings[attempt % spellings.length];
      expect(
        await wrong(authorizeSignIn({ email, password: "wrong" }, from(`192.0.2.${100 + attempt}`), wait)),
      ).toBeNull();
    }
    expect(
      await authorizeSignIn({ email: "admin@acme.test", password: DEMO_PASSWORD }, from("192.0.2.200"), wait),
    ).toMatchObject({ email: "admin@acme.test" });
    expect(waits).toEqual([1_000]);
  });
});

describe("the per-email wait, said and recorded", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("from the third wrong password the refusal says how long the next try waits, alike for an unknown email", async () => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(Math.floor(Date.now() / SIGN_IN_WINDOW_MS) * SIGN_IN_WINDOW_MS + SIGN_IN_WINDOW_MS / 2);
    const { wait } = recordedWaits();
    for (const email of ["viewer@acme.test", "nobody.here@acme.test"]) {
      const attempt = () => authorizeSignIn({ email, password: "wrong" }, undefined, wait);
      expect(await attempt()).toBeNull();
      expect(await attempt()).toBeNull();
      await expect(attempt()).rejects.toThrow("CredentialsSignin:wait=1");
      await expect(attempt()).rejects.toThrow("CredentialsSignin:wait=2");
    }
    expect(signInErrorMessage("CredentialsSignin:wait=2")).toBe(
      "That email and password do not match an account. Check both and try again. Several wrong passwords were " +
        "typed for this email, so each try now waits before it is checked: the next one 2 seconds, and each wrong " +
        "one doubles the wait, up to 30 seconds. Wrong passwords count for 15 minutes.",
    );
    expect(signInErrorMessage("CredentialsSignin")).toBe(
      "That email and password do not match an account. Check both and try again.",
    );
  });

  it("is in the audit log each time it grows, naming the account tried; each failure is recorded too", async () => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(Math.floor(Date.now() / SIGN_IN_WINDOW_MS) * SIGN_IN_WINDOW_MS + SIGN_IN_WINDOW_MS / 2);
    const { wait } = recordedWaits();
    const bea = await userByEmail("owner@birch.test");
    // The entries after the last one so far, by id: their created_at is the database's clock, not this test's.
    const last = await (await prisma()).auditEvent.aggregate({ _max: { id: true } });
    for (let attempt = 0; attempt < 9; attempt++)
      await wrong(authorizeSignIn({ email: "owner@birch.test", password: "wrong" }, undefined, wait));
    const entries = await (await prisma()).auditEvent.findMany({
      where: { tenantId: bea.tenantId, targetId: bea.id, id: { gt: last._max.id ?? 0 } },
      orderBy: { id: "asc" },
    });
    expect(entries.filter((e) => e.action === "sign_in.failed")).toHaveLength(9);
    const throttles = entries.filter((e) => e.action === "sign_in.throttled").map((e) => e.changes);
    expect(throttles).toEqual([
      { failed_attempts: [2, 3], wait_seconds: [0, 1] },
      { failed_attempts: [3, 4], wait_seconds: [1, 2] },
      { failed_attempts: [4, 5], wait_seconds: [2, 4] },
      { failed_attempts: [5, 6], wait_seconds: [4, 8] },
      { failed_attempts: [6, 7], wait_seconds: [8, 16] },
      { failed_attempts: [7, 8], wait_seconds: [16, 30] },
    ]);
  });
});

describe("sign-in throttling without a trusted proxy", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("ignores X-Forwarded-For: failures never refuse anyone, they only make that email's attempts wait", async () => {
    vi.stubEnv("TRUST_PROXY", "");
    const { waits, wait } = recordedWaits();
    for (let attempt = 1; attempt <= 12; attempt++) {
      expect(
        await wrong(authorizeSignIn({ email: "owner@birch.test", password: "wrong" }, from("192.0.2.99"), wait)),
      ).toBeNull();
    }
    expect(
      await authorizeSignIn({ email: "owner@birch.test", password: DEMO_PASSWORD }, from("192.0.2.99"), wait),
    ).toMatchObject({ email: "owner@birch.test" });
    expect(waits.at(-1)).toBe(30_000);
  });
});

describe("the client's address", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("is unknown without a trusted proxy, whatever the client sends", () => {
    vi.stubEnv("TRUST_PROXY", "");
    vi.stubEnv("VERCEL", "");
    expect(clientAddress({ "x-forwarded-for": "203.0.113.7", "x-real-ip": "203.0.113.7" })).toBeNull();
    expect(clientAddress(new Headers({ "x-forwarded-for": "203.0.113.7" }))).toBeNull();
  });

  it("is the first X-Forwarded-For entry with TRUST_PROXY=true, when it is an IP address", () => {
    vi.stubEnv("TRUST_PROXY", "true");
    vi.stubEnv("VERCEL", "");
    expect(clientAddress({ "x-forwarded-for": " 203.0.113.7 , 10.0.0.1" })).toBe("203.0.113.7");
    expect(clientAddress(new Headers({ "x-forwarded-for": "2001:db8::1" }))).toBe("2001:db8::1");
    expect(clientAddress({ "x-forwarded-for": "not-an-address" })).toBeNull();
    expect(clientAddress({})).toBeNull();
    expect(clientAddress(undefined)).toBeNull();
  });

  it("is Vercel's own header on Vercel", () => {
    vi.stubEnv("VERCEL", "1");
    const headers = new Headers({ "x-vercel-forwarded-for": "198.51.100.9", "x-forwarded-for": "198.51.100.10" });
    expect(clientAddress(headers)).toBe("198.51.100.9");
    expect(clientAddress(new Headers({ "x-forwarded-for": "198.51.100.10" }))).toBe("198.51.100.10");
  });
});
