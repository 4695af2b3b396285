// A session (a next-auth JWT) ends when its user signs out or changes the password anywhere: the user's session
// version moves past the one the JWT carries, and every request compares the two.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { authOptions } from "@/lib/auth/options";
import { signedInUser } from "@/lib/auth/session";
import { userByEmail } from "../support/api";

const current = vi.hoisted(() => ({ session: null as unknown }));
vi.mock("next-auth", async (original) => ({
  ...(await original<typeof import("next-auth")>()),
  getServerSession: async () => current.session,
}));

async function sessionOf(email: string) {
  const user = await userByEmail(email);
  const token = { tenantId: user.tenantId, userId: user.id, sessionVersion: user.sessionVersion };
  return { token, session: { user: token, expires: "" } };
}

const signOut = (token: { tenantId: number; userId: number; sessionVersion: number }) =>
  authOptions.events?.signOut?.({ token, session: undefined as never });

beforeEach(() => {
  current.session = null;
});

describe("a session", () => {
  it("is accepted while its version is the user's, and not after the user signed out, even as a copy", async () => {
    const { token, session } = await sessionOf("standard@birch.test");
    current.session = session;
    expect(await signedInUser()).toMatchObject({ email: "standard@birch.test" });

    await signOut(token);
    expect(await signedInUser()).toBeNull();

    // Signing in again starts a session at the new version; replaying the old cookie's sign-out ends nothing.
    const again = await sessionOf("standard@birch.test");
    current.session = again.session;
    await signOut(token);
    expect(await signedInUser()).toMatchObject({ email: "standard@birch.test" });
  });

  it("is not accepted without a version (a cookie from before versions existed)", async () => {
    const { token } = await sessionOf("viewer@acme.test");
    current.session = { user: { tenantId: token.tenantId, userId: token.userId }, expires: "" };
    expect(await signedInUser()).toBeNull();
  });
});
