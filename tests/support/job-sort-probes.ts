// Jobs that put nulls in every nullable job sort column and ties in every sort column, so that both meet page
// boundaries in the cursor-page tests.
import { prisma } from "@/lib/db/client";

export async function addJobSortProbes(tenantId: number, prefix: string) {
  const db = await prisma();
  const status = await db.jobStatus.findFirstOrThrow({ where: { tenantId, slug: "in-review" } });
  const client = await db.client.findFirstOrThrow({ where: { tenantId } });
  await db.job.createMany({
    data: Array.from({ length: 12 }, (_, i) => ({
      tenantId,
      name: i % 2 ? `${prefix} tie` : `${prefix} probe ${i}`,
      statusId: i % 3 ? null : status.id,
      clientId: client.id,
      startDate: i % 4 ? null : new Date("2026-03-01"),
      dueDate: i % 3 === 1 ? null : new Date("2026-04-01"),
      estimatedHours: i % 2 ? null : "3.50",
    })),
  });
}
