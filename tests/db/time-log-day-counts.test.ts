// The per-user, per-day time log counts (migration 20261122000001_time_log_day_counts) that GET /time-logs sums
// for meta.total: database triggers must keep them equal to the time logs through every kind of write.
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/client";
import { userByEmail } from "../support/api";

/** Counts per (tenant, user, day) as the time logs have them and as the kept table has them (zero rows dropped). */
async function bothCounts() {
  const db = await prisma();
  const key = (r: { tenantId: number; userId: number; date: Date }) =>
    `${r.tenantId}/${r.userId}/${r.date.toISOString().slice(0, 10)}`;
  const actual = await db.timeLog.groupBy({ by: ["tenantId", "userId", "date"], _count: { _all: true } });
  const kept = await db.timeLogDayCount.findMany({ where: { count: { not: 0 } } });
  return {
    actual: Object.fromEntries(actual.map((r) => [key(r), r._count._all])),
    kept: Object.fromEntries(kept.map((r) => [key(r), r.count])),
  };
}

describe("per-day time log counts", () => {
  it("match the seeded time logs", async () => {
    const { actual, kept } = await bothCounts();
    expect(Object.keys(actual).length).toBeGreaterThan(0);
    expect(kept).toEqual(actual);
  });

  it("follow inserts, moves to another day or user, and deletes, in bulk and one by one", async () => {
    const db = await prisma();
    const owner = await userByEmail("owner@acme.test");
    const admin = await userByEmail("admin@acme.test");
    const base = { tenantId: owner.tenantId, minutes: 30, note: "count probe" };
    const days = ["2031-01-01", "2031-01-02"].map((d) => new Date(`${d}T00:00:00Z`));
    await db.timeLog.createMany({ data: [0, 1, 2].map(() => ({ ...base, userId: owner.id, date: days[0] })) });
    const single = await db.timeLog.create({ data: { ...base, userId: owner.id, date: days[0] } });
    expect((await bothCounts()).kept).toEqual((await bothCounts()).actual);

    await db.timeLog.update({
      where: { tenantId_id: { tenantId: owner.tenantId, id: single.id } },
      data: { date: days[1] },
    });
    await db.timeLog.updateMany({ where: { note: "count probe", date: days[0] }, data: { userId: admin.id } });
    let counts = await bothCounts();
    expect(counts.kept).toEqual(counts.actual);
    expect(counts.kept[`${owner.tenantId}/${admin.id}/2031-01-01`]).toBe(3);

    await db.timeLog.deleteMany({ where: { note: "count probe" } });
    counts = await bothCounts();
    expect(counts.kept).toEqual(counts.actual);
    expect(counts.kept[`${owner.tenantId}/${admin.id}/2031-01-01`]).toBeUndefined();
  });

  it("empty with the time logs on TRUNCATE, and count again after it", async () => {
    const db = await prisma();
    const owner = await userByEmail("owner@acme.test");
    await db.$executeRawUnsafe("TRUNCATE time_logs");
    expect(await db.timeLogDayCount.count()).toBe(0);
    await db.timeLog.create({
      data: { tenantId: owner.tenantId, userId: owner.id, minutes: 15, date: new Date("2031-02-03T00:00:00Z") },
    });
    expect((await bothCounts()).kept).toEqual({ [`${owner.tenantId}/${owner.id}/2031-02-03`]: 1 });
  });
});
