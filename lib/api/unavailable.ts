// 503 answers for faults outside the app (decisions.md, Wire format): the database unreachable, no pooled connection
// in time, a statement over its limit, its disk full or another resource short, or this instance over its limit of requests in flight. Each is JSON with
// Retry-After, and its cause is logged once per outage rather than once per request of a storm.
import { ApiError } from "@/lib/core/errors";
import { logError, logRefusal } from "@/lib/core/log";
import { noteDiskFull } from "@/lib/db/disk-space";
import { type DatabaseFault, databaseFault } from "@/lib/db/faults";

const MESSAGES: Record<DatabaseFault | "overloaded", [message: string, retryAfterSeconds: number]> = {
  unreachable: ["The database cannot be reached right now. Try again shortly.", 5],
  "connection-lost": ["The connection to the database was lost. Try again shortly.", 1],
  busy: ["The server is busy: no database connection was free in time. Try again shortly.", 2],
  "statement-timeout": ["The database took too long to answer. Try again shortly.", 2],
  // An operator must free space first: a longer wait than for a passing fault.
  "disk-full": ["The database has no disk space left to store this change. Try again later.", 30],
  "out-of-resources": ["The database is short of memory or another resource right now. Try again shortly.", 5],
  overloaded: ["The server is handling too many requests. Try again shortly.", 1],
};

export function serviceUnavailable(cause: keyof typeof MESSAGES): ApiError {
  const [message, retryAfter] = MESSAGES[cause];
  return new ApiError(503, message, undefined, { "Retry-After": String(retryAfter) });
}

/** The 503 for an error that is a database fault (logged, throttled), or undefined for anything else. */
export function faultAnswer(error: unknown): ApiError | undefined {
  const fault = databaseFault(error);
  if (!fault) return undefined;
  if (fault === "disk-full") noteDiskFull();
  logThrottled(fault, `Answering 503: database fault (${fault}).`, error);
  return serviceUnavailable(fault);
}

const LOG_INTERVAL_MS = 30_000;
const lastLogs = new Map<string, { at: number; unlogged: number }>();

/** Logs the first occurrence of a cause, then at most once every 30 s with the count of those not logged. */
export function logThrottled(cause: string, message: string, error?: unknown) {
  const now = Date.now();
  const last = lastLogs.get(cause);
  if (last && now - last.at < LOG_INTERVAL_MS) {
    last.unlogged++;
    return;
  }
  const since = last?.unlogged ? ` ${last.unlogged} more since the last report.` : "";
  lastLogs.set(cause, { at: now, unlogged: 0 });
  // Overload is a refusal by design; a database fault is a fault.
  if (cause === "overloaded") logRefusal(`${message}${since}`, { cause });
  else logError(`${message}${since}`, error, { cause });
}
