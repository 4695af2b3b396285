// Work a request leaves for after its answer is sent, registered by whoever knows it is due (the webhook outbox, when
// it recorded a delivery) and run by the API wrapper, which knows when the answer is out. A registry here keeps the
// imports pointing down: lib/api drains what lib/<resource> registers, without importing it.
import { AsyncLocalStorage } from "node:async_hooks";

export type DeferredTask = () => Promise<void>;

const scope = new AsyncLocalStorage<Map<string, DeferredTask>>();

/**
 * Runs `work` and returns what it deferred, once per key (ten events of one write make one delivery pass). Nothing
 * is collected when `work` throws: a failed write's transaction rolled its events back.
 */
export async function collectDeferred<T>(work: () => Promise<T>): Promise<{ result: T; deferred: DeferredTask[] }> {
  const tasks = new Map<string, DeferredTask>();
  const result = await scope.run(tasks, work);
  return { result, deferred: [...tasks.values()] };
}

/**
 * Asks for `task` to run after the answer of the request under way. Outside one (a script, a settings page, a timer)
 * it is dropped: the callers there run their work themselves or leave it to the webhook timer and cron route.
 */
export function defer(key: string, task: DeferredTask) {
  scope.getStore()?.set(key, task);
}
