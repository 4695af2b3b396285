// Mutation testing of the security core (docs/testing.md, Mutation testing): StrykerJS changes one thing at a time
// in each module below and runs the tests of vitest.mutation.config.ts; a change no test notices survives. Each module
// has its own least score (scripts/mutation-scores.mjs fails the run below it). A new module: one line in MUTATED,
// and its fast tests in vitest.mutation.config.ts.

/** The modules mutated, each with the least score it must keep (killed and timed-out mutants of all, in %). */
export const MUTATED = [
  { file: "lib/tokens/access.ts", least: 90 },
  { file: "lib/core/cursor.ts", least: 90 },
  { file: "lib/auth/visibility.ts", least: 90 },
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: MUTATED.map(({ file }) => file),
  coverageAnalysis: "perTest",
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ["clear-text", "progress-append-only", "json"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  clearTextReporter: { allowColor: false, logTests: false },
  // Only what the tests need in the sandbox copy of the project.
  ignorePatterns: [".next", ".data", ".vercel", "bench", "e2e", "reports", "test-results", "playwright-report"],
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
