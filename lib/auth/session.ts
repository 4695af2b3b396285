// The signed-in person, for pages and server actions.

import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
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
 * as its user is archived or removed, not when the cookie expires. Cached per request.
 */
export const signedInUser = cache(async (): Promise<SignedInUser | null> => {
  const session = await getServerSession(authOptions);
  const tenantId = session?.user?.tenantId;
  const userId = session?.user?.userId;
  if (!tenantId || !userId) return null;
  const user = await tenantDb(await prisma(), tenantId).user.findFirst({
    where: { id: userId, archivedDate: null },
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
