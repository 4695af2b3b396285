// The signed-in person, for pages and server actions.

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { decode, encode } from "next-auth/jwt";
import { cache } from "react";
import { prisma } from "@/lib/db/client";
import { tenantDb } from "@/lib/db/tenant";
import { signInPath } from "./callback-url";
import { authOptions } from "./options";

export interface SignedInUser {
  tenantId: number;
  userId: number;
  name: string;
  email: string;
  timezone: string;
}

/**
 * The person of the session cookie, or null. The user is read again on every request, so a session ends as soon
 * as its user is archived or removed, or signs out or changes their password anywhere (which bumps the user's
 * session version past the one the cookie carries), not when the cookie expires. Cached per request.
 */
export const signedInUser = cache(async (): Promise<SignedInUser | null> => {
  const session = await getServerSession(authOptions);
  const tenantId = session?.user?.tenantId;
  const userId = session?.user?.userId;
  const sessionVersion = session?.user?.sessionVersion;
  if (!tenantId || !userId || sessionVersion === undefined) return null;
  const user = await tenantDb(await prisma(), tenantId).user.findFirst({
    where: { id: userId, archivedDate: null, sessionVersion },
    select: { firstname: true, lastname: true, email: true, timezone: true },
  });
  if (!user) return null;
  return { tenantId, userId, name: `${user.firstname} ${user.lastname}`, email: user.email, timezone: user.timezone };
});

/** The signed-in person; anyone else is sent to sign in and brought back to `returnTo` afterwards. */
export async function requireSignedInUser(returnTo: string): Promise<SignedInUser> {
  const user = await signedInUser();
  if (!user) redirect(signInPath(returnTo));
  return user;
}

// next-auth's session cookie: the __Secure- name where it sets secure cookies (an https NEXTAUTH_URL).
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/**
 * Keeps this browser signed in after its user's session version moved on (a password change ends every session):
 * the session cookie is issued again with the new version. Only from a server action, where cookies can be set.
 */
export async function renewSession(sessionVersion: number): Promise<void> {
  const secret = authOptions.secret;
  const maxAge = authOptions.session?.maxAge;
  const store = await cookies();
  const name = SESSION_COOKIES.find((candidate) => store.has(candidate));
  const current = name && store.get(name)?.value;
  if (!secret || !name || !current) return;
  const token = await decode({ token: current, secret });
  if (!token) return;
  store.set(name, await encode({ token: { ...token, sessionVersion }, secret, maxAge }), {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: name.startsWith("__Secure-"),
    maxAge,
  });
}
