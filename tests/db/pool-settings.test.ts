// What every pooled connection of the app's runs with on PostgreSQL (lib/db/client.ts): a statement on one backend,
// with no parallel workers (DATABASE_MAX_PARALLEL_WORKERS, default 0), so that one firm's request cannot take every
// CPU of the database server (decisions.md, Capacity); without JIT compilation, whose compiler's memory a backend
// keeps (bench/RESULTS.md); and its time limit (statement_timeout).
import { afterAll, describe, expect, it, vi } from "vitest";
import { closeDatabase, readRows } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";

const settings = async () =>
  (
    await readRows<{ workers: string; jit: string; timeout: string }>(
      Prisma.sql`SELECT current_setting('max_parallel_workers_per_gather') AS workers, current_setting('jit') AS jit,
                        current_setting('statement_timeout') AS timeout`,
    )
  )[0];

describe.runIf(!!process.env.DATABASE_URL && !process.env.DATABASE_URL.includes("pgbouncer=true"))(
  "a pooled connection's settings (PostgreSQL)",
  () => {
    afterAll(async () => {
      await closeDatabase();
      vi.unstubAllEnvs();
    });

    it("runs each statement without parallel workers or JIT compilation, within the statement time limit", async () => {
      const { workers, jit, timeout } = await settings();
      expect(workers).toBe("0");
      expect(jit).toBe("off");
      expect(timeout).toBe("5s");
    });

    it("gives a statement DATABASE_MAX_PARALLEL_WORKERS workers when set", async () => {
      await closeDatabase();
      vi.stubEnv("DATABASE_MAX_PARALLEL_WORKERS", "2");
      expect((await settings()).workers).toBe("2");
    });
  },
);
