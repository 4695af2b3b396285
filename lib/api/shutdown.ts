// A deploy's SIGTERM (and Ctrl-C's SIGINT): `next start`'s own handler stops accepting connections and waits for the
// open ones, but with no time limit, without closing the database pool, and then exits 143 (130). This one waits for the API requests in flight
// (up to SHUTDOWN_TIMEOUT_MS, default 20 s), closes the database, and exits: 0 when everything finished, 1 when the
// limit cut requests off.

import { logError } from "@/lib/core/log";
import { closeDatabase } from "@/lib/db/client";
import { flushTokenRequests } from "@/lib/request-log/buffer";
import { requestsDrained } from "./in-flight";

export function installShutdown() {
  // SIGINT (Ctrl-C on `npm run demo`) ends the same way: the embedded database closed, not cut off.
  const stop = async () => {
    const drained = await requestsDrained(Number(process.env.SHUTDOWN_TIMEOUT_MS || 20_000));
    if (!drained) logError("Shutting down with requests still in flight: SHUTDOWN_TIMEOUT_MS passed.");
    await flushTokenRequests();
    await closeDatabase().catch((error) => logError("Closing the database on shutdown failed", error));
    process.exit(drained ? 0 : 1);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  // Next's handler may get to its own exit first, once the last connection closes: a drained stop is still clean.
  process.on("exit", (code) => {
    if (code === 143 || code === 130) process.exitCode = 0;
  });
}
