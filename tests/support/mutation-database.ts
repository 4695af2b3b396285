// Each file of the mutation run's tests (vitest.mutation.config.ts) on the database global setup migrated, or, with
// no DATABASE_URL, on an embedded database of its own in memory (migrated when first opened).
import { afterAll } from "vitest";
import { closeDatabase } from "@/lib/db/client";

if (!process.env.DATABASE_URL) process.env.PGLITE_DATA_DIR = `memory://mutation-${process.pid}`;

afterAll(closeDatabase);
