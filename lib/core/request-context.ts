// What the server knows about the API request it is answering, wherever in that request's work it is asked: its id
// (for error bodies, log lines and spans), when it started, who called, and how long it spent in the database.
// One AsyncLocalStorage on globalThis: the built server may load this module once per bundle, and the front door
// (lib/http/before-next.ts) and the route wrapper must share it.
import { AsyncLocalStorage } from "node:async_hooks";

export interface RequestContext {
  requestId: string;
  /** performance.now() when the request reached the app (was handed to Next). */
  startedAt: number;
  /**
   * Milliseconds from the request's arrival at the server to startedAt: its body's arrival and its wait for a place
   * (lib/api/in-flight.ts). Absent in-process.
   */
  waitMs?: number;
  tenantId?: number;
  userId?: number;
  tokenId?: number;
  /** Milliseconds spent waiting on database statements so far. */
  dbMs: number;
  /** The answer as the server's front door counts it (lib/observability/api-request.ts); absent in-process. */
  sent?: AnswerSent;
}

/**
 * What the front door knows of an answer: the bytes of its body written so far, whether its connection has closed,
 * and who to tell the bytes once it has. Plain data: timers and sockets made while a request runs keep its context
 * (AsyncLocalStorage), and a context that reached the response (or any function holding it) would keep the requests
 * before it, one after another.
 */
export interface AnswerSent {
  bytes: number;
  closed: boolean;
  done?: (bytes: number) => void;
}

const storage = ((globalThis as { __cjtRequestContext?: AsyncLocalStorage<RequestContext> }).__cjtRequestContext ??=
  new AsyncLocalStorage<RequestContext>());

export const currentRequest = (): RequestContext | undefined => storage.getStore();

export const runInRequest = <T>(context: RequestContext, work: () => T): T => storage.run(context, work);

/** Records who is calling, once the token is known (lib/api/route.ts). */
export function noteCaller(caller: { tenant: { id: number }; user: { id: number }; tokenId: number }) {
  const context = storage.getStore();
  if (!context) return;
  context.tenantId = caller.tenant.id;
  context.userId = caller.user.id;
  context.tokenId = caller.tokenId;
}

/** Times one database statement into the current request's database time. */
export async function timedStatement<T>(statement: () => Promise<T>): Promise<T> {
  const context = storage.getStore();
  if (!context) return statement();
  const start = performance.now();
  try {
    return await statement();
  } finally {
    context.dbMs += performance.now() - start;
  }
}
