// What the benchmark's parts (bench/run.ts, bench/noisy.ts) share: waiting, percentiles, how figures are written, and
// a judged target of the report's last table.

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A latency in ms, to a useful precision; "none" when nothing was measured (no answer at all). */
export const ms = (value: number) =>
  Number.isNaN(value) ? "none" : value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);

export const perSecond = (value: number) => value.toFixed(0);
export const share = (value: number) => `${Math.round(value * 100)}%`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export function percentile(values: number[], p: number) {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export interface Judged {
  target: string;
  measured: string;
  /** The values of this run the target is compared with. */
  floors: string;
  met: boolean;
}
