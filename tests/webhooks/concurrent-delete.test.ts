// An endpoint deleted between the route loading it and the write (the fuzz run's 500): every write is a 404 then.
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/client";
import { tenantDb } from "@/lib/db/tenant";
import { deleteWebhook, rotateSecret, sendTest, updateWebhook } from "@/lib/webhooks/mutations";
import { tenantByName } from "../support/api";

describe("a write to an endpoint deleted meanwhile", () => {
  it.each([
    ["rotate-secret", rotateSecret],
    ["update", (scope, endpoint) => updateWebhook(scope, endpoint, { description: "late" })],
    ["delete", deleteWebhook],
    ["test", sendTest],
  ] as [string, (scope: any, endpoint: any) => Promise<unknown>][])("%s is a 404", async (_, write) => {
    const client = await prisma();
    const { id: tenantId } = await tenantByName("Acme Accounting");
    const endpoint = await client.webhookEndpoint.create({
      data: { tenantId, url: "http://127.0.0.1:9/gone", events: ["client.created"], secret: "whsec_eA==" },
    });
    await client.webhookEndpoint.delete({ where: { tenantId_id: { tenantId, id: endpoint.id } } });
    const actor = { tenantId, via: "cli", userId: null, tokenId: null, tokenName: null, address: null } as const;
    const scope = { db: tenantDb(client, tenantId), tenant: { id: tenantId }, actor };
    await expect(write(scope, endpoint)).rejects.toMatchObject({ status: 404, message: "Webhook not found." });
  });
});
