// Prisma sends an interactive transaction's independent queries together on its one connection; node-postgres warns
// that queueing them is deprecated (and pg 9 drops it). The pool's connections queue them themselves (lib/db/client.ts).
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/client";

describe.runIf(!!process.env.DATABASE_URL)("queries sent together in a transaction (PostgreSQL)", () => {
  it("all run, in one transaction, without pg's deprecation warning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    try {
      const db = await prisma();
      // One operation whose relations Prisma loads with separate queries, sent together.
      const found = await db.$transaction(async (tx) =>
        tx.client.findMany({
          take: 5,
          include: {
            contacts: true,
            tags: true,
            groups: true,
            customValues: true,
            jobs: { include: { assignees: true } },
          },
        }),
      );
      expect(found.length).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(warnings.filter((w) => w.includes("already executing a query"))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
