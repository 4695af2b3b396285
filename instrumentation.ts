// Runs once when a server instance starts: refuse to start with a configuration that cannot work.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { refuseUnworkableConfiguration } = await import("@/lib/db/startup");
  refuseUnworkableConfiguration();
}
