// A firm's app policy (decisions.md, "Apps and assistants"), set by its Owners and Admins: any app, or only the apps
// it listed; a per-app access cap for listed apps; whether personal tokens may be used at /api/mcp. Judged on every
// request by authenticate() (lib/api/authenticate.ts) and at consent (./consent.ts); every change is audited.
import { changesBetween } from "@/lib/audit/entries";
import { type Actor, recordAudit } from "@/lib/audit/mutations";
import { tenantDb } from "@/lib/db/tenant";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { type TokenAccess, tokenAccessSchema } from "@/lib/tokens/access";
import { findClient } from "./clients";

export interface FirmPolicy {
  onlyListedApps: boolean;
  personalTokensAtMcp: boolean;
}

export async function firmPolicy(client: PrismaClient, tenantId: number) {
  const tenant = await client.tenant.findUniqueOrThrow({
    where: { id: tenantId },
    select: {
      name: true,
      onlyListedApps: true,
      personalTokensAtMcp: true,
      oauthFirmApps: {
        select: { clientId: true, accessCap: true, createdAt: true, client: { select: { name: true, kind: true } } },
        orderBy: { createdAt: "asc" },
      },
    },
  });
  return {
    name: tenant.name,
    policy: { onlyListedApps: tenant.onlyListedApps, personalTokensAtMcp: tenant.personalTokensAtMcp },
    listed: tenant.oauthFirmApps.map((app) => ({
      clientId: app.clientId,
      name: app.client.name,
      kind: app.client.kind,
      cap: tokenAccessSchema.parse(app.accessCap),
    })),
  };
}

const policyTarget = (tenantId: number, name: string) => ({ type: "tenant" as const, id: tenantId, name });

export async function setFirmPolicy(client: PrismaClient, actor: Actor, policy: FirmPolicy) {
  await client.$transaction(async (tx) => {
    const before = await tx.tenant.findUniqueOrThrow({
      where: { id: actor.tenantId },
      select: { name: true, onlyListedApps: true, personalTokensAtMcp: true },
    });
    const changes = changesBetween(
      { only_listed_apps: before.onlyListedApps, personal_tokens_at_mcp: before.personalTokensAtMcp },
      { only_listed_apps: policy.onlyListedApps, personal_tokens_at_mcp: policy.personalTokensAtMcp },
    );
    if (!Object.keys(changes).length) return;
    await tx.tenant.update({ where: { id: actor.tenantId }, data: policy });
    await recordAudit(
      tx,
      { actor },
      { action: "oauth_policy.changed", target: policyTarget(actor.tenantId, before.name), changes },
    );
  });
}

/**
 * Lists an app for the firm (or changes its cap): it is then shown as verified and, under "listed apps only", allowed.
 * Throws a sentence when the client_id names no app.
 */
export async function listApp(client: PrismaClient, actor: Actor, clientId: string, cap: TokenAccess) {
  const app = await findClient(client, clientId).catch(() => null);
  if (!app || (app.tenantId !== null && app.tenantId !== actor.tenantId))
    throw new Error("No app has that client_id here. For a metadata document, give its https URL.");
  const db = tenantDb(client, actor.tenantId);
  await db.$transaction(async (tx) => {
    const before = await tx.oAuthFirmApp.findFirst({ where: { clientId: app.id }, select: { accessCap: true } });
    const tenant = await tx.tenant.findUniqueOrThrow({ where: { id: actor.tenantId }, select: { name: true } });
    await tx.oAuthFirmApp.upsert({
      where: { tenantId_clientId: { tenantId: actor.tenantId, clientId: app.id } },
      create: { tenantId: actor.tenantId, clientId: app.id, accessCap: cap },
      update: { accessCap: cap },
    });
    const changes = changesBetween({ [`apps.${app.name}`]: before?.accessCap ?? null }, { [`apps.${app.name}`]: cap });
    if (Object.keys(changes).length)
      await recordAudit(
        tx,
        { actor },
        { action: "oauth_policy.changed", target: policyTarget(actor.tenantId, tenant.name), changes },
      );
  });
}

export async function unlistApp(client: PrismaClient, actor: Actor, clientId: string) {
  await tenantDb(client, actor.tenantId).$transaction(async (tx) => {
    const listed = await tx.oAuthFirmApp.findFirst({
      where: { clientId },
      select: { accessCap: true, client: { select: { name: true } } },
    });
    if (!listed) return;
    const tenant = await tx.tenant.findUniqueOrThrow({ where: { id: actor.tenantId }, select: { name: true } });
    await tx.oAuthFirmApp.deleteMany({ where: { clientId } });
    await recordAudit(
      tx,
      { actor },
      {
        action: "oauth_policy.changed",
        target: policyTarget(actor.tenantId, tenant.name),
        changes: { [`apps.${listed.client.name}`]: [listed.accessCap, null] },
      },
    );
  });
}
