import bcrypt from "bcryptjs";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { savePassword, saveProfile } from "@/app/settings/profile/actions";
import type { SignedInUser } from "@/lib/auth/session";
import { verifyCredentials } from "@/lib/auth/sign-in";
import { prisma } from "@/lib/db/client";
import { DEMO_PASSWORD } from "@/lib/demo/seed";
import { userByEmail } from "../support/api";

// The actions read the signed-in person from the session; here the test decides who that is.
const session = vi.hoisted(() => ({ user: null as SignedInUser | null, renewedWith: [] as number[] }));
vi.mock("@/lib/auth/session", () => ({
  requireSignedInUser: async () => {
    if (!session.user) throw new Error("not signed in");
    return session.user;
  },
  renewSession: async (version: number) => {
    session.renewedWith.push(version);
  },
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
// The password check is throttled by the request's address where a trusted proxy tells it: here none does.
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));

async function signInAs(email: string) {
  const user = await userByEmail(email);
  session.user = { tenantId: user.tenantId, userId: user.id, name: user.firstname, email, timezone: user.timezone };
  return user;
}

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

const idle = { status: "idle" } as const;

beforeEach(() => {
  session.user = null;
  session.renewedWith = [];
});

describe("saving the profile", () => {
  it("changes the signed-in person's name and time zone (as its IANA name), and nobody else's", async () => {
    const user = await signInAs("standard@acme.test");
    const other = await userByEmail("viewer@acme.test");
    const state = await saveProfile(
      idle,
      form({ firstname: "  Samantha ", lastname: "Stone", timezone: "america/new_york", userId: String(other.id) }),
    );
    expect(state).toEqual({ status: "saved", message: "Your profile is saved." });
    expect(await userByEmail("standard@acme.test")).toMatchObject({
      id: user.id,
      firstname: "Samantha",
      lastname: "Stone",
      timezone: "America/New_York",
    });
    expect(await userByEmail("viewer@acme.test")).toMatchObject({
      firstname: other.firstname,
      timezone: other.timezone,
    });
  });

  it("refuses an unknown time zone and a blank name, saying which field is wrong, and stores nothing", async () => {
    const before = await signInAs("groups@acme.test");
    const sent = { firstname: " ", lastname: "Groups", timezone: "Mars/Olympus_Mons" };
    expect(await saveProfile(idle, form(sent))).toEqual({
      status: "invalid",
      errors: {
        firstname: "Enter your first name.",
        timezone: "Choose a time zone from the list, such as Europe/London.",
      },
      values: sent,
    });
    expect(await userByEmail("groups@acme.test")).toEqual(before);
  });

  it("needs a signed-in person", async () => {
    await expect(saveProfile(idle, form({ firstname: "A", lastname: "B", timezone: "UTC" }))).rejects.toThrow();
  });
});

describe("changing the password", () => {
  const change = (current: string, next: string, confirmation = next) =>
    savePassword(idle, form({ current, next, confirmation }));

  it("needs the current password, at least 10 characters and the same new password twice; changes nothing otherwise", async () => {
    const before = await signInAs("assigned@acme.test");
    expect(await change("not-my-password", "a-new-password-1")).toEqual({
      status: "invalid",
      errors: { current: "That is not your current password." },
    });
    expect(await change(DEMO_PASSWORD, "short")).toEqual({
      status: "invalid",
      errors: { next: "The new password must be at least 10 characters." },
    });
    expect(await change(DEMO_PASSWORD, "a-new-password-1", "a-new-password-2")).toEqual({
      status: "invalid",
      errors: { confirmation: "The two new passwords differ. Type the same one twice." },
    });
    expect(await change(DEMO_PASSWORD, "é".repeat(37))).toMatchObject({
      errors: { next: expect.stringMatching(/72 bytes/) },
    });
    expect(await userByEmail("assigned@acme.test")).toEqual(before);
    expect(session.renewedWith).toEqual([]);
  });

  it("sets the new password, ends the person's other sessions and keeps this one", async () => {
    const before = await signInAs("owner@birch.test");
    expect(await change(DEMO_PASSWORD, "correct horse battery")).toEqual({
      status: "saved",
      message: "Your password is changed. You were signed out everywhere else.",
    });
    const after = await userByEmail("owner@birch.test");
    expect(await bcrypt.compare("correct horse battery", after.passwordHash as string)).toBe(true);
    expect(await verifyCredentials(await prisma(), "owner@birch.test", DEMO_PASSWORD)).toBeNull();
    expect(after.sessionVersion).toBe(before.sessionVersion + 1);
    expect(session.renewedWith).toEqual([after.sessionVersion]);
  });
});
