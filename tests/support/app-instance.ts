// Fresh copies of the app's modules, as separate server instances would load them: each reads the environment
// anew and keeps its own rate-limiter memory. They share the test file's database (kept on globalThis) and Redis.
import { vi } from "vitest";

export async function startAppInstance(env: Record<string, string>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules();
  const [{ apiRoute }, { notFound }, me, unknownPath, search] = await Promise.all([
    import("@/lib/api/route"),
    import("@/lib/core/errors"),
    import("@/app/api/v1/me/route"),
    import("@/app/api/v1/[[...path]]/route"),
    import("@/app/api/v1/clients/search/route"),
  ]);
  return {
    me,
    unknownPath,
    /** GET /clients/search, which has a lower limit than the rest of the API. */
    search,
    /** A probe route whose record never exists. */
    missingRecord: apiRoute({
      method: "get",
      path: "/me",
      resource: null,
      handler: async () => {
        throw notFound("Client");
      },
    }),
  };
}
