// The server's log: JSON lines on stdout (pino), one per API request and one per error, each with the id of the
// request it belongs to. LOG_FORMAT=pretty prints the same lines for a person at a terminal (pino-pretty, in this
// process: no worker thread). LOG_LEVEL (default info) hides what is below it.
// Nothing here logs a token, a password or a body: the request line carries ids only, and the paths below are
// removed from any object logged, as a second guard.
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

function destination(): DestinationStream {
  if (process.env.LOG_FORMAT === "pretty") return pretty({ sync: true, translateTime: "SYS:HH:MM:ss.l" });
  return pino.destination({ dest: 1, sync: true });
}

function createLogger(stream: DestinationStream, level = process.env.LOG_LEVEL || "info"): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: "message",
      errorKey: "error",
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED, remove: true },
      // Every line written while answering a request names it.
      mixin: () => {
        const request = currentRequest();
        return request ? { request_id: request.requestId } : {};
      },
    },
    stream,
  );
}

// On globalThis, like the request context: one logger for every bundle of the built server.
const state = globalThis as { __cjtLogger?: Logger };

export const log = (): Logger => (state.__cjtLogger ??= createLogger(destination()));

/**
 * Sends the log, from `level` up, to another stream (tests read the lines written). Returns a function that puts the
 * previous log back.
 */
export function logTo(stream: DestinationStream, level?: string): () => void {
  const previous = state.__cjtLogger;
  state.__cjtLogger = createLogger(stream, level);
  return () => {
    state.__cjtLogger = previous;
  };
}

/** A failure of the server's own (a bug or a fault outside the app), with its cause. */
export const logError = (message: string, error?: unknown, fields: Record<string, unknown> = {}) =>
  log().error({ kind: "error", ...fields, ...(error === undefined ? {} : { error }) }, message);

/** Something refused on purpose (a throttle, an overload, an unsafe webhook address): not an error of the server. */
export const logRefusal = (message: string, fields: Record<string, unknown> = {}) =>
  log().warn({ kind: "refusal", ...fields }, message);
