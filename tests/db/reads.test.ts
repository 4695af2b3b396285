// The read path's statements go to the driver itself (Database.read, lib/db/client.ts), on PGlite and on PostgreSQL
// alike: plain reads run with the server's own settings; a read planned for each call (a search) runs alone in a
// read-only transaction that sets random_page_cost for itself, and leaves nothing behind, failing or not.
import { describe, expect, it } from "vitest";
import { database } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";

const setting = Prisma.sql`SELECT current_setting('random_page_cost') AS cost, current_setting('transaction_read_only') AS ro`;

describe("Database.read", () => {
  it("reads with the server's settings, and a read planned for each call with random_page_cost 1.1, read-only", async () => {
    const db = await database();
    const [plain] = await db.read<{ cost: string; ro: string }>(setting);
    const [planned] = await db.read<{ cost: string; ro: string }>(setting, { planEachCall: true });
    expect(planned).toEqual({ cost: "1.1", ro: "on" });
    expect(plain.cost).not.toBe("1.1");
    expect(plain.ro).toBe("off");
    // Nothing of it stays on the connection for the next read.
    const [after] = await db.read<{ cost: string; ro: string }>(setting);
    expect(after).toEqual(plain);
  });

  it("passes a failing statement's error on and leaves the connections usable", async () => {
    const db = await database();
    await expect(db.read(Prisma.sql`SELECT 1 / ${0}::int AS n`, { planEachCall: true })).rejects.toThrow(
      /division by zero/,
    );
    await expect(db.read(Prisma.sql`UPDATE tenants SET name = name`, { planEachCall: true })).rejects.toThrow(
      /read-only transaction/,
    );
    for (let i = 0; i < 12; i++) {
      expect(await db.read<{ n: number }>(Prisma.sql`SELECT ${i}::int AS n`, { planEachCall: i % 2 === 0 })).toEqual([
        { n: i },
      ]);
    }
  });
});
