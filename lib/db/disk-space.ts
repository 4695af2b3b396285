// Whether the database was lately refused a write for want of disk space (SQLSTATE 53100), for /api/health: no
// read shows a full disk, so the health check learns it from the writes that met it. It says so until a write
// succeeds again, or for at most a minute after the last refusal (a disk freed while no one writes is not seen).
const REPORTED_FOR_MS = 60_000;

let refusedAt: number | undefined;

export function noteDiskFull() {
  refusedAt = Date.now();
}

export function noteWriteSucceeded() {
  refusedAt = undefined;
}

export function diskLatelyFull(): boolean {
  return refusedAt !== undefined && Date.now() - refusedAt < REPORTED_FOR_MS;
}
