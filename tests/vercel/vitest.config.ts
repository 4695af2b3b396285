import path from "node:path";
import { defineConfig } from "vitest/config";

// The Vercel lane's tests (.ci/vercel): against `vercel build`'s output served by tests/vercel/runtime.ts, one file at
// a time (each serves the deployment at its one address, NEXTAUTH_URL). The main suites leave this folder out.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "../..") } },
  test: {
    root: path.resolve(import.meta.dirname, "../.."),
    include: ["tests/vercel/**/*.test.ts"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
