// Mutation testing of the security core (docs/testing.md, Mutation testing): StrykerJS changes one thing at a time
// in each module below and runs the tests of vitest.mutation.config.ts; a change no test notices survives. Each module
// has its own least score (scripts/mutation-scores.mjs fails the run below it). A new module: one line in MUTATED,
// and its fast tests in vitest.mutation.config.ts.
import { readFileSync } from "node:fs";

/**
 * The modules mutated, each with the least score it must keep (killed and timed-out mutants of all, in %), and where
 * only part of a module is security core, the top-level declarations mutated (`parts`, found by name in the file as
 * it is now: a renamed one fails the run instead of leaving it unmutated).
 */
export const MUTATED = [
  { file: "lib/tokens/access.ts", least: 90 },
  { file: "lib/core/cursor.ts", least: 90 },
  { file: "lib/auth/visibility.ts", least: 90 },
  { file: "lib/oauth/scopes.ts", least: 90 },
  { file: "lib/oauth/pkce.ts", least: 90 },
  // The MCP tools' dispatch: which tools a caller is shown, and their annotations (a call is the wrapper's, above).
  {
    file: "lib/mcp/tools.ts",
    parts: ["TOOLS", "needed", "toolAllowed", "toolsFor", "annotationsOf", "findTool"],
    least: 90,
  },
  {
    // The wrapper's checks and their order; not its replica routing, fault retries or Accept parsing.
    file: "lib/api/route.ts",
    parts: [
      "READ_METHODS",
      "SELF_PATHS",
      "assertJudgeable",
      "apiRoute",
      "attempt",
      "answerWith",
      "LINK_FIELDS",
      "refuseUnreadableLinks",
      "eventsSent",
    ],
    least: 90,
  },
];

/** `file:from-to` for each named top-level declaration: from its first line to its closing line at column 0. */
function partsOf(file, names) {
  const lines = readFileSync(file, "utf8").split("\n");
  return names.map((name) => {
    const start = lines.findIndex((line) =>
      new RegExp(`^(export )?(async )?(function|const|let|class) ${name}\\b`).test(line),
    );
    if (start < 0) throw new Error(`stryker.config.mjs: ${file} declares no ${name} at the top level.`);
    const end = /[;}]$/.test(lines[start]) ? start : lines.findIndex((line, i) => i > start && /^(}|\);)/.test(line));
    return `${file}:${start + 1}-${end + 1}`;
  });
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: "vitest",
  // Every test file the config lists (not vite's guess of related ones), in worker threads (lighter than forks).
  vitest: { configFile: "vitest.mutation.config.ts", related: false, pool: "threads" },
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: MUTATED.flatMap(({ file, parts }) => (parts ? partsOf(file, parts) : [file])),
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

export default config;
