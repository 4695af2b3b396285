// Token lookups kept in memory per app instance, so that authentication does not run its lookup on the pool, with
// revocation still immediate on every instance. The database announces every change that can end or narrow a
// token's use (revoke, delete, expiry, access, user archive, role or permission change: the auth_change triggers of
// prisma/migrations/20261128000500_auth_change_notify) with NOTIFY, in the transaction that makes it; each instance
// LISTENs on a session of its own. An instance whose listener is down does not use what it cached.
//
// "Immediate" is strict, not "within the notification's flight time": before a cached row is trusted, the request
// waits for a SELECT 1 sent on the listening session after the request arrived. PostgreSQL delivers a session's
// pending notifications before that statement's ReadyForQuery, so every change committed before the request began
// has been heard by then. One such statement serves every request waiting at the time (they share it), so under load
// it costs one tiny statement per round trip, on one connection, instead of a pool checkout and the lookup's join
// per request.
//
// "Can hear" is proven, not assumed from the URL (decisions.md, Deployment): a LISTEN through a transaction-mode
// pooler succeeds, and so do the syncs, yet it hears nothing, and a deleted token was answered for the cache's
// minute (issue 51). So a new listener first sends a notification of its own through the app's pool and is trusted
// only once it has heard it. A sync that does not come back in time (a connection dropped silently, as while a
// Vercel instance is frozen) ends the listener at once: the requests after it look tokens up, not wait in turn.
import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import pg from "pg";
import type { Database } from "@/lib/db/client";
import { directDatabaseUrl } from "@/lib/db/describe";

const CHANNEL = "auth_change";
/** A safety net only: what is cached is dropped on every change the triggers announce. */
const ENTRY_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
/** A request waits this long for the listener's sync; past it, it reads the token from the database. */
const SYNC_WAIT_MS = 1_000;
/** A lost listener is reopened on a later lookup, at most this often. */
const RECONNECT_AFTER_MS = 1_000;
/** A new listener must hear its own notification, sent through the pool, within this long to be trusted. */
const PROOF_WAIT_MS = 3_000;
/** Payloads of the listeners' proofs: heard by every instance, and no change of anything. */
const PROOF_PREFIX = "heard:";

/** An open listener: synced() resolves true once every change committed before the call has been heard. */
interface Listener {
  synced(): Promise<boolean>;
}

/** Opens a listener that calls onChange with each payload (a tenant id), and onLost once if it stops. */
type Listen = (onChange: (payload: string) => void, onLost: () => void) => Promise<Listener>;

/** Sends a notification on the channel through the app's own pool, as the triggers' changes are. */
type Announce = (payload: string) => Promise<unknown>;

interface Entry<Row> {
  row: Row;
  cachedAt: number;
}

export class TokenCache<Row extends { tenantId: number }> {
  readonly #entries = new Map<string, Entry<Row>>();
  /** Moves on every change heard: a lookup that began before one is not cached (it may have read the old rows). */
  #generation = 0;
  #listener: Listener | undefined;
  #opening: Promise<unknown> | undefined;
  #lastAttempt = 0;
  #failing = false;

  constructor(private readonly listen: Listen) {}

  /** The cached row of a token hash, once every change committed before this call has been heard; else undefined. */
  async get(hash: string): Promise<Row | undefined> {
    const listener = this.#listener;
    if (!listener) {
      this.#open();
      return undefined;
    }
    if (!this.#entries.has(hash) || !(await listener.synced())) return undefined;
    const entry = this.#entries.get(hash); // read after the sync: a change heard meanwhile has removed it
    if (!entry) return undefined;
    if (Date.now() - entry.cachedAt >= ENTRY_TTL_MS) {
      this.#entries.delete(hash);
      return undefined;
    }
    return entry.row;
  }

  /**
   * Opens the listener if it is not open, and resolves once that attempt has settled: true when listening, false
   * when the cache is off (authentication then reads the database every time). A starting instance's readiness.
   */
  async listening(): Promise<boolean> {
    if (!this.#listener) {
      this.#lastAttempt = 0;
      this.#open();
      await this.#opening;
    }
    return this.#listener !== undefined;
  }

  /** Taken before the lookup whose row is then offered to put(). */
  generation(): number {
    return this.#generation;
  }

  put(hash: string, row: Row, generation: number) {
    if (generation !== this.#generation || !this.#listener) return;
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(hash, { row, cachedAt: Date.now() });
  }

  /** Drops what is cached of one tenant (a change heard), or everything. */
  invalidate(tenantId?: number) {
    this.#generation++;
    if (tenantId === undefined || !Number.isSafeInteger(tenantId)) {
      this.#entries.clear();
      return;
    }
    for (const [hash, entry] of this.#entries) if (entry.row.tenantId === tenantId) this.#entries.delete(hash);
  }

  #open() {
    const now = Date.now();
    if (this.#opening || now - this.#lastAttempt < RECONNECT_AFTER_MS) return;
    this.#lastAttempt = now;
    let lost = false;
    this.#opening = this.listen(
      (payload) => this.invalidate(payload ? Number(payload) : undefined),
      () => {
        lost = true;
        this.#listener = undefined;
        this.invalidate();
      },
    )
      .then(
        (listener) => {
          if (lost) return;
          // What was read before the listener was up may have missed a change: not put.
          this.invalidate();
          this.#listener = listener;
          this.#failing = false;
        },
        (error) => {
          // Said once per outage, not at every retry.
          if (!this.#failing)
            console.error("Authentication cache: cannot listen for changes; authenticating from the database:", error);
          this.#failing = true;
        },
      )
      .finally(() => {
        this.#opening = undefined;
      });
  }
}

// On globalThis, as the open databases are (lib/db/client.ts): Next's dev reloads then reuse each database's listener.
const caches = ((
  globalThis as { __cjtTokenCaches?: WeakMap<object, TokenCache<{ tenantId: number }>> }
).__cjtTokenCaches ??= new WeakMap());

/** The cache of one open database (lib/db/client.ts), made on first use. */
export function tokenCacheOf<Row extends { tenantId: number }>(
  db: Pick<Database, "kind" | "pglite" | "prisma">,
): TokenCache<Row> {
  let cache = caches.get(db);
  if (!cache) {
    const { pglite } = db;
    cache = new TokenCache(
      pglite
        ? // One process's database: its notifications are delivered in-process, before the writing query returns.
          async (onChange) => {
            await pglite.listen(CHANNEL, onChange);
            return { synced: async () => true };
          }
        : (onChange, onLost) =>
            listenOnPostgres(
              onChange,
              onLost,
              (payload) => db.prisma.$executeRaw`SELECT pg_notify(${CHANNEL}, ${payload})`,
            ),
    );
    caches.set(db, cache);
  }
  return cache as TokenCache<Row>;
}

/**
 * LISTEN needs a session of its own: over the direct URL (a transaction-mode pooler cannot hold one). The connection
 * never keeps the process alive. Resolves once the listener has heard `announce`'s notification through the pool.
 */
async function listenOnPostgres(
  onChange: (payload: string) => void,
  onLost: () => void,
  announce: Announce,
): Promise<Listener> {
  // Through PgBouncer in transaction mode a LISTEN stays on whichever server connection ran it: nothing would be heard.
  const pooled = new URL(process.env.DATABASE_URL!).searchParams.get("pgbouncer") === "true";
  if (pooled && !process.env.DIRECT_DATABASE_URL)
    throw new Error("DATABASE_URL goes through PgBouncer: set DIRECT_DATABASE_URL for LISTEN (and migrations).");
  const client = new pg.Client({
    connectionString: directDatabaseUrl(),
    application_name: "cjt-auth-listener",
    connectionTimeoutMillis: 3_000,
    query_timeout: 5_000,
    keepAlive: true,
  });
  let ended = false;
  const lose = () => {
    if (ended) return;
    ended = true;
    onLost();
    client.end().catch(() => {});
  };
  const proof = `${PROOF_PREFIX}${randomUUID()}`;
  let heardProof: () => void = () => {};
  const proven = new Promise<void>((resolve) => {
    heardProof = resolve;
  });
  client.on("notification", ({ channel, payload = "" }) => {
    if (channel !== CHANNEL) return;
    if (payload === proof) heardProof();
    else if (!payload.startsWith(PROOF_PREFIX)) onChange(payload);
  });
  client.on("error", lose);
  client.on("end", lose);
  try {
    await client.connect();
    (client as unknown as { connection: { stream: Socket } }).connection.stream.unref();
    await client.query(`LISTEN ${CHANNEL}`);
    await announce(proof);
    if (!(await within(proven, PROOF_WAIT_MS)))
      throw new Error(
        "its listener did not hear a notification sent through the app's pool (a LISTEN through a transaction-mode " +
          "pooler hears nothing): set DIRECT_DATABASE_URL to PostgreSQL itself, not to a pooler.",
      );
  } catch (error) {
    ended = true;
    await client.end().catch(() => {});
    throw error;
  }

  // The sync in flight, and the one queued behind it that requests arriving now share (sent when the first ends).
  let inFlight: Promise<boolean> | undefined;
  let queued: Promise<boolean> | undefined;
  const send = (): Promise<boolean> => {
    const sync = client.query("SELECT 1").then(
      () => true,
      (error) => {
        lose();
        console.error("Authentication cache: lost its listener; authenticating from the database:", error);
        return false;
      },
    );
    inFlight = sync;
    sync.then(() => {
      if (inFlight === sync) inFlight = undefined;
    });
    return sync;
  };
  const synced = () => {
    if (ended) return Promise.resolve(false);
    if (!inFlight) return send();
    queued ??= inFlight.then(() => {
      queued = undefined;
      return ended ? false : send();
    });
    return queued;
  };
  return {
    synced: async () => {
      if (await within(synced(), SYNC_WAIT_MS)) return !ended;
      // Not answered in time: the session is gone without a word (or hopelessly slow). Ended now, so that only this
      // request waited; a later lookup opens a new listener.
      if (!ended) console.error("Authentication cache: its listener did not answer; authenticating from the database.");
      lose();
      return false;
    },
  };
}

/** Whether `work` settled with true (or void) within `ms`. */
async function within(work: Promise<boolean | void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return (await Promise.race([work, late])) !== false;
  } finally {
    clearTimeout(timer);
  }
}
