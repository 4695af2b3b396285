// Password hashing off the event loop. bcryptjs is plain JavaScript: one check at cost 10 is about 70 ms of CPU, and
// on the main thread a burst of sign-ins blocks every other request, and the rate limiter's Redis deadline with them
// (issue 28). Hashes are checked and made in a small pool of worker threads instead; at most MAX_IN_FLIGHT jobs run or
// wait per instance, and a job past that is refused (PasswordChecksBusy) rather than queued without end.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

/** Thrown when the instance already has MAX_IN_FLIGHT password jobs running or waiting. */
export class PasswordChecksBusy extends Error {
  constructor() {
    super("Too many password checks in flight on this instance");
  }
}

/** Jobs running or waiting per instance: enough for a busy office, few enough that waiting stays short. */
export const MAX_IN_FLIGHT = 32;
// One worker per CPU but one, at least one, at most 4: the rest of the machine keeps answering the API.
const POOL_SIZE = Math.max(1, Math.min(4, availableParallelism() - 1));
const COST = 10;

type Job = { op: "compare"; password: string; hash: string } | { op: "hash"; password: string };
interface Pending {
  job: Job;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

const idle: Worker[] = [];
let workers = 0;
const waiting: Pending[] = [];
let inFlight = 0;
let nextId = 0;

function run(job: Job): Promise<unknown> {
  if (inFlight >= MAX_IN_FLIGHT) return Promise.reject(new PasswordChecksBusy());
  inFlight++;
  return new Promise<unknown>((resolve, reject) => {
    waiting.push({ job, resolve, reject });
    dispatch();
  }).finally(() => {
    inFlight--;
  });
}

function dispatch() {
  while (waiting.length > 0) {
    const worker = idle.pop() ?? (workers < POOL_SIZE ? startWorker() : undefined);
    if (!worker) return;
    const pending = waiting.shift() as Pending;
    const id = nextId++;
    worker.ref();
    const done = (settle: () => void) => {
      worker.off("message", onMessage).off("error", onError);
      settle();
    };
    const onMessage = (message: { id: number; result?: unknown; error?: string }) => {
      if (message.id !== id) return;
      done(() => (message.error ? pending.reject(new Error(message.error)) : pending.resolve(message.result)));
      // An idle worker does not keep the process alive.
      worker.unref();
      idle.push(worker);
      dispatch();
    };
    const onError = (error: Error) => {
      done(() => pending.reject(error));
      workers--;
      dispatch();
    };
    worker.on("message", onMessage).on("error", onError);
    worker.postMessage({ id, cost: COST, ...pending.job });
  }
}

function startWorker(): Worker {
  workers++;
  return new Worker(new URL("./password-worker.ts", import.meta.url));
}

/** Whether the password matches the bcrypt hash, checked on a worker thread. */
export async function comparePassword(password: string, hash: string): Promise<boolean> {
  return (await run({ op: "compare", password, hash })) === true;
}

/** A bcrypt hash of the password, made on a worker thread. */
export async function hashPassword(password: string): Promise<string> {
  return String(await run({ op: "hash", password }));
}
