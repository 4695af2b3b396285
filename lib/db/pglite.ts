import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/** Where the embedded database lives: PGLITE_DATA_DIR, `memory://` for a throwaway one, or .data/pglite. */
export function pgliteDataDir() {
  const dir = process.env.PGLITE_DATA_DIR ?? path.join(/*turbopackIgnore: true*/ process.cwd(), ".data", "pglite");
  return dir.startsWith("memory://") ? dir : path.resolve(/*turbopackIgnore: true*/ dir);
}

/** The embedded database is in use by another process (EmbeddedDatabaseLock); the message says which and what to do. */
export class EmbeddedDatabaseBusyError extends Error {}

/** The embedded database's files cannot be read (a crash, a full disk, or two processes at once before the lock). */
export class EmbeddedDatabaseDamagedError extends Error {}

/**
 * Opens the embedded database, after taking its lock: two processes opening one folder corrupt it (seen: the next
 * start aborted in WebAssembly and every row was gone), so a second process is refused before touching the files.
 */
export function openPGlite(dataDir = pgliteDataDir()) {
  if (dataDir.startsWith("memory://")) return createPGlite(dataDir);
  // PGlite creates its own folder but not the parents (e.g. .data/ on a fresh clone).
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const release = holdLock(dataDir);
  let pglite: PGlite;
  try {
    pglite = createPGlite(dataDir);
  } catch (error) {
    release();
    throw error;
  }
  const close = pglite.close.bind(pglite);
  pglite.close = () => close().finally(release);
  return pglite;
}

function createPGlite(dataDir: string) {
  // PostgreSQL's default 128 MB of shared buffers lives in the process's WebAssembly memory: measured, it held the
  // demo server at about 420 MB resident. 16 MB keeps it near 300 MB; the files stay in the OS page cache anyway.
  return new PGlite(dataDir, { extensions: { citext, pg_trgm }, postgresqlconf: ["shared_buffers=16MB"] });
}

/**
 * Waits until an opened embedded database can answer; a folder PostgreSQL cannot start from is said in one sentence
 * with the way out, not WebAssembly's abort and a screenful of minified source.
 */
export async function embeddedDatabaseReady(pglite: PGlite, dataDir = pgliteDataDir()) {
  try {
    await pglite.waitReady;
    await pglite.query("select 1");
  } catch (error) {
    await pglite.close().catch(() => {});
    throw new EmbeddedDatabaseDamagedError(
      `The embedded database in ${dataDir} cannot be opened (${firstLine(error)}): its files are damaged. It holds ` +
        `demo data only; to start afresh, delete the folder (rm -rf ${dataDir}) and run npm run demo again ` +
        "(README, The embedded database).",
    );
  }
}

function firstLine(error: unknown) {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0].slice(0, 200);
}

/** What a lock file records about the process holding the database. */
export interface LockHolder {
  pid: number;
  command: string;
  /** The holder's start time in clock ticks since boot (Linux), so that a reused pid is not taken for the holder. */
  started?: number;
  since: string;
}

// Per process: how many open instances share each lock (a script migrates, closes, then opens again).
const held = ((globalThis as { __cjtEmbeddedLocks?: Map<string, number> }).__cjtEmbeddedLocks ??= new Map());

/** The lock of a data folder: a file beside it, so that copying the folder never copies the lock. */
export function lockPath(dataDir: string) {
  return `${dataDir}.lock`;
}

/** The live process holding a data folder's lock, if any (a lock left by a process that is gone does not count). */
export function embeddedDatabaseHolder(dataDir: string): LockHolder | undefined {
  if (dataDir.startsWith("memory://")) return undefined;
  const holder = readHolder(lockPath(dataDir));
  return holder && alive(holder) ? holder : undefined;
}

function holdLock(dataDir: string): () => void {
  const file = lockPath(dataDir);
  const count = held.get(file);
  if (count === undefined) takeLock(file, dataDir);
  held.set(file, (count ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (held.get(file) ?? 1) - 1;
    if (left > 0) {
      held.set(file, left);
      return;
    }
    held.delete(file);
    removeOwnLock(file);
  };
}

function takeLock(file: string, dataDir: string) {
  const me: LockHolder = { pid: process.pid, command: describeCommand(), since: new Date().toISOString() };
  const started = startTicks(process.pid);
  if (started !== undefined) me.started = started;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, `${JSON.stringify(me)}\n`);
      closeSync(fd);
      listenForExit();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(file);
    if (holder && holder.pid !== process.pid && alive(holder)) throw busy(dataDir, holder);
    // Left by a process that is gone (killed, crashed, or this very pid in an earlier life): stale, taken over.
    try {
      unlinkSync(file);
    } catch {}
  }
  throw new EmbeddedDatabaseBusyError(`Could not take the lock ${file} of the embedded database; try again.`);
}

function busy(dataDir: string, holder: LockHolder) {
  return new EmbeddedDatabaseBusyError(
    `The embedded database in ${dataDir} is in use by process ${holder.pid} (${holder.command}, since ` +
      `${holder.since}), and only one process may open it. Stop that process first (Ctrl-C in its terminal, or ` +
      `kill ${holder.pid}), then run this again; while the demo runs, make tokens on its page /settings/api-tokens.`,
  );
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, "utf8")) as LockHolder;
    return Number.isInteger(holder.pid) && holder.pid > 0 ? holder : undefined;
  } catch {
    return undefined; // unreadable or half written by a process that died while writing it
  }
}

function alive(holder: LockHolder) {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const state = procStat(holder.pid);
  if (!state) return true; // not Linux: the pid alone must do
  if (state.state === "Z") return false; // exited, not yet reaped by its parent
  return holder.started === undefined || holder.started === state.started;
}

/** The state and start time of a process, from /proc (Linux only). */
function procStat(pid: number): { state: string; started: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0], started: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

function startTicks(pid: number) {
  return procStat(pid)?.started;
}

/** How a person would recognise the process: the npm script they ran, else the program and its arguments. */
function describeCommand() {
  const script = process.env.npm_lifecycle_event;
  if (script && script !== "npx") return `npm run ${script}`;
  return process.argv
    .slice(1)
    .map((arg) => path.basename(arg))
    .join(" ");
}

function removeOwnLock(file: string) {
  if (readHolder(file)?.pid !== process.pid) return;
  try {
    unlinkSync(file);
  } catch {}
}

// A process that exits without closing (a script's last line, process.exit) leaves no lock behind; one killed does,
// and the next opener finds its pid gone.
function listenForExit() {
  const flag = globalThis as { __cjtEmbeddedLockExit?: boolean };
  if (flag.__cjtEmbeddedLockExit) return;
  flag.__cjtEmbeddedLockExit = true;
  process.on("exit", removeHeldLocks);
}

function removeHeldLocks() {
  for (const file of held.keys()) removeOwnLock(file);
  held.clear();
}
