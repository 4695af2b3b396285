// Read replicas (issue 39): DATABASE_REPLICA_URLS names PostgreSQL hot standbys that answer an API request's reads
// (lib/api/route.ts chooses one per GET request), sticky by WAL position as GitLab's database load balancing is:
// after a caller writes, the primary's WAL insert position is kept for it (replica-positions.ts), and its reads go to
// a replica only once that replica has replayed past it. A replica that lags past DATABASE_REPLICA_MAX_LAG_MS, or
// cannot be reached, is left out and the primary answers; a read that fails on a replica is read again from the
// primary, so no request fails because a replica did. Hand-written rather than @prisma/extension-read-replicas:
// that extension picks a replica at random per query, with no notion of a caller's last write or of lag, and knows
// nothing of the statements sent to the driver itself (Database.read), which are most of the reads.
import { AsyncLocalStorage } from "node:async_hooks";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { databaseFault } from "./faults";
import type { PositionStore } from "./replica-positions";

/** One replica, as the app reads from it. */
export interface ReplicaServer {
  /** `host:port/database`: how /api/health names it; never its credentials. */
  name: string;
  /** A connection of this replica's pool, for one request's reads (ReplicaRead). */
  connect(): Promise<SessionClient>;
  /** The name a statement is prepared under on this replica (none behind a transaction-mode pooler). */
  statementName(text: string): string | undefined;
  /** Prisma on this replica's pool, for the reads made through caller.db. */
  prisma: PrismaClient;
  /** Runs one statement outside any request (the health checks). */
  query<Row>(text: string, values?: unknown[]): Promise<Row[]>;
  /** One read on a connection of the pool, returned at once (Database.read's statement, named as on the primary). */
  read<Row>(text: string, values: unknown[], planEachCall?: boolean): Promise<Row[]>;
  close(): Promise<void>;
  /** Set by its ReplicaSet: a read met a fault of the replica (down, cut off), which is then left out. */
  onFault?: () => void;
}

/** What a request's reads need of a pooled connection (pg's PoolClient). */
export interface SessionClient {
  query(query: string | { text: string; values?: unknown[]; name?: string }): Promise<{ rows: unknown[] }>;
  release(destroy?: boolean): void;
}

/**
 * One request's reads on one replica, in one snapshot: its statements sent to the driver while the handler works run
 * on one connection, in one REPEATABLE READ READ ONLY transaction begun by the first of them, so that a page and its
 * total see the same replayed state (queued one after another on that connection). Ended by release() once the
 * handler has answered (lib/api/route.ts): the later chunks of a streamed page are then read one statement at a time
 * on the same replica, as on the primary, so that a reader taking its time holds no connection (decisions.md,
 * Capacity). Reads made through Prisma (caller.db) go to the same replica, each on its own.
 */
export class ReplicaRead {
  private session: Promise<SessionClient> | undefined;
  /** A statement failed: the transaction is aborted, and the request's later reads go to the primary. */
  private failed = false;
  /** The handler has answered: later reads are single statements. */
  private answered = false;

  constructor(readonly replica: ReplicaServer) {}

  async read<Row>(text: string, values: unknown[], planEachCall?: boolean): Promise<Row[]> {
    if (this.failed) throw new Error("This request's replica reads have failed");
    if (this.answered) return this.replica.read<Row>(text, values, planEachCall);
    const client = await (this.session ??= this.begin());
    try {
      if (!planEachCall) {
        return (await client.query({ text, values, name: this.replica.statementName(text) })).rows as Row[];
      }
      // Planned for this call's values with in-memory costs (lib/db/client.ts, ReadOptions), then the
      // transaction's own setting again: rolling back to the savepoint undoes SET LOCAL, not the snapshot.
      await client.query("SAVEPOINT plan_each_call; SET LOCAL random_page_cost = 1.1");
      const { rows } = await client.query({ text, values });
      await client.query("ROLLBACK TO SAVEPOINT plan_each_call");
      return rows as Row[];
    } catch (error) {
      this.failed = true;
      throw error;
    }
  }

  private async begin(): Promise<SessionClient> {
    const client = await this.replica.connect();
    try {
      await client.query(
        `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL idle_in_transaction_session_timeout = ${IDLE_TIMEOUT_MS}`,
      );
    } catch (error) {
      client.release(true);
      throw error;
    }
    return client;
  }

  /** Ends the transaction and returns the connection to its pool (after the reads queued on it). */
  async release(): Promise<void> {
    this.answered = true;
    const session = this.session;
    this.session = undefined;
    if (!session) return;
    const client = await session.catch(() => undefined);
    if (!client) return;
    const committed = await client.query("COMMIT").then(
      () => true,
      () => false,
    );
    client.release(!committed);
  }
}

/** How long a request's replica transaction may sit idle before the server ends it: a bound, never reached normally. */
const IDLE_TIMEOUT_MS = 60_000;

/** What the last check found of a replica. */
interface ReplicaState {
  reachable: boolean;
  /** pg_last_wal_replay_lsn(): every WAL record up to here is visible on the replica. */
  replayed: bigint | null;
  /** How far behind the primary it was: WAL bytes not yet replayed, and since when the primary had them. */
  lagBytes: number;
  lagMs: number;
}

export interface ReplicaHealth {
  server: string;
  reachable: boolean;
  /** Seconds since the primary wrote WAL this replica has not replayed yet (0 when it has replayed all it knew). */
  lag_seconds: number | null;
  /** Bytes of the primary's WAL this replica has not replayed yet. */
  lag_bytes: number | null;
  /** Whether requests read from it now (reachable and within DATABASE_REPLICA_MAX_LAG_MS). */
  in_use: boolean;
}

const setting = (name: string, fallback: number) => Number(process.env[name] || fallback);

/** DATABASE_REPLICA_URLS: the replicas' URLs, comma-separated (none: every statement goes to the primary). */
export function replicaUrls(): string[] {
  return (process.env.DATABASE_REPLICA_URLS ?? "")
    .split(",")
    .map((url) => url.trim())
    .filter(Boolean);
}

/** `host:port/database` of a URL, without its user, password or parameters. */
export function serverName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
}

/** A WAL position (`16/B374D848`) as a number that compares. */
export function lsn(text: string): bigint {
  const [high, low] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

export const lsnText = (position: bigint) =>
  `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;

// The replica reads of the request, wherever in its work a statement is sent. On globalThis, like the request
// context: the built server may load this module once per bundle.
const readingFrom = ((globalThis as { __cjtReadingFrom?: AsyncLocalStorage<ReplicaRead> }).__cjtReadingFrom ??=
  new AsyncLocalStorage<ReplicaRead>());

/** This request's reads on a replica, if it reads from one. */
export const replicaInUse = (): ReplicaRead | undefined => readingFrom.getStore();

/** Runs work whose reads go to a replica. */
export const readFrom = <T>(reads: ReplicaRead, work: () => T): T => readingFrom.run(reads, work);

/**
 * The server this request reads from, kept for work that runs later (the chunks of a streamed page are read while
 * the answer is written): every chunk of one page comes from where its first rows came from.
 */
export function onSameServer(): <T>(work: () => T) => T {
  const reads = replicaInUse();
  if (!reads) return (work) => work();
  return (work) => readFrom(reads, work);
}

export class ReplicaSet {
  readonly maxLagMs = setting("DATABASE_REPLICA_MAX_LAG_MS", 10_000);
  readonly checkMs = setting("DATABASE_REPLICA_CHECK_MS", 1_000);
  /**
   * How long a caller's write is remembered: a replica in use has replayed everything the primary had maxLagMs ago,
   * as of its last check (at most one interval old, measured to within another), so an older write is on it.
   */
  readonly stickyMs = this.maxLagMs + 3 * this.checkMs;
  private readonly states = new Map<ReplicaServer, ReplicaState>();
  /** The primary's WAL positions as the checks saw them, and when, newest last: what a replica's lag is measured by. */
  private primarySeen: { position: bigint; at: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;

  constructor(
    readonly replicas: ReplicaServer[],
    /** pg_current_wal_insert_lsn() on the primary. */
    private readonly primaryPosition: () => Promise<string>,
    private readonly now: () => number = Date.now,
  ) {
    for (const replica of replicas) {
      replica.onFault = () => this.failed(replica);
      this.states.set(replica, { reachable: false, replayed: null, lagBytes: 0, lagMs: Number.POSITIVE_INFINITY });
    }
  }

  /** Checks every replica now and then every checkMs, in the background (until close). */
  start() {
    void this.check();
    this.timer = setInterval(() => void this.check(), this.checkMs);
    this.timer.unref();
  }

  /** The primary's position and each replica's replay position; one check at a time. */
  check(): Promise<void> {
    this.checking ??= this.checkAll().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async checkAll() {
    const now = this.now();
    const primary = await this.primaryPosition().then(lsn, () => undefined);
    if (primary !== undefined) {
      this.primarySeen.push({ position: primary, at: now });
      // Kept long enough to tell a lag past the bound from one within it.
      const since = now - this.maxLagMs - 2 * this.checkMs;
      while (this.primarySeen.length > 1 && this.primarySeen[0].at < since) this.primarySeen.shift();
    }
    await Promise.all(this.replicas.map((replica) => this.checkReplica(replica)));
  }

  private async checkReplica(replica: ReplicaServer) {
    const state = this.states.get(replica)!;
    try {
      await this.askReplayed(replica);
    } catch (error) {
      // Every connection of its pool held by requests reading from it is no news of the replica itself.
      if (databaseFault(error) !== "busy") state.reachable = false;
    }
  }

  /** The replica's replay position, asked of it now. */
  private async askReplayed(replica: ReplicaServer) {
    // A server not in recovery (a replica URL that names the primary itself) has replayed all it wrote.
    const [row] = await replica.query<{ position: string }>(REPLAYED);
    this.noteReplayed(replica, lsn(row.position));
  }

  private noteReplayed(replica: ReplicaServer, replayed: bigint) {
    const state = this.states.get(replica)!;
    state.reachable = true;
    state.replayed = replayed;
    const newest = this.primarySeen.at(-1);
    const behind = this.primarySeen.find((seen) => seen.position > replayed);
    state.lagBytes = newest && newest.position > replayed ? Number(newest.position - replayed) : 0;
    // Since the primary first had a position the replica has not replayed (within the positions kept).
    state.lagMs = behind ? this.now() - behind.at : 0;
  }

  /** A replica that requests may read from: reachable and within the lag bound. */
  private usable(replica: ReplicaServer) {
    const state = this.states.get(replica)!;
    return state.reachable && state.lagMs <= this.maxLagMs;
  }

  /**
   * The replica a caller's request reads from, or undefined for the primary: any usable one when the caller has not
   * written lately; else one known to have replayed the caller's last write, asking one replica once if none is.
   */
  async choose(caller: string, positions: PositionStore): Promise<ReplicaServer | undefined> {
    const usable = this.replicas.filter((replica) => this.usable(replica));
    if (usable.length === 0) return undefined;
    let written: bigint | undefined;
    try {
      written = await positions.get(caller);
    } catch {
      return undefined; // the caller's last write cannot be known: the primary has it
    }
    if (written === undefined) return pick(usable);
    const current = usable.filter((replica) => this.states.get(replica)!.replayed! >= written);
    if (current.length > 0) return pick(current);
    const asked = pick(usable);
    try {
      await this.askReplayed(asked);
    } catch {
      this.failed(asked);
    }
    return this.usable(asked) && this.states.get(asked)!.replayed! >= written ? asked : undefined;
  }

  /** After a caller's write: the primary's position now, which the caller's later reads must see. */
  async noteWrite(caller: string, positions: PositionStore): Promise<void> {
    const position = lsn(await this.primaryPosition());
    await positions.set(caller, position, this.stickyMs);
  }

  /** A replica whose read failed is left out until a check finds it again. */
  failed(replica: ReplicaServer) {
    this.states.get(replica)!.reachable = false;
  }

  /** Each replica as checked now (GET /api/health). */
  async health(): Promise<ReplicaHealth[]> {
    await this.check();
    return this.replicas.map((replica) => {
      const state = this.states.get(replica)!;
      return {
        server: replica.name,
        reachable: state.reachable,
        lag_seconds: state.reachable ? Math.round(state.lagMs) / 1000 : null,
        lag_bytes: state.reachable ? state.lagBytes : null,
        in_use: this.usable(replica),
      };
    });
  }

  async close() {
    clearInterval(this.timer);
    await this.checking;
    await Promise.all(this.replicas.map((replica) => replica.close()));
  }
}

const REPLAYED =
  "SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_insert_lsn() END)::text AS position";

const pick = <T>(from: T[]): T => from[Math.floor(Math.random() * from.length)];

/**
 * A read on the request's replica or, if it fails there, on the primary (`onPrimary`): a replica that is down or
 * cut off is left out until a check finds it again; any other failure (a conflict with recovery, which cancels a
 * standby's statement) is simply read again from the primary, where a mistake in the statement fails as well.
 */
export async function readOnReplica<T>(
  reads: ReplicaRead,
  read: () => Promise<T>,
  onPrimary: () => Promise<T>,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const fault = databaseFault(error);
    if (fault === "unreachable" || fault === "connection-lost") reads.replica.onFault?.();
    return onPrimary();
  }
}

/** Prisma's delegate of a model (`AuditEvent` → `auditEvent`). */
const delegate = (model: string) => model[0].toLowerCase() + model.slice(1);

/** A read through caller.db (lib/db/tenant.ts), its arguments already scoped to the tenant, on the replica's Prisma. */
export function replicaModelRead(reads: ReplicaRead, model: string, operation: string, args: unknown) {
  const models = reads.replica.prisma as unknown as Record<string, Record<string, (args: unknown) => Promise<unknown>>>;
  return models[delegate(model)][operation](args);
}
