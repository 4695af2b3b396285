import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/client";
import { tenantDb } from "@/lib/db/tenant";

async function tenants() {
  const client = await prisma();
  const [acme, birch] = await client.tenant.findMany({ orderBy: { id: "asc" } });
  return { client, acme, birch };
}

describe("tenant-scoped database access", () => {
  it("cannot be had without the caller's tenant", async () => {
    const client = await prisma();
    expect(() => tenantDb(client, undefined as unknown as number)).toThrow(/tenant id/);
    expect(() => tenantDb(client, 0)).toThrow(/tenant id/);
    expect(() => tenantDb(client, Number.NaN)).toThrow(/tenant id/);
  });

  it("reads only the tenant's rows, even when asked for another tenant's", async () => {
    const { client, acme, birch } = await tenants();
    const db = tenantDb(client, acme.id);
    const clients = await db.client.findMany();
    expect(clients.length).toBeGreaterThan(0);
    expect(clients.every((c) => c.tenantId === acme.id)).toBe(true);

    const birchClient = await client.client.findFirstOrThrow({ where: { tenantId: birch.id } });
    expect(await db.client.findFirst({ where: { uuid: birchClient.uuid } })).toBeNull();
    await expect(db.client.findMany({ where: { tenantId: birch.id } })).rejects.toThrow(/another tenant/);
    expect(await db.client.count({ where: { uuid: birchClient.uuid } })).toBe(0);
  });

  it("keeps one scoped client per tenant, each still reading only its own tenant's rows", async () => {
    const { client, acme, birch } = await tenants();
    const first = tenantDb(client, acme.id);
    expect(tenantDb(client, acme.id)).toBe(first);
    const other = tenantDb(client, birch.id);
    expect(other).not.toBe(first);
    // Used in turn, neither takes the other's tenant.
    for (const [db, tenant] of [
      [first, acme],
      [other, birch],
      [first, acme],
    ] as const) {
      const rows = await db.client.findMany();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((c) => c.tenantId === tenant.id)).toBe(true);
    }
  });

  it("writes the tenant on create and refuses another tenant's id", async () => {
    const { client, acme, birch } = await tenants();
    const db = tenantDb(client, acme.id);
    const tag = await db.tag.create({ data: { tenantId: acme.id, name: "scoped-create" } });
    expect(tag.tenantId).toBe(acme.id);
    await expect(db.tag.create({ data: { tenantId: birch.id, name: "smuggled" } })).rejects.toThrow(/another tenant/);
    await expect(db.tag.createMany({ data: [{ tenantId: birch.id, name: "smuggled" }] })).rejects.toThrow(
      /another tenant/,
    );
    expect(await client.tag.count({ where: { name: "smuggled" } })).toBe(0);
  });

  it("cannot update, move or delete another tenant's rows", async () => {
    const { client, acme, birch } = await tenants();
    const db = tenantDb(client, acme.id);
    const birchClient = await client.client.findFirstOrThrow({ where: { tenantId: birch.id } });

    const updated = await db.client.updateMany({ where: { id: birchClient.id }, data: { name: "Hijacked" } });
    expect(updated.count).toBe(0);
    await expect(
      db.client.update({
        where: { tenantId_id: { tenantId: acme.id, id: birchClient.id } },
        data: { name: "Hijacked" },
      }),
    ).rejects.toThrow();
    expect((await db.client.deleteMany({ where: { id: birchClient.id } })).count).toBe(0);

    const own = await db.client.findFirstOrThrow();
    await expect(db.client.updateMany({ where: { id: own.id }, data: { tenantId: birch.id } })).rejects.toThrow(
      /another tenant/,
    );

    const after = await client.client.findFirstOrThrow({ where: { tenantId: birch.id, id: birchClient.id } });
    expect(after).toEqual(birchClient);
  });

  it("keeps transactions in the tenant", async () => {
    const { client, acme, birch } = await tenants();
    const db = tenantDb(client, acme.id);
    const count = await db.$transaction(async (tx) => tx.client.count());
    expect(count).toBe(await client.client.count({ where: { tenantId: acme.id } }));
    expect(count).not.toBe(await client.client.count({ where: { tenantId: birch.id } }));
  });

  it("is backed by the database: a link between two tenants' rows is refused", async () => {
    const { client, acme, birch } = await tenants();
    const acmeClient = await client.client.findFirstOrThrow({ where: { tenantId: acme.id } });
    const birchTag = await client.tag.findFirstOrThrow({ where: { tenantId: birch.id } });
    await expect(
      client.clientTag.create({ data: { tenantId: acme.id, clientId: acmeClient.id, tagId: birchTag.id } }),
    ).rejects.toThrow();
  });
});
