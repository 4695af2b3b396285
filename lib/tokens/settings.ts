// The tokens page as the signed-in person sees and changes it. The page and its server actions hand over the
// session's user and nothing else: the database and the permission check live here, so app/** never opens the
// database and no form field can widen what a person may touch.
import { webActor } from "@/lib/audit/mutations";
import { loadPermissions } from "@/lib/auth/permissions";
import { forbidden } from "@/lib/core/errors";
import { prisma } from "@/lib/db/client";
import {
  createApiToken,
  type FirmTokenSummary,
  listApiTokens,
  listFirmTokens,
  type NewTokenOptions,
  revokeApiToken,
  revokeFirmToken,
  type TokenSummary,
} from "./index";

type SignedIn = { tenantId: number; userId: number };

/** The person's own tokens, and the firm's when their role has `tokens.manage_all` (null otherwise). */
export async function tokensPage(user: SignedIn): Promise<{ own: TokenSummary[]; firm: FirmTokenSummary[] | null }> {
  const client = await prisma();
  const [own, permissions] = await Promise.all([listApiTokens(client, user), loadPermissions(client, user)]);
  return { own, firm: permissions.has("tokens.manage_all") ? await listFirmTokens(client, user.tenantId) : null };
}

export async function createOwnToken(user: SignedIn, name: string, options: Omit<NewTokenOptions, "value" | "actor">) {
  return createApiToken(await prisma(), user, name, { ...options, actor: await webActor(user) });
}

export async function revokeOwnToken(user: SignedIn, id: number) {
  return revokeApiToken(await prisma(), user, id);
}

/** Revokes any token of the person's tenant; their role is read afresh, so a demoted Admin's old page cannot. */
export async function revokeTokenOfFirm(user: SignedIn, id: number) {
  const client = await prisma();
  if (!(await loadPermissions(client, user)).has("tokens.manage_all"))
    throw forbidden("Your role does not allow revoking other people's tokens.");
  return revokeFirmToken(client, user.tenantId, id, await webActor(user));
}
