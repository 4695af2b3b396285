// Runs once when a server instance starts: refuse to start with a configuration that cannot work (or on an embedded
// database another process holds), put the front door before Next's router where this process owns its HTTP server
// (lib/http/before-next.ts; not on Vercel, whose closed runtime owns it: docs/deploy.md, "What holds where"), drain
// requests on SIGTERM, seed the demo data if (and only if) it was asked for, start the webhook retry timer (one
// machine), and warm up for readiness (lib/health/readiness.ts). Traces first, when an OTLP endpoint is set, so that
// the pg driver is instrumented before anything loads it.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
    const { startTracing } = await import("@/lib/observability/tracing");
    startTracing();
  }
  const { refuseToStartUnworkable } = await import("@/lib/db/startup");
  await refuseToStartUnworkable();
  if (!process.env.VERCEL) {
    const { installBeforeNext } = await import("@/lib/http/before-next");
    const { admitOrQueue } = await import("@/lib/api/in-flight");
    installBeforeNext(admitOrQueue);
  }
  // Warming starts now, not at the first probe: /api/health says "starting" (503) until it is done.
  const { warmUp } = await import("@/lib/health/readiness");
  warmUp().catch(() => {});
  const { installShutdown } = await import("@/lib/api/shutdown");
  installShutdown();
  const { seedDemoIfRequested } = await import("@/lib/demo/startup");
  await seedDemoIfRequested();
  const { startWebhookTimer } = await import("@/lib/webhooks/timer");
  startWebhookTimer();
}
