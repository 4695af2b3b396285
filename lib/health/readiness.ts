// Readiness of a starting instance (decisions.md, Capacity): it reports itself not ready until it can serve, so
// that a balancer does not send it traffic it would answer 503 to. Warm means: the database open (the embedded one
// migrated), a pooled connection made, and the authentication cache's listener either proven or known not to be
// (lib/auth/token-cache.ts). Warm once is warm for good: later faults are /api/health's other checks.
import { tokenCacheOf } from "@/lib/auth/token-cache";
import { database } from "@/lib/db/client";

let warm = false;
let warming: Promise<void> | undefined;

/** Starts warming (at start-up, instrumentation.ts; or on the first health check), once; resolves when warm. */
export function warmUp(): Promise<void> {
  warming ??= (async () => {
    const db = await database();
    await db.prisma.$queryRaw`SELECT 1`;
    await tokenCacheOf(db).listening();
    warm = true;
  })().catch((error) => {
    warming = undefined; // tried again by the next check
    throw error;
  });
  return warming;
}

export const isWarm = () => warm;
