// Which errors are faults of the database or the network rather than bugs: what node-postgres, @prisma/adapter-pg
// and Prisma 7 actually throw for each (tests/faults/database.test.ts observes them through a fault proxy).
// - unreachable: refused, unknown host, or no connection within the connect timeout. Prisma: P1001, or P2010 (raw
//   queries) with the adapter's DatabaseNotReachable; pg: "Connection terminated due to connection timeout".
// - connection-lost: the connection broke under a query (a restart, a cut). pg throws "Connection terminated
//   unexpectedly" unwrapped; PostgreSQL ends sessions with 57P01..57P03 when it shuts down. A connection closed by the
//   app after a statement's answer did not come in time (lib/db/client.ts) fails what follows on it as "not queryable".
// - busy: no pooled connection free within the wait limit ("timeout exceeded when trying to connect"), or the server
//   has no connection slot left (53300).
// - statement-timeout: 57014 (statement_timeout), the client-side deadline ("Query read timeout"), or the request's
//   database deadline (lib/db/deadline.ts).
// - disk-full: 53100 ("could not extend file ...: No space left on device"), which PostgreSQL and the embedded
//   database (PGlite writes through Node's file system) both raise; ENOSPC where the file system says it directly.
// - out-of-resources: the rest of SQLSTATE class 53 (insufficient resources: 53000, 53200 out of memory, 53400
//   configuration limit exceeded), a state of the server that passes, not a bug of the request.
export type DatabaseFault =
  | "unreachable"
  | "connection-lost"
  | "busy"
  | "statement-timeout"
  | "disk-full"
  | "out-of-resources";

const BY_PRISMA_CODE: Record<string, DatabaseFault> = {
  P1001: "unreachable",
  P1002: "unreachable",
  P1008: "statement-timeout",
  P1017: "connection-lost",
  P2024: "busy",
  // An interactive transaction that got no connection within its wait, or outran its time limit.
  P2028: "busy",
};
const BY_ADAPTER_KIND: Record<string, DatabaseFault> = {
  DatabaseNotReachable: "unreachable",
  SocketTimeout: "unreachable",
  ConnectionClosed: "connection-lost",
  TooManyConnections: "busy",
};
const BY_CODE: Record<string, DatabaseFault> = {
  ECONNREFUSED: "unreachable",
  ENOTFOUND: "unreachable",
  EAI_AGAIN: "unreachable",
  ETIMEDOUT: "unreachable",
  EHOSTUNREACH: "unreachable",
  ECONNRESET: "connection-lost",
  EPIPE: "connection-lost",
  "57P01": "connection-lost",
  "57P02": "connection-lost",
  "57P03": "unreachable",
  "53300": "busy",
  "53100": "disk-full",
  ENOSPC: "disk-full",
  "57014": "statement-timeout",
};
/** SQLSTATE class 53, insufficient resources, for the codes not named above. */
const byCode = (code: string): DatabaseFault | undefined =>
  BY_CODE[code] ?? (/^53[0-9A-Z]{3}$/.test(code) ? "out-of-resources" : undefined);
const BY_MESSAGE: [RegExp, DatabaseFault][] = [
  [/^Connection terminated due to connection timeout/, "unreachable"],
  [/^Connection terminated/, "connection-lost"],
  [/^timeout exceeded when trying to connect/, "busy"],
  [/^Query read timeout/, "statement-timeout"],
  [/^Request database deadline passed/, "statement-timeout"],
  [/^Client (has encountered a connection error|was closed) and is not queryable/, "connection-lost"],
];

interface ErrorLike {
  code?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

/** The database fault behind an error, looking through Prisma's and the adapter's wrappers; undefined for a bug. */
export function databaseFault(error: unknown, depth = 0): DatabaseFault | undefined {
  if (!error || typeof error !== "object" || depth > 5) return undefined;
  const e = error as ErrorLike;
  const found =
    (typeof e.code === "string" && (BY_PRISMA_CODE[e.code] ?? byCode(e.code))) ||
    (typeof e.kind === "string" && BY_ADAPTER_KIND[e.kind]) ||
    (typeof e.originalCode === "string" && byCode(e.originalCode)) ||
    (typeof e.message === "string" && BY_MESSAGE.find(([pattern]) => pattern.test(e.message as string))?.[1]);
  return (
    found || databaseFault(e.meta?.driverAdapterError, depth + 1) || databaseFault(e.cause, depth + 1) || undefined
  );
}
