// The connected-apps and app-policy pages as the signed-in person sees and changes them: the session's user is all a
// page hands over; permissions are read afresh here (Owners and Admins: tokens.manage_all), so no form field can
// widen what a person may touch.
import { webActor } from "@/lib/audit/mutations";
import { loadPermissions } from "@/lib/auth/permissions";
import { forbidden } from "@/lib/core/errors";
import { prisma } from "@/lib/db/client";
import type { TokenAccess } from "@/lib/tokens/access";
import { consentCsrf, openRequest } from "./authorize";
import { deleteFirmClient, findClient, listFirmClients, registerFirmClient } from "./clients";
import { asksOffline, firmOptions } from "./consent";
import { listGrants, lowerGrantAccess, revokeGrant } from "./grants";
import { type FirmPolicy, firmPolicy, listApp, setFirmPolicy, unlistApp } from "./policy";

type SignedIn = { tenantId: number; userId: number };

/**
 * What the consent page shows: the request (null when it expired or was altered), its app, the firms it may be
 * granted in, the one chosen (`firm`, else the one signed in to), and the form's anti-forgery value.
 */
export async function consentPage(user: SignedIn & { email: string }, sealed: string, firm: unknown) {
  const request = openRequest(sealed);
  const client = await prisma();
  const app = request && (await findClient(client, request.clientId).catch(() => null));
  if (!request || !app) return null;
  const options = await firmOptions(client, user, app, request);
  const chosen = options.find((option) => String(option.tenantId) === firm) ?? options[0];
  return { request, app, options, chosen, offline: asksOffline(request), csrf: consentCsrf(sealed, user) };
}

async function managesFirm(user: SignedIn) {
  return (await loadPermissions(await prisma(), user)).has("tokens.manage_all");
}

async function requireManager(user: SignedIn) {
  if (!(await managesFirm(user))) throw forbidden("Your role does not allow managing the firm's apps.");
  return prisma();
}

/** The person's own grants, and every grant of the firm for Owners and Admins (null for others). */
export async function connectedAppsPage(user: SignedIn) {
  const client = await prisma();
  const [own, firm] = await Promise.all([
    listGrants(client, user.tenantId, user.userId),
    managesFirm(user).then((manages) => (manages ? listGrants(client, user.tenantId) : null)),
  ]);
  return { own, firm };
}

export async function revokeOwnGrant(user: SignedIn, grantId: number) {
  return revokeGrant(await prisma(), user.tenantId, grantId, await webActor(user), user.userId);
}

export async function revokeFirmGrant(user: SignedIn, grantId: number) {
  return revokeGrant(await requireManager(user), user.tenantId, grantId, await webActor(user));
}

export async function lowerOwnGrant(user: SignedIn, grantId: number, access: TokenAccess) {
  return lowerGrantAccess(await prisma(), user.tenantId, user.userId, grantId, access, await webActor(user));
}

export async function appsPolicyPage(user: SignedIn) {
  const client = await requireManager(user);
  const [policy, clients] = await Promise.all([
    firmPolicy(client, user.tenantId),
    listFirmClients(client, user.tenantId),
  ]);
  return { ...policy, clients };
}

export async function changeFirmPolicy(user: SignedIn, policy: FirmPolicy) {
  return setFirmPolicy(await requireManager(user), await webActor(user), policy);
}

export async function listFirmApp(user: SignedIn, clientId: string, cap: TokenAccess) {
  return listApp(await requireManager(user), await webActor(user), clientId, cap);
}

export async function unlistFirmApp(user: SignedIn, clientId: string) {
  return unlistApp(await requireManager(user), await webActor(user), clientId);
}

export async function registerApp(
  user: SignedIn,
  input: { name: string; redirectUris: string[]; confidential: boolean },
) {
  return registerFirmClient(await requireManager(user), await webActor(user), input);
}

export async function deleteApp(user: SignedIn, clientId: string) {
  return deleteFirmClient(await requireManager(user), user.tenantId, clientId);
}
