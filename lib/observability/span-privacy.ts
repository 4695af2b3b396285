// Span attributes keep no query string (decisions.md, Observability): Next's request span carries `http.target`
// (and a URL) with the whole query (`?search=…`, `?q=…`), which may hold names and emails, and the path as sent
// (`/users/email/jane%40…`). This processor, first of the tracer's, cuts the query off and writes an email segment as
// `{email}` before any exporter sees the span. The route template is the route's own
// (lib/observability/api-request.ts).
import type { ReadableSpan, Span, SpanProcessor } from "@opentelemetry/sdk-trace-base";

const WITH_QUERY = ["http.target", "http.url", "url.full", "next.url"];
const QUERY_ONLY = ["url.query"];

/** A target or URL without its query string (and fragment), and with any path segment like an email as `{email}`. */
export const withoutQuery = (value: string) =>
  value.replace(/[?#].*$/s, "").replace(/\/[^/]*(@|%40)[^/]*/gi, "/{email}");

function cleaned(attributes: Record<string, unknown>): Record<string, string> {
  const changed: Record<string, string> = {};
  for (const key of WITH_QUERY) {
    const value = attributes[key];
    if (typeof value === "string" && withoutQuery(value) !== value) changed[key] = withoutQuery(value);
  }
  for (const key of QUERY_ONLY) if (typeof attributes[key] === "string" && attributes[key]) changed[key] = "";
  return changed;
}

export class QueryStrippingSpanProcessor implements SpanProcessor {
  onStart(span: Span) {
    span.setAttributes(cleaned(span.attributes));
  }

  onEnd(span: ReadableSpan) {
    // Attributes set after the start: an ended span takes no setAttribute, so its attributes are changed in place.
    Object.assign(span.attributes, cleaned(span.attributes));
  }

  forceFlush() {
    return Promise.resolve();
  }

  shutdown() {
    return Promise.resolve();
  }
}
