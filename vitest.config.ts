import path from "node:path";
import { defineConfig } from "vitest/config";

// Integration tests call the route handlers in-process. Each test file gets its own copy of a database that
// global setup migrated and seeded once: PGlite by default, PostgreSQL when DATABASE_URL is set.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/per-file-database.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 120_000,
    env: { DEMO_SEED: "off", NEXT_TELEMETRY_DISABLED: "1" },
  },
});
