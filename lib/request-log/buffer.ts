// Each token's recent requests are written off the request path: an answered request adds its entry to this
// instance's buffer, and within REQUEST_LOG_FLUSH_MS (default 2 s; 200 ms on Vercel) the buffer goes to the database
// in one multi-row insert. Each request hands the write of its batch to Next's after(), which on Vercel is the
// platform's waitUntil: an instance is not frozen before its entries are written (a timer alone does not fire in a
// frozen instance, and the batch was lost when the instance was recycled: issue 51). On `next start` after() only
// awaits the same write. Losing the last batch on a crash is acceptable for this log (never for the audit log); a
// shutdown flushes it (lib/api/shutdown.ts). Entries older than 7 days are deleted by the instance that flushes, at
// most once an hour, and each batch keeps only the newest REQUEST_LOG_PER_TOKEN (1,000) entries of each token it
// wrote to: the rate limit alone allowed about 3 million rows (1-6 GB) per token a week (issue 54). REQUEST_LOG=off keeps nothing (the bench measures the log's cost on the hot path against it).

import { after } from "next/server";
import { logError } from "@/lib/core/log";
import { database } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";

export interface TokenRequestEntry {
  tenantId: number;
  tokenId: number;
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  message: string | null;
  errors: Record<string, string[]> | null;
}

/** Entries are kept this long. */
export const RETENTION_DAYS = 7;
/** At most this many entries wait for a flush; past it, new ones are dropped (a database down for long). */
const MAX_BUFFERED = 20_000;
/** A path is kept to this many characters. */
const PATH_MAX = 2048;
const PRUNE_EVERY_MS = 60 * 60_000;

/** REQUEST_LOG_PER_TOKEN: how many of each token's newest entries are kept (default 1,000, twenty pages of the page's 50). */
export function entriesKeptPerToken(): number {
  const setting = Number(process.env.REQUEST_LOG_PER_TOKEN || 1000);
  return Number.isInteger(setting) && setting > 0 ? setting : 1000;
}

/** The write of the entries buffered now: due when its window ends, or sooner if something flushes first. */
interface Batch {
  written: Promise<void>;
  resolve: () => void;
  timer: NodeJS.Timeout;
}

interface Buffer {
  entries: (TokenRequestEntry & { at: Date })[];
  due?: Batch;
  flushing?: Promise<void>;
  lastPrune: number;
}
// On globalThis: every bundle of the built server adds to the one buffer the shutdown flushes.
const buffer = ((globalThis as { __cjtTokenRequests?: Buffer }).__cjtTokenRequests ??= { entries: [], lastPrune: 0 });

// On Vercel an instance stays up (and is billed) while its after() work runs: a shorter window there.
const flushIntervalMs = () => Number(process.env.REQUEST_LOG_FLUSH_MS || (process.env.VERCEL ? 200 : 2000));
const requestLogOff = () => process.env.REQUEST_LOG === "off";

/** Adds an answered request to the buffer; its answer waits for nothing, its after() work for the batch's write. */
export function recordTokenRequest(entry: TokenRequestEntry) {
  if (requestLogOff() || buffer.entries.length >= MAX_BUFFERED) return;
  buffer.entries.push({ ...entry, path: entry.path.slice(0, PATH_MAX), at: new Date() });
  if (!buffer.due) {
    const { promise, resolve } = Promise.withResolvers<void>();
    // Unref'd: a batch waiting for its window does not keep a process alive that has nothing else to do.
    const timer = setTimeout(() => void flushTokenRequests(), flushIntervalMs()).unref();
    buffer.due = { written: promise, resolve, timer };
  }
  const { written } = buffer.due;
  try {
    after(() => written);
  } catch {
    // Outside a request (tests call handlers directly): the batch is written when its window ends all the same.
  }
}

/** Writes what is buffered now (one statement), and prunes old entries when due. */
export async function flushTokenRequests(): Promise<void> {
  await buffer.flushing;
  // The batch's after() work ends with this write, whoever flushes (its window, a shutdown, a test): a server stopped
  // with Ctrl-C waits for its after() work, which must not wait out the window.
  const batch = buffer.due;
  buffer.due = undefined;
  if (batch) clearTimeout(batch.timer);
  const entries = buffer.entries.splice(0);
  if (entries.length) {
    buffer.flushing = write(entries).finally(() => {
      buffer.flushing = undefined;
    });
    await buffer.flushing;
  }
  batch?.resolve();
}

async function write(entries: Buffer["entries"]) {
  const rows = entries.map((e) => ({
    tenant_id: e.tenantId,
    token_id: e.tokenId,
    created_at: e.at.toISOString(),
    request_id: e.requestId,
    method: e.method,
    path: e.path,
    status: e.status,
    duration_ms: e.durationMs,
    message: e.message,
    errors: e.errors,
  }));
  try {
    const { prisma } = await database();
    // A token deleted since its request was answered has no entries: the join drops them rather than failing the batch.
    // Inserted in the order they were answered (the join may return them in any), so that ids break ties between
    // entries of the same millisecond as time does: the log lists newest first by time, then id.
    await prisma.$executeRaw`
      INSERT INTO token_requests (tenant_id, token_id, created_at, request_id, method, path, status, duration_ms, message, errors)
      SELECT r.tenant_id, r.token_id, r.created_at, r.request_id, r.method, r.path, r.status, r.duration_ms, r.message, r.errors
      FROM ROWS FROM (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS (tenant_id int, token_id int,
          created_at timestamptz, request_id varchar, method varchar, path text, status smallint, duration_ms int,
          message text, errors jsonb))
        WITH ORDINALITY AS r(tenant_id, token_id, created_at, request_id, method, path, status, duration_ms, message,
          errors, answered)
      JOIN api_tokens t ON t.tenant_id = r.tenant_id AND t.id = r.token_id
      ORDER BY r.answered`;
    // Each token written to keeps its newest entries only: past the kept-th newest (time, then id, as listed), deleted.
    // The index (tenant_id, token_id, created_at DESC, id DESC) finds that entry in as many steps as are kept.
    await prisma.$executeRaw`
      DELETE FROM token_requests d
      USING (SELECT DISTINCT tenant_id, token_id
               FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS (tenant_id int, token_id int)) b,
        LATERAL (SELECT x.created_at, x.id FROM token_requests x
                  WHERE x.tenant_id = b.tenant_id AND x.token_id = b.token_id
                  ORDER BY x.created_at DESC, x.id DESC OFFSET ${entriesKeptPerToken() - 1} LIMIT 1) kept
      WHERE d.tenant_id = b.tenant_id AND d.token_id = b.token_id
        AND (d.created_at, d.id) < (kept.created_at, kept.id)`;
    if (Date.now() - buffer.lastPrune >= PRUNE_EVERY_MS) {
      buffer.lastPrune = Date.now();
      await prisma.$executeRaw(
        Prisma.sql`DELETE FROM token_requests WHERE created_at < now() - make_interval(days => ${RETENTION_DAYS})`,
      );
    }
  } catch (error) {
    logError(`Writing ${entries.length} token request log entries failed; they are dropped.`, error);
  }
}
