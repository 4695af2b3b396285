// OpenTelemetry traces, through Vercel's kept SDK (@vercel/otel): Next's own spans (the request, the route), a span
// per outgoing fetch (the Upstash Redis client speaks HTTP through fetch) and per database statement on PostgreSQL
// (the pg instrumentation; the embedded PGlite has none), exported over OTLP to OTEL_EXPORTER_OTLP_ENDPOINT
// (OTEL_EXPORTER_OTLP_PROTOCOL http/protobuf by default, or http/json). instrumentation.ts loads this module only when
// an endpoint is set (OTEL_SDK_DISABLED=true still turns it off): without one nothing of OpenTelemetry but its no-op API is loaded.
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { registerOTel } from "@vercel/otel";
import { QueryStrippingSpanProcessor } from "./span-privacy";

export function startTracing() {
  registerOTel({
    serviceName: process.env.OTEL_SERVICE_NAME || "cjt-api",
    instrumentations: ["fetch", new PgInstrumentation({ requireParentSpan: true })],
    // First, so that no exporter sees a query string.
    spanProcessors: [new QueryStrippingSpanProcessor(), "auto"],
  });
}
