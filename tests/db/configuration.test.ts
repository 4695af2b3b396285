import { afterEach, describe, expect, it, vi } from "vitest";
import { register } from "@/instrumentation";
import { assertDatabaseConfigured } from "@/lib/db/client";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("starting on a serverless host", () => {
  it("refuses to start without DATABASE_URL, saying why", async () => {
    vi.stubEnv("VERCEL", "1");
    vi.stubEnv("DATABASE_URL", "");
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    expect(() => assertDatabaseConfigured()).toThrow(/DATABASE_URL is not set.*serverless/);
    // Next would log a throw from register() and serve 500s; the server exits instead (tried with `next start`).
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const exit = vi.spyOn(process, "exit").mockImplementation(() => undefined as never);
    await register();
    expect(exit).toHaveBeenCalledWith(1);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^Refusing to run: DATABASE_URL is not set/));
  });

  it("starts with DATABASE_URL, and anywhere else without it", async () => {
    vi.stubEnv("VERCEL", "1");
    vi.stubEnv("DATABASE_URL", "postgresql://app@db.example/app");
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    const exit = vi.spyOn(process, "exit").mockImplementation(() => undefined as never);
    await register();
    expect(exit).not.toHaveBeenCalled();
    vi.stubEnv("VERCEL", "");
    vi.stubEnv("DATABASE_URL", "");
    expect(() => assertDatabaseConfigured()).not.toThrow();
  });
});
