// Spans of the app's own work outside a request's (a webhook delivery), through OpenTelemetry's API: without
// tracing registered (no OTLP endpoint) its tracer is a no-op, so a span costs a function call.
import { type Attributes, SpanStatusCode, trace } from "@opentelemetry/api";

const tracer = trace.getTracer("cjt-api");

/** Runs `work` in a span named `name` (the active one for what it calls: its SQL, its fetches), ended when it ends. */
export function inSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
