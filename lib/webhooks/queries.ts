// Reads of a firm's webhook endpoints and their recent deliveries, through the caller's tenant-scoped client.
import type { Caller } from "@/lib/auth/caller";
import { forbidden, notFound } from "@/lib/core/errors";
import { UUID } from "@/lib/core/references";
import { prisma } from "@/lib/db/client";
import type { WebhookEndpoint } from "@/lib/generated/prisma/client";
import type { ListDeliveriesQuery } from "./schemas";
import { DELIVERY_INCLUDE, type DeliveryRow } from "./serialize";

export function listWebhooks(caller: Pick<Caller, "db">): Promise<WebhookEndpoint[]> {
  return caller.db.webhookEndpoint.findMany({ orderBy: { id: "asc" } });
}

/**
 * The endpoint a path names: 404 for a malformed uuid or one that exists nowhere, 403 for another firm's (the only
 * lookup across tenants; it reveals only existence, as for every other record).
 */
export async function findWebhook(caller: Pick<Caller, "db">, uuid: unknown): Promise<WebhookEndpoint> {
  if (typeof uuid !== "string" || !UUID.test(uuid)) throw notFound("Webhook");
  const id = uuid.toLowerCase();
  const endpoint = await caller.db.webhookEndpoint.findFirst({ where: { uuid: id } });
  if (endpoint) return endpoint;
  const elsewhere = await (await prisma()).webhookEndpoint.count({ where: { uuid: id } });
  throw elsewhere ? forbidden() : notFound("Webhook");
}

/** The endpoint's most recent deliveries, newest first. */
export function listDeliveries(
  caller: Pick<Caller, "db">,
  endpointId: number,
  { limit }: ListDeliveriesQuery,
): Promise<DeliveryRow[]> {
  return caller.db.webhookDelivery.findMany({
    where: { endpointId },
    include: DELIVERY_INCLUDE,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
}
