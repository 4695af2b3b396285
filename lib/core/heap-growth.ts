// How far V8 lets the server's JavaScript heap grow past what its last full collection kept before it collects
// again. Near the heap's cap (SERVER_HEAP_MB) V8 keeps the heap within a few MB of the live ~60 MB, so that a
// process sending 1,000-row pages (a few MB of text each, allocated straight into the old generation) ran a full
// collection every 0.4 s, each a pause of 6-26 ms that every other firm's requests waited behind
// (bench/RESULTS.md, the noisy neighbour). Letting it grow to twice the live heap cut those collections six-fold.
import { setFlagsFromString } from "node:v8";

/** SERVER_HEAP_GROWTH_PERCENT (default 100): growth allowed, in percent of the live heap; 0 leaves it to V8. */
export function setHeapGrowth(env: Record<string, string | undefined> = process.env) {
  const percent = Number(env.SERVER_HEAP_GROWTH_PERCENT || 100);
  if (!Number.isInteger(percent) || percent < 0 || percent > 400) {
    throw new Error("SERVER_HEAP_GROWTH_PERCENT must be a whole number from 0 to 400.");
  }
  // A V8 flag it reads each time it sets the next collection's limit, so setting it at start-up takes effect.
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
