import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/** Where the embedded database lives: PGLITE_DATA_DIR, `memory://` for a throwaway one, or .data/pglite. */
export function pgliteDataDir() {
  const dir = process.env.PGLITE_DATA_DIR ?? path.join(/*turbopackIgnore: true*/ process.cwd(), ".data", "pglite");
  return dir.startsWith("memory://") ? dir : path.resolve(/*turbopackIgnore: true*/ dir);
}

export function openPGlite(dataDir = pgliteDataDir()) {
  // PGlite creates its own folder but not the parents (e.g. .data/ on a fresh clone).
  if (!dataDir.startsWith("memory://")) mkdirSync(path.dirname(dataDir), { recursive: true });
  // PostgreSQL's default 128 MB of shared buffers lives in the process's WebAssembly memory: measured, it held the
  // demo server at about 420 MB resident. 16 MB keeps it near 300 MB; the files stay in the OS page cache anyway.
  return new PGlite(dataDir, { extensions: { citext, pg_trgm }, postgresqlconf: ["shared_buffers=16MB"] });
}
