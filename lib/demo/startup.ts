// Demo data only where someone asked for it: the demo accounts share a published password, so a production start
// must never create them by default. `npm run demo` seeds through `npm run db:seed`; a server start seeds an empty
// database when DEMO_SEED=on, or under `next dev` unless DEMO_SEED=off.
import { prisma } from "@/lib/db/client";
import { announceDemo, seedDemo } from "./seed";

export function demoSeedRequested(env: Record<string, string | undefined> = process.env): boolean {
  if (env.DEMO_SEED === "on") return true;
  if (env.DEMO_SEED === "off") return false;
  return env.NODE_ENV === "development";
}

/** Called once per server start (instrumentation.ts): seeds an empty database when demo data was asked for. */
export async function seedDemoIfRequested(): Promise<void> {
  if (!demoSeedRequested()) return;
  const client = await prisma();
  if ((await client.tenant.count()) > 0) return;
  announceDemo(await seedDemo(client));
}
