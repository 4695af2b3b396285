// The start-up check of a server instance, kept out of instrumentation.ts so that the Edge build of that file never
// sees Node's process.exit.
import { assertDatabaseConfigured } from "./client";

/**
 * Exits when the configuration cannot work. Next logs an error thrown by register() and then answers every request
 * with a 500; exiting instead lets a process manager, a deploy check or a person see at once that it did not start.
 */
export function refuseUnworkableConfiguration() {
  try {
    assertDatabaseConfigured();
  } catch (error) {
    // Plain text on stderr, not the server's JSON log: the build's preflight prints it too, for a person to read.
    console.error(`Refusing to run: ${(error as Error).message}`);
    process.exit(1);
  }
}
