// An endpoint deleted between the route loading it and the write (the fuzz run's 500): every write is a 404 then.
// A record's write racing the deletion of an endpoint subscribed to its event (a later fuzz run's 500, a foreign-key
// violation in the outbox): the write waits for the deletion or skips the endpoint, and is answered as usual.
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import * as clientsRoute from "@/app/api/v1/clients/route";
import { prisma } from "@/lib/db/client";
import { tenantDb } from "@/lib/db/tenant";
import { deleteWebhook, rotateSecret, sendTest, updateWebhook } from "@/lib/webhooks/mutations";
import { call, tenantByName, tokenFor } from "../support/api";

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

describe.runIf(process.env.DATABASE_URL)("a write racing the deletion of an endpoint its event goes to", () => {
  it("waits for the deletion, then records no delivery to the endpoint gone, and answers 201", async () => {
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "true");
    const client = await prisma();
    const { id: tenantId } = await tenantByName("Acme Accounting");
    const endpoint = await client.webhookEndpoint.create({
      data: { tenantId, url: "http://127.0.0.1:9/racing", events: ["client.created"], secret: "whsec_eA==" },
    });
    const token = await tokenFor("owner@acme.test");
    const other = new pg.Client({ connectionString: process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL });
    await other.connect();
    try {
      // Another request's deletion, begun and not yet committed when the create records its event.
      await other.query("BEGIN");
      await other.query("DELETE FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2", [tenantId, endpoint.id]);
      let answered = false;
      const create = call(clientsRoute, "POST", "clients", { token, body: { name: "Raced a deleted endpoint" } }).then(
        (res) => {
          answered = true;
          return res;
        },
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(answered).toBe(false); // it waits for the deletion's transaction
      await other.query("COMMIT");
      const res = await create;
      expect(res.status).toBe(201);
      expect(await client.webhookDelivery.count({ where: { tenantId, endpointId: endpoint.id } })).toBe(0);
      expect(await client.client.count({ where: { tenantId, uuid: res.body.uuid } })).toBe(1);
    } finally {
      await other.query("ROLLBACK").catch(() => {});
      await other.end();
      vi.unstubAllEnvs();
    }
  });
});
