// The totals per tenant, table and flag (migration 20261126000001_row_counts) that the lists answer meta.total with:
// database triggers must keep them equal to count(*) through every kind of write, in bulk, and with several writers
// at once (on PostgreSQL).
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { userByEmail } from "../support/api";

let db: PrismaClient;
let acme: number;
let birch: number;
let owner: number;
let birchOwner: number;

beforeAll(async () => {
  db = await prisma();
  ({ tenantId: acme, id: owner } = await userByEmail("owner@acme.test"));
  ({ tenantId: birch, id: birchOwner } = await userByEmail("owner@birch.test"));
});

/**
 * Every (tenant, table, flag) with its count as count(*) has it and as row_counts keeps it (rows of zero dropped), in
 * one statement so that both are read from one snapshot.
 */
async function bothCounts() {
  const rows = await db.$queryRaw<{ key: string; actual: bigint | null; kept: bigint | null }[]>`
    WITH actual AS (
      SELECT tenant_id, 'clients' AS table_name, is_archived AS flag, count(*) AS n FROM clients GROUP BY 1, 3
      UNION ALL SELECT tenant_id, 'contacts', false, count(*) FROM contacts GROUP BY 1
      UNION ALL SELECT tenant_id, 'jobs', is_completed, count(*) FROM jobs GROUP BY 1, 3
      UNION ALL SELECT tenant_id, 'time_logs', false, count(*) FROM time_logs GROUP BY 1
    ), kept AS (SELECT tenant_id, table_name, flag, n FROM row_counts WHERE n <> 0)
    SELECT concat_ws('/', tenant_id, table_name, flag::text) AS key, actual.n AS actual, kept.n AS kept
    FROM actual FULL JOIN kept USING (tenant_id, table_name, flag)`;
  const pick = (column: "actual" | "kept") =>
    Object.fromEntries(rows.filter((r) => r[column] !== null).map((r) => [r.key, Number(r[column])]));
  return { actual: pick("actual"), kept: pick("kept") };
}

async function expectExact() {
  const { actual, kept } = await bothCounts();
  expect(kept).toEqual(actual);
  return kept;
}

const kept = async (tenantId: number, tableName: string, flag = false) =>
  Number((await db.rowCount.findUnique({ where: { tenantId_tableName_flag: { tenantId, tableName, flag } } }))?.n ?? 0);

describe("kept row counts", () => {
  it("match the seeded rows of both tenants", async () => {
    const counts = await expectExact();
    for (const tenant of [acme, birch]) {
      for (const table of ["clients", "contacts", "jobs", "time_logs"]) {
        expect(counts[`${tenant}/${table}/false`]).toBeGreaterThan(0);
      }
    }
  });

  it("follow clients created, archived, unarchived and deleted, one by one and in bulk", async () => {
    const before = await kept(birch, "clients");
    const one = await db.client.create({ data: { tenantId: acme, name: "Count probe" } });
    await db.client.createMany({
      data: [0, 1, 2, 3].map((i) => ({ tenantId: acme, name: `Count probe ${i}`, isArchived: i % 2 === 0 })),
    });
    await expectExact();

    await db.client.update({ where: { tenantId_id: { tenantId: acme, id: one.id } }, data: { isArchived: true } });
    await expectExact();
    // Archived and unarchived in one statement, and an update that changes no flag.
    await db.$executeRaw`UPDATE clients SET is_archived = NOT is_archived WHERE name LIKE 'Count probe%'`;
    await db.client.updateMany({ where: { name: { startsWith: "Count probe" } }, data: { city: "Whitby" } });
    await expectExact();

    await db.client.delete({ where: { tenantId_id: { tenantId: acme, id: one.id } } });
    await db.client.deleteMany({ where: { name: { startsWith: "Count probe" } } });
    await expectExact();
    // The other tenant's count never moved.
    expect(await kept(birch, "clients")).toBe(before);
  });

  it("follow contacts, and jobs completed and reopened", async () => {
    const contact = await db.contact.create({
      data: { tenantId: birch, firstname: "Count", lastname: "Probe", preferredName: "", email: "count@probe.test" },
    });
    const jobs = await db.job.createManyAndReturn({
      data: [0, 1, 2].map((i) => ({ tenantId: acme, name: `Count job ${i}`, isCompleted: i === 0 })),
    });
    await expectExact();
    await db.job.updateMany({ where: { id: { in: jobs.map((j) => j.id) } }, data: { isCompleted: true } });
    await expectExact();
    await db.job.update({
      where: { tenantId_id: { tenantId: acme, id: jobs[1].id } },
      data: { isCompleted: false },
    });
    await expectExact();
    await db.job.deleteMany({ where: { id: { in: jobs.map((j) => j.id) } } });
    await db.contact.delete({ where: { tenantId_id: { tenantId: birch, id: contact.id } } });
    await expectExact();
  });

  it("follow a bulk insert of time logs into two tenants in one statement, and its deletion", async () => {
    const acmeBefore = await kept(acme, "time_logs");
    const birchBefore = await kept(birch, "time_logs");
    await db.$executeRaw`
      INSERT INTO time_logs (tenant_id, user_id, minutes, date, note)
      SELECT CASE WHEN g % 3 = 0 THEN ${birch}::int ELSE ${acme}::int END,
             CASE WHEN g % 3 = 0 THEN ${birchOwner}::int ELSE ${owner}::int END,
             15, DATE '2030-01-01' + (g % 40), 'bulk count probe'
      FROM generate_series(1, 6000) AS g`;
    expect(await kept(acme, "time_logs")).toBe(acmeBefore + 4000);
    expect(await kept(birch, "time_logs")).toBe(birchBefore + 2000);
    await expectExact();
    await db.timeLog.deleteMany({ where: { note: "bulk count probe" } });
    expect(await kept(acme, "time_logs")).toBe(acmeBefore);
    await expectExact();
  });

  it("empty a table's counts on TRUNCATE, and count again after it", async () => {
    await db.$executeRawUnsafe("TRUNCATE time_logs");
    expect(await db.rowCount.count({ where: { tableName: "time_logs" } })).toBe(0);
    await db.timeLog.create({
      data: { tenantId: acme, userId: owner, minutes: 15, date: new Date("2031-02-03T00:00:00Z") },
    });
    expect(await kept(acme, "time_logs")).toBe(1);
    await expectExact();
  });

  // Several connections write at once, each statement moving counts of both tenants and both flags: the counts must
  // be exact afterwards, and no writer may fail (a deadlock between the counts' row locks would). Each statement takes
  // its counts in key order; a transaction of several statements takes them in the order of its statements, so two
  // transactions that move the same counts in opposite orders can deadlock, as with any row they both update.
  it.skipIf(!process.env.DATABASE_URL)("stay exact with parallel writers", async () => {
    const url = process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL;
    const writers = Array.from({ length: 8 }, () => new pg.Client({ connectionString: url }));
    await Promise.all(writers.map((w) => w.connect()));
    try {
      await Promise.all(
        writers.map(async (w, i) => {
          for (let round = 0; round < 25; round++) {
            const tag = `parallel ${i} ${round}`;
            // Both tenants, both flags, in one statement: four counts locked at once.
            await w.query(
              `INSERT INTO clients (tenant_id, name, is_archived)
               SELECT CASE WHEN g % 2 = 0 THEN $1::int ELSE $2::int END, $3 || g, g % 3 = 0
               FROM generate_series(1, 12) AS g`,
              [acme, birch, tag],
            );
            await w.query(
              `INSERT INTO time_logs (tenant_id, user_id, minutes, date, note)
               SELECT CASE WHEN g % 2 = 0 THEN $1::int ELSE $2::int END, CASE WHEN g % 2 = 0 THEN $3::int ELSE $4::int END,
                      5, DATE '2032-01-01' + g, $5
               FROM generate_series(1, 20) AS g`,
              [acme, birch, owner, birchOwner, tag],
            );
            // Some archived and some unarchived in one statement, then time logs deleted, in a transaction (every
            // writer moves the clients' counts before the time logs': the order within a statement is the triggers',
            // the order of statements the writer's); some transactions roll back.
            await w.query("BEGIN");
            await w.query(`UPDATE clients SET is_archived = NOT is_archived WHERE name LIKE $1 || '%' AND id % 2 = 0`, [
              tag,
            ]);
            await w.query(`DELETE FROM time_logs WHERE note = $1 AND minutes = 5 AND date < DATE '2032-01-08'`, [tag]);
            await w.query(round % 4 === 0 ? "ROLLBACK" : "COMMIT");
            await w.query(`DELETE FROM clients WHERE name LIKE $1 || '%' AND id % 5 = 0`, [tag]);
          }
        }),
      );
    } finally {
      await Promise.all(writers.map((w) => w.end()));
    }
    const counts = await expectExact();
    expect(counts[`${acme}/clients/true`]).toBeGreaterThan(100);
  });
});
