// Where the benchmark scripts keep what they share: the tokens the seed mints and the runs' output (git-ignored).
import path from "node:path";

export const BENCH_OUT = path.join(import.meta.dirname, "out");
/** BENCH_SMOKE=1: the CI smoke run (a small tenant, a second per measurement, no targets judged). */
export const SMOKE = process.env.BENCH_SMOKE === "1";
/** The smoke run's tokens are kept apart: its throwaway database must not replace the large tenant's tokens. */
export const TOKENS_FILE = path.join(BENCH_OUT, SMOKE ? "tokens-smoke.json" : "tokens.json");

export interface BenchTokens {
  /** The large tenant's owner: sees everything. */
  owner: string;
  /** A Standard user of the large tenant with client access `assigned_clients`. */
  assigned: string;
  /** An app's access token of the owner (OAuth), minted when a run starts (bench/app-token.ts): not in the file. */
  app?: string;
  /** Each of the noisy-neighbour part's other firms' owner (issue 54); absent in a database seeded before them. */
  firms?: string[];
}
