// Runs once when a server instance starts: refuse to start with a configuration that cannot work, drain requests
// on SIGTERM, and seed the demo data if (and only if) it was asked for.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { refuseUnworkableConfiguration } = await import("@/lib/db/startup");
  refuseUnworkableConfiguration();
  const { installShutdown } = await import("@/lib/api/shutdown");
  installShutdown();
  const { seedDemoIfRequested } = await import("@/lib/demo/startup");
  await seedDemoIfRequested();
}
