import { afterEach, describe, expect, it, vi } from "vitest";
import { register } from "@/instrumentation";
import { assertDatabaseConfigured } from "@/lib/db/client";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("starting on a serverless host", () => {
  it("refuses to start without DATABASE_URL, saying why", async () => {
    vi.stubEnv("VERCEL", "1");
    vi.stubEnv("DATABASE_URL", "");
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    expect(() => assertDatabaseConfigured()).toThrow(/DATABASE_URL is not set.*serverless/);
    await expect(register()).rejects.toThrow(/DATABASE_URL is not set/);
  });

  it("starts with DATABASE_URL, and anywhere else without it", async () => {
    vi.stubEnv("VERCEL", "1");
    vi.stubEnv("DATABASE_URL", "postgresql://app@db.example/app");
    expect(() => assertDatabaseConfigured()).not.toThrow();
    vi.stubEnv("VERCEL", "");
    vi.stubEnv("DATABASE_URL", "");
    expect(() => assertDatabaseConfigured()).not.toThrow();
  });
});
