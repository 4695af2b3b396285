// Runs once when a server instance starts: refuse to start with a configuration that cannot work. Next logs an
// error thrown here and then serves a 500 to every request, so the process exits instead: a process manager, a
// deploy check or a person sees at once that it did not start.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { assertDatabaseConfigured } = await import("@/lib/db/client");
  try {
    assertDatabaseConfigured();
  } catch (error) {
    console.error(`Not starting: ${(error as Error).message}`);
    process.exit(1);
  }
  const { installShutdown } = await import("@/lib/api/shutdown");
  installShutdown();
}
