// The server's log: JSON lines on stdout (pino), one per API request and one per error, each with the id of the
// request it belongs to. LOG_FORMAT=pretty prints the same lines for a person at a terminal (pino-pretty, in this
// process: no worker thread). LOG_LEVEL (default info) hides what is below it.
// Nothing here logs a token, a password or a body: the request line carries ids and numbers only (requestLog), and
// the paths below are removed from any other object logged, as a second guard.
// JSON lines are written asynchronously (pino's sonic-boom): a request does not wait on a write to stdout, lines
// written meanwhile go out together, and pino flushes what is left when the process exits. At most MAX_BUFFERED bytes
// wait for a slow reader of stdout; past it, lines are dropped rather than held in memory.
import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { currentRequest } from "./request-context";

const REDACTED = [
  "authorization",
  "password",
  "token",
  "secret",
  "body",
  "*.authorization",
  "*.password",
  "*.token",
  "*.secret",
  "*.body",
  "headers.cookie",
];

const MAX_BUFFERED = 8 * 1024 * 1024;

function destination(): DestinationStream {
  if (process.env.LOG_FORMAT === "pretty") return pretty({ sync: true, translateTime: "SYS:HH:MM:ss.l" });
  return pino.destination({ dest: 1, sync: false, maxLength: MAX_BUFFERED });
}

interface Loggers {
  /** Errors, refusals and anything else: redacted, and named by the request being answered. */
  log: Logger;
  /** The one line per API request (lib/observability/api-request.ts): fixed fields, nothing to redact. */
  requests: Logger;
}

function createLoggers(stream: DestinationStream, level = process.env.LOG_LEVEL || "info"): Loggers {
  const options = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: "message",
    errorKey: "error",
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return {
    log: pino(
      {
        ...options,
        redact: { paths: REDACTED, remove: true },
        // Every line written while answering a request names it.
        mixin: () => {
          const request = currentRequest();
          return request ? { request_id: request.requestId } : {};
        },
      },
      stream,
    ),
    requests: pino(options, stream),
  };
}

// On globalThis, like the request context: one log for every bundle of the built server.
const state = globalThis as { __cjtLoggers?: Loggers };
const loggers = (): Loggers => (state.__cjtLoggers ??= createLoggers(destination()));

export const log = (): Logger => loggers().log;

/** The request lines' logger: ids and numbers only, so none of the general log's redaction pass (lib/observability). */
export const requestLog = (): Logger => loggers().requests;

/**
 * Sends the log, from `level` up, to another stream (tests read the lines written). Returns a function that puts the
 * previous log back.
 */
export function logTo(stream: DestinationStream, level?: string): () => void {
  const previous = state.__cjtLoggers;
  state.__cjtLoggers = createLoggers(stream, level);
  return () => {
    state.__cjtLoggers = previous;
  };
}

/** A failure of the server's own (a bug or a fault outside the app), with its cause. */
export const logError = (message: string, error?: unknown, fields: Record<string, unknown> = {}) =>
  log().error({ kind: "error", ...fields, ...(error === undefined ? {} : { error }) }, message);

/** Something refused on purpose (a throttle, an overload, an unsafe webhook address): not an error of the server. */
export const logRefusal = (message: string, fields: Record<string, unknown> = {}) =>
  log().warn({ kind: "refusal", ...fields }, message);

const REFUSALS_INTERVAL_MS = 30_000;
/** Refusal summaries kept (one per cause and refused party); past it the oldest is forgotten. */
const REFUSALS_KEPT = 10_000;
const refusalsLogged = new Map<string, { at: number; unlogged: number }>();

/**
 * A refusal of a party (`who`: a token's hash prefix, a firm, or nobody known) for `cause`: the first logged at once,
 * then at most once every 30 s per cause and party with `refused_since` counting those not logged, so a storm of 503s
 * is a few lines that still say who was refused and why.
 */
export function logRefusalOf(cause: string, message: string, who: Record<string, unknown>) {
  const key = `${cause} ${JSON.stringify(who)}`;
  const now = Date.now();
  const last = refusalsLogged.get(key);
  if (last && now - last.at < REFUSALS_INTERVAL_MS) {
    last.unlogged++;
    return;
  }
  refusalsLogged.delete(key);
  refusalsLogged.set(key, { at: now, unlogged: 0 });
  if (refusalsLogged.size > REFUSALS_KEPT) refusalsLogged.delete(refusalsLogged.keys().next().value!);
  logRefusal(message, { cause, ...who, refused_since: (last?.unlogged ?? 0) + 1 });
}
