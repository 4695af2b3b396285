// Where the benchmark scripts keep what they share: the tokens the seed mints and the runs' output (git-ignored).
import path from "node:path";

export const BENCH_OUT = path.join(import.meta.dirname, "out");
export const TOKENS_FILE = path.join(BENCH_OUT, "tokens.json");

export interface BenchTokens {
  /** The large tenant's owner: sees everything. */
  owner: string;
  /** A Standard user of the large tenant with client access `assigned_clients`. */
  assigned: string;
}
