// A request's database deadline on PostgreSQL's pool (lib/db/deadline.ts, lib/db/client.ts): no statement is sent
// once it has passed, one under way is given up when it passes (a statement timeout, so a 503), and the connection it
// was given up on leaves the pool, so that the next statement is served on a sound one rather than meeting the
// abandoned one's close. The whole bound, with a hung primary under the built server: tests/faults/hung-primary.test.ts.
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/client";
import { DatabaseDeadline } from "@/lib/db/deadline";
import { databaseFault } from "@/lib/db/faults";

const postgres = !!process.env.DATABASE_URL;

describe.skipIf(!postgres)("a request's database deadline", () => {
  it("refuses statements once it has passed, as a statement timeout", async () => {
    const db = await prisma();
    const passed = new DatabaseDeadline(performance.now() - 1);
    const read = await passed.run(async () => await db.$queryRaw`SELECT 1`).catch((error) => error);
    expect(databaseFault(read)).toBe("statement-timeout");
    const write = await passed
      .run(async () => await db.$transaction(async (tx) => await tx.$queryRaw`SELECT 1`))
      .catch((error) => error);
    expect(databaseFault(write)).toBe("statement-timeout");
  });

  it("cuts a statement under way when it passes, and the next statement is served on another connection", async () => {
    const db = await prisma();
    const deadline = new DatabaseDeadline(performance.now() + 300);
    const start = performance.now();
    const cut = await deadline
      .run(async () => await db.$transaction(async (tx) => await tx.$queryRaw`SELECT pg_sleep(2)`))
      .catch((error) => error);
    expect(databaseFault(cut)).toBe("statement-timeout");
    expect(performance.now() - start).toBeLessThan(1_000);
    expect(await db.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });

  it("once lifted, leaves statements to their own limits", async () => {
    const db = await prisma();
    const deadline = new DatabaseDeadline(performance.now() + 100);
    deadline.lift();
    const slept = await deadline.run(async () => await db.$queryRaw`SELECT pg_sleep(0.3)::text AS slept`);
    expect(slept).toEqual([{ slept: "" }]);
  });
});
