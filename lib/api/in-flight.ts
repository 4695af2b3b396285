// The API requests this instance is answering: over API_MAX_IN_FLIGHT (default 64, 0 for no limit) more are refused
// at once with a 503 rather than queued until callers time out, and a shutdown waits for the count to reach zero.
// Kept on globalThis: instrumentation.ts (the shutdown) and the route handlers are separate bundles in `next start`.
interface InFlight {
  count: number;
  onIdle: Set<() => void>;
}
const state = ((globalThis as { __cjtInFlight?: InFlight }).__cjtInFlight ??= { count: 0, onIdle: new Set() });

const limit = () => Number(process.env.API_MAX_IN_FLIGHT || 64);

/** Counts a request in, or answers false when the instance is at its limit. */
export function enterRequest(): boolean {
  const max = limit();
  if (max > 0 && state.count >= max) return false;
  state.count++;
  return true;
}

export function leaveRequest() {
  state.count--;
  if (state.count === 0) for (const resolve of state.onIdle) resolve();
}

/** Resolves true once no request is in flight, or false after `timeoutMs`. */
export function requestsDrained(timeoutMs: number): Promise<boolean> {
  if (state.count === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (drained: boolean) => {
      clearTimeout(timer);
      state.onIdle.delete(idle);
      resolve(drained);
    };
    const idle = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    state.onIdle.add(idle);
  });
}
