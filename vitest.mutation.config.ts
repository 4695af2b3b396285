// The tests the mutation run drives (stryker.config.mjs; docs/testing.md, Mutation testing): the rules of the
// security core tested as functions, and where a rule lives in SQL or in the API wrapper, small tests on their own
// fixtures, each making the tenant it needs. No seeded template: on PostgreSQL (DATABASE_URL) the database is
// migrated once per run, else each file opens an embedded database in memory.
import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import base from "./vitest.config.ts";

export const MUTATION_TESTS = [
  "tests/unit/token-access-rules.test.ts",
  "tests/unit/cursor-rules.test.ts",
  "tests/unit/oauth-rules.test.ts",
  "tests/unit/mcp-tool-rules.test.ts",
  "tests/api/check-order-rules.test.ts",
  "tests/auth/visibility.test.ts",
];

/**
 * The files in the order listed: a mutant of what runs when a module loads (constants, the route files' handlers) runs
 * every file, and the first failure ends its run (Stryker's bail). The functions' tests come first, then the wrapper's,
 * whose route files build every handler as they load.
 */
class ListedOrder extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    const rank = (file: TestSpecification) => MUTATION_TESTS.findIndex((listed) => file.moduleId.endsWith(listed));
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: MUTATION_TESTS,
    globalSetup: ["tests/support/mutation-setup.ts"],
    setupFiles: ["tests/support/mutation-database.ts"],
    pool: "forks",
    sequence: { sequencer: ListedOrder },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: base.test?.env,
  },
});
