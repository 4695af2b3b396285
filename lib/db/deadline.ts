// One deadline for all of an API request's database work (docs/faults.md: with the database hung, every answer is a
// JSON 503 within 10 s). Each wait has its own limit (a connection 3 s, a statement 6 s on the client's side), but a
// request may wait several times: a statement inside a transaction, then its ROLLBACK on the same connection, then the
// Idempotency-Key's release; a hung primary once made that 12 s. So the route wrapper (lib/api/route.ts) runs a
// request's work under one deadline, DATABASE_REQUEST_DEADLINE_MS after admission: every statement's client-side
// limit is cut to the time left (lib/db/client.ts), none starts after it, and the wrapper answers its 503 when it
// passes, whatever the work still waits for.
// On globalThis, as the request context is (lib/core/request-context.ts): the built server may load this module once
// per bundle, while the one pool (and the statements it sends) is shared.
import { AsyncLocalStorage } from "node:async_hooks";
import { currentRequest } from "@/lib/core/request-context";

const storage = ((
  globalThis as { __cjtDatabaseDeadline?: AsyncLocalStorage<DatabaseDeadline> }
).__cjtDatabaseDeadline ??= new AsyncLocalStorage<DatabaseDeadline>());

/**
 * DATABASE_REQUEST_DEADLINE_MS: how long after admission an API request's database work may take altogether (default
 * 8 s). With the front door's wait for a place (API_MAX_QUEUE_MS, 0.5 s) the answer stays within the 10 s promised.
 */
export function requestDeadlineMs(): number {
  const setting = Number(process.env.DATABASE_REQUEST_DEADLINE_MS);
  return setting > 0 ? setting : 8_000;
}

/** What a statement meets once its request's deadline has passed: a statement timeout (lib/db/faults.ts). */
export class DatabaseDeadlineError extends Error {
  constructor() {
    super("Request database deadline passed: DATABASE_REQUEST_DEADLINE_MS after admission");
    this.name = "DatabaseDeadlineError";
  }
}

export class DatabaseDeadline {
  /** performance.now() at which the request's database work must end; undefined once lifted. */
  #at: number | undefined;

  constructor(at: number) {
    this.#at = at;
  }

  /** Runs `work` with this deadline on every database wait in it (and in what it starts). */
  run<T>(work: () => Promise<T>): Promise<T> {
    return storage.run(this, work);
  }

  /** Milliseconds left (0 or less once passed); undefined when lifted. */
  left(): number | undefined {
    return this.#at === undefined ? undefined : this.#at - performance.now();
  }

  /**
   * The request has its answer: what runs after it (a streamed page's later statements, work deferred past the
   * answer) waits under each statement's own limits only, not a deadline meant for the answer.
   */
  lift() {
    this.#at = undefined;
  }

  /** The work's outcome, or a DatabaseDeadlineError as soon as the deadline passes first. */
  async within<T>(work: Promise<T>): Promise<T> {
    const left = this.left();
    if (left === undefined) return work;
    let timer: NodeJS.Timeout | undefined;
    const passed = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DatabaseDeadlineError()), Math.max(0, left));
    });
    try {
      return await Promise.race([work, passed]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The current API request's deadline: DATABASE_REQUEST_DEADLINE_MS after its admission (now, for a request no server
 * admitted), and never later than the deadline it runs within (an MCP tool call's REST request runs within its
 * envelope's, which authenticated first).
 */
export function requestDeadline(): DatabaseDeadline {
  const own = (currentRequest()?.startedAt ?? performance.now()) + requestDeadlineMs();
  const outer = storage.getStore()?.left();
  return new DatabaseDeadline(outer === undefined ? own : Math.min(own, performance.now() + outer));
}

/** The time left to the current request's database deadline, in ms; undefined outside one (or once lifted). */
export const databaseTimeLeft = (): number | undefined => storage.getStore()?.left();

/** Runs `work` outside any request's deadline: work that goes on after the answer (a key's release tried again). */
export const outsideDatabaseDeadline = <T>(work: () => T): T => storage.exit(work);
