// What the /settings/webhooks page and its server actions use: the signed-in person's firm, only when their role
// (read afresh) has webhooks.manage. The page never opens the database itself.
import { loadPermissions } from "@/lib/auth/permissions";
import { prisma } from "@/lib/db/client";
import { type TenantScope, tenantDb } from "@/lib/db/tenant";
import type { WebhookEndpoint } from "@/lib/generated/prisma/client";
import { listDeliveries, listWebhooks } from "./queries";
import type { DeliveryRow } from "./serialize";

/** The signed-in person, as the session knows them. */
export interface SessionUser {
  tenantId: number;
  userId: number;
}

export class WebhooksNotAllowed extends Error {
  constructor() {
    super("Your role does not allow managing webhooks.");
  }
}

/** The firm's tenant-scoped database for someone who may manage its webhooks; null for anyone else. */
export async function webhookManager(user: SessionUser): Promise<TenantScope | null> {
  const client = await prisma();
  if (!(await loadPermissions(client, user)).has("webhooks.manage")) return null;
  return { db: tenantDb(client, user.tenantId), tenant: { id: user.tenantId } };
}

/** As webhookManager, for server actions: anyone else is refused. */
export async function requireWebhookManager(user: SessionUser): Promise<TenantScope> {
  const scope = await webhookManager(user);
  if (!scope) throw new WebhooksNotAllowed();
  return scope;
}

export interface WebhookWithDeliveries {
  endpoint: WebhookEndpoint;
  deliveries: DeliveryRow[];
}

/** The page's data: every endpoint with its ten most recent deliveries. */
export async function webhooksPage(scope: TenantScope): Promise<WebhookWithDeliveries[]> {
  const endpoints = await listWebhooks(scope);
  return Promise.all(
    endpoints.map(async (endpoint) => ({
      endpoint,
      deliveries: await listDeliveries(scope, endpoint.id, { limit: 10 }),
    })),
  );
}
