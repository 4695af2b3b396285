// Runs once when a server instance starts: refuse to start with a configuration that cannot work, then seed the
// demo data if (and only if) it was asked for.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { assertDatabaseConfigured } = await import("@/lib/db/client");
  assertDatabaseConfigured();
  const { seedDemoIfRequested } = await import("@/lib/demo/startup");
  await seedDemoIfRequested();
}
