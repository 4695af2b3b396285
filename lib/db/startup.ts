// The start-up checks of a server instance and of a build, kept out of instrumentation.ts so that the Edge build of
// that file never sees Node's process.exit.
import { setHeapGrowth } from "@/lib/core/heap-growth";
import { assertDatabaseConfigured, database } from "./client";
import { embeddedDatabaseHolder, pgliteDataDir } from "./pglite";

/**
 * Exits when the configuration cannot work. Next logs an error thrown by register() and then answers every request
 * with a 500; exiting instead lets a process manager, a deploy check or a person see at once that it did not start.
 */
export function refuseUnworkableConfiguration() {
  refuseUnless(assertDatabaseConfigured);
}

/**
 * What a server's start checks first: the checks above, a session secret in production (without one next-auth fails
 * every page after sign-in, its reason only in the log) and the heap's growth (lib/core/heap-growth.ts).
 */
function startConfiguration() {
  assertDatabaseConfigured();
  setHeapGrowth();
  if (process.env.NODE_ENV === "production" && !process.env.NEXTAUTH_SECRET)
    throw new Error(
      "NEXTAUTH_SECRET is not set. Sessions are signed with it: set it to a long random value (e.g. the output " +
        "of `openssl rand -base64 32`) in the environment or .env.production.local, the same on every instance.",
    );
}

/**
 * `npm start` before `next start` (scripts/start-checks.ts): the start's checks, and an embedded database another
 * process holds, refused before Next prints "Ready" (the server's own checks run only after it has).
 */
export function refuseUnworkableStart() {
  refuseUnless(startConfiguration);
  if (process.env.DATABASE_URL) return;
  const holder = embeddedDatabaseHolder(pgliteDataDir());
  if (holder)
    refuse(
      new Error(
        `The embedded database in ${pgliteDataDir()} is in use by process ${holder.pid} (${holder.command}), and ` +
          `only one process may open it. Stop that process first (Ctrl-C in its terminal, or kill ${holder.pid}).`,
      ),
    );
}

/**
 * A server's start (instrumentation.ts): the start's checks, and the embedded database opened now, so that a second
 * server on the same folder, or a damaged folder, is refused with its sentence before the first request.
 */
export async function refuseToStartUnworkable() {
  refuseUnless(startConfiguration);
  if (process.env.DATABASE_URL) return;
  try {
    await database();
  } catch (error) {
    refuse(error);
  }
}

/** A build (scripts/preflight.ts): never replace the pages of a server that runs on this folder's embedded database. */
export function refuseToBuildUnderRunningServer() {
  if (process.env.DATABASE_URL) return;
  const holder = embeddedDatabaseHolder(pgliteDataDir());
  if (!holder) return;
  refuse(
    new Error(
      `Process ${holder.pid} (${holder.command}) has the embedded database in ${pgliteDataDir()} open; building now ` +
        `would replace the pages of the server under it. Stop it first (Ctrl-C in its terminal, or kill ${holder.pid}).`,
    ),
  );
}

function refuseUnless(check: () => void) {
  try {
    check();
  } catch (error) {
    refuse(error);
  }
}

function refuse(error: unknown) {
  console.error(`Refusing to run: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
