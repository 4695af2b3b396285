// The tests the mutation run drives (stryker.config.mjs; docs/testing.md, Mutation testing): the rules of the
// security core tested as functions, and where a rule lives in SQL or in the API wrapper, small tests on their own
// fixtures, each making the tenant it needs. No seeded template: on PostgreSQL (DATABASE_URL) the database is
// migrated once per run, else each file opens an embedded database in memory.
import path from "node:path";
import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

export const MUTATION_TESTS = [
  "tests/unit/token-access-rules.test.ts",
  "tests/unit/cursor-rules.test.ts",
  "tests/auth/visibility.test.ts",
  "tests/api/check-order-rules.test.ts",
];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: MUTATION_TESTS,
    globalSetup: ["tests/support/mutation-setup.ts"],
    setupFiles: ["tests/support/mutation-database.ts"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: base.test?.env,
  },
});
