import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

// Integration tests call the route handlers in-process. Each test file gets its own copy of a database that
// global setup migrated and seeded once: PGlite by default, PostgreSQL when DATABASE_URL is set.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/**/*.test.ts"],
    // The Vercel lane's tests need `vercel build`'s output and run by their own config (.ci/vercel).
    exclude: [...configDefaults.exclude, "tests/vercel/**"],
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/per-file-database.ts"],
    pool: "forks",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: {
      DEMO_SEED: "off",
      // One log line per request would bury the test output; tests that read the log capture it at info
      // (tests/support/log.ts), and servers the tests start are given their own level.
      LOG_LEVEL: "warn",
      // The token request log is written by a timer off the request path: in tests only when a test flushes it, so
      // that a background write never lands among the statements a test counts (tests/api/query-count.test.ts).
      REQUEST_LOG_FLUSH_MS: "86400000",
      NEXT_TELEMETRY_DISABLED: "1",
      // In-process limits too high for any test to reach, whatever the shell exports; the rate-limit tests set their own.
      UPSTASH_REDIS_REST_URL: "",
      UPSTASH_REDIS_REST_TOKEN: "",
      RATE_LIMIT_PER_MINUTE: "1000000",
      RATE_LIMIT_SEARCH_PER_MINUTE: "1000000",
      RATE_LIMIT_USER_PER_HOUR: "0",
      RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: "1000000",
    },
  },
});
