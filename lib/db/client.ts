// The one place that opens the database. Route handlers never import this: they get a tenant-scoped client
// from the API wrapper (lib/api), so no query can run outside the caller's tenant.

import { createHash } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { timedStatement } from "@/lib/core/request-context";
import { type Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { DatabaseDeadlineError, databaseTimeLeft } from "./deadline";
import { applyMigrations } from "./migrations";
import { embeddedDatabaseReady, openPGlite, pgliteDataDir } from "./pglite";
import { type ReplicaServer, ReplicaSet, readOnReplica, replicaInUse, replicaUrls, serverName } from "./replicas";

export interface Database {
  prisma: PrismaClient;
  kind: "postgres" | "pglite";
  /** The embedded database itself, when that is what runs. */
  pglite?: PGlite;
  /**
   * One statement sent to the driver itself, not through Prisma, on the same pool (or the same embedded database):
   * the read path's statements (lib/db/wire-list.ts, json-rows.ts, authentication), whose few columns of JSON text,
   * numbers and arrays need no mapping. Prisma's $queryRaw costs about 0.1 ms more CPU per statement.
   */
  read<Row>(statement: Prisma.Sql, options?: ReadOptions): Promise<Row[]>;
  /** The read replicas (DATABASE_REPLICA_URLS), if any: lib/db/replicas.ts. */
  replicas?: ReplicaSet;
  close(): Promise<void>;
}

export interface ReadOptions {
  /**
   * Plan the statement for this call's values, with the costs of data held in memory: a search, whose best plan
   * depends on how many rows its terms match (bench/search-plans.md). A named (prepared) statement may fall to a
   * generic plan after five calls, which guesses the matches; and with PostgreSQL's default random_page_cost (4, for
   * disks) a bitmap scan of the trigram index looked dearer than reading the whole table, which took twice as long.
   * Sent unnamed, in a read-only transaction that sets random_page_cost to 1.1 for itself alone.
   */
  planEachCall?: boolean;
}

/** The settings a statement planned for each call runs with (ReadOptions.planEachCall). */
const PLAN_EACH_CALL = "SET TRANSACTION READ ONLY; SET LOCAL random_page_cost = 1.1";

// Kept on globalThis so that Next's dev reloads reuse one connection (two PGlite instances must never share a
// folder); keyed by target so that each test file can point at its own database.
const open = ((globalThis as { __cjtDatabases?: Map<string, Promise<Database>> }).__cjtDatabases ??= new Map());

export function databaseTarget() {
  if (!process.env.DATABASE_URL) return `pglite:${pgliteDataDir()}`;
  return `postgres:${process.env.DATABASE_URL} ${replicaUrls().join(",")}`;
}

/**
 * On a serverless host (Vercel sets VERCEL) the embedded database cannot work: its files live on one machine's disk,
 * which such hosts do not keep. Checked when the server starts (instrumentation.ts) and before opening the database.
 */
export function assertDatabaseConfigured() {
  if (process.env.VERCEL && !process.env.DATABASE_URL) {
    throw new Error(
      "DATABASE_URL is not set. The embedded database keeps its files on one machine's disk, which a serverless " +
        "host does not keep: set DATABASE_URL to a PostgreSQL database.",
    );
  }
}

/** The process's database, opened on first use (the embedded one is migrated; demo data only on request: lib/demo/startup.ts). */
export function database(): Promise<Database> {
  const target = databaseTarget();
  let db = open.get(target);
  if (!db) {
    db = connect().catch((error) => {
      open.delete(target);
      throw error;
    });
    open.set(target, db);
  }
  return db;
}

export async function prisma(): Promise<PrismaClient> {
  return (await database()).prisma;
}

/** The rows of one read statement, through the driver (Database.read). */
export async function readRows<Row>(statement: Prisma.Sql, options?: ReadOptions): Promise<Row[]> {
  return (await database()).read<Row>(statement, options);
}

export async function closeDatabase() {
  const target = databaseTarget();
  const db = open.get(target);
  open.delete(target);
  if (db) await (await db).close();
}

async function connect(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const primary = openPool(url);
    const client = new PrismaClient({ adapter: primary.adapter, transactionOptions: transactionWaits() });
    const replicas = openReplicas(primary.pool);
    return {
      prisma: client,
      kind: "postgres",
      // With replicas, a read goes to the one its request reads from (lib/api/route.ts), if any.
      read: replicas
        ? <Row>({ text, values }: Prisma.Sql, options?: ReadOptions) => {
            const reads = replicaInUse();
            const onPrimary = () => primary.read<Row>(text, values, options?.planEachCall);
            if (!reads) return onPrimary();
            return readOnReplica(reads, () => reads.read<Row>(text, values, options?.planEachCall), onPrimary);
          }
        : <Row>({ text, values }: Prisma.Sql, options?: ReadOptions) =>
            primary.read<Row>(text, values, options?.planEachCall),
      replicas,
      close: async () => {
        await replicas?.close();
        await client.$disconnect();
      },
    };
  }
  assertDatabaseConfigured();
  const pglite = openPGlite();
  await embeddedDatabaseReady(pglite);
  await applyMigrations(pglite);
  timeStatements(pglite);
  const client = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    prisma: client,
    kind: "pglite",
    pglite,
    read: async <Row>({ text, values }: Prisma.Sql, options?: ReadOptions) => {
      if (!options?.planEachCall) return (await pglite.query<Row>(text, values)).rows;
      return pglite.transaction(async (tx) => {
        await tx.exec(PLAN_EACH_CALL);
        return (await tx.query<Row>(text, values)).rows;
      });
    },
    close: async () => {
      await client.$disconnect();
      await pglite.close();
    },
  };
}

/** A pool on one server (the primary or a replica), its Prisma adapter, and its reads sent to the driver itself. */
function openPool(url: string) {
  // One pool for Prisma and for the reads sent to the driver, which name their statements as Prisma does.
  const pool = new pg.Pool(poolConfig(url));
  // An idle connection that breaks (a restart, a cut) leaves the pool, which opens another when next asked; the
  // statement that meets the fault reports it (lib/db/faults.ts). Unlistened, the pool's 'error' would end the process.
  pool.on("error", () => {});
  const statements = statementOptions(url);
  const adapter = new PrismaPg(pool, { ...statements, disposeExternalPool: true });
  const read = async <Row>(text: string, values: unknown[], planEachCall?: boolean) => {
    if (planEachCall) return readPlannedEachCall<Row>(pool, text, values);
    const name = statements.statementNameGenerator?.({ sql: text });
    return (await pool.query({ text, values, name })).rows as Row[];
  };
  return { pool, adapter, statements, read };
}

/** The replicas of DATABASE_REPLICA_URLS, checked in the background, or undefined when there are none. */
function openReplicas(primary: pg.Pool): ReplicaSet | undefined {
  const urls = replicaUrls();
  if (urls.length === 0) return undefined;
  const servers = urls.map((url): ReplicaServer => {
    const { pool, adapter, statements, read } = openPool(url);
    // A request's reads hold a connection while its handler works (ReplicaRead): should the replica stop meanwhile,
    // the break is met by the next statement or the COMMIT, not thrown as an unlistened 'error' that ends the process.
    pool.on("connect", (client) => client.on("error", () => {}));
    const prisma = new PrismaClient({ adapter });
    return {
      name: serverName(url),
      connect: () => pool.connect(),
      statementName: (sql) => statements.statementNameGenerator?.({ sql }),
      prisma,
      query: async <Row>(text: string, values?: unknown[]) => (await pool.query(text, values)).rows as Row[],
      read,
      close: () => prisma.$disconnect(),
    };
  });
  const set = new ReplicaSet(servers, async () => {
    const { rows } = await primary.query("SELECT pg_current_wal_insert_lsn()::text AS position");
    return rows[0].position as string;
  });
  set.start();
  return set;
}

/**
 * Times the embedded database's statements into the request's database time (its log line): its query and exec,
 * through which Prisma's adapter and the reads send theirs. One process runs the database, so this is the time the
 * request waited on it.
 */
function timeStatements(pglite: PGlite) {
  const query = pglite.query.bind(pglite);
  const exec = pglite.exec.bind(pglite);
  pglite.query = ((...args: Parameters<typeof query>) => timedStatement(() => query(...args))) as typeof query;
  pglite.exec = ((...args: Parameters<typeof exec>) => timedStatement(() => exec(...args))) as typeof exec;
}

/** ReadOptions.planEachCall on PostgreSQL: an unnamed statement in its own read-only transaction, with its settings. */
async function readPlannedEachCall<Row>(pool: pg.Pool, text: string, values: unknown[]): Promise<Row[]> {
  const connection = await pool.connect();
  let broken = false;
  try {
    await connection.query(`BEGIN; ${PLAN_EACH_CALL}`);
    const { rows } = await connection.query({ text, values });
    await connection.query("COMMIT");
    return rows as Row[];
  } catch (error) {
    // After a failed statement the transaction is rolled back; a connection that cannot even do that is let go.
    broken = await connection.query("ROLLBACK").then(
      () => false,
      () => true,
    );
    throw error;
  } finally {
    connection.release(broken);
  }
}

/**
 * A connection that runs its queries one after another. Inside an interactive transaction Prisma sends the
 * independent queries of one operation (relation loads, the reads of a webhook event's record)
 * together on the transaction's one connection; node-postgres queues them itself, but warns at start-up's first
 * such write that this is deprecated ("client.query() when the client is already executing a query") and pg 9 drops
 * it. Queued here instead, each query starts (and its timeout runs) when the one before has finished.
 * It also bounds the statements it keeps prepared (statementOptions): past DATABASE_PREPARED_STATEMENTS_MAX, the
 * least recently used one is deallocated before another is prepared, so no sequence of distinct statements (a filter
 * per combination of parameters) grows a PostgreSQL backend's memory without bound.
 */
class SerialClient extends pg.Client {
  #tail: Promise<unknown> = Promise.resolve();
  /** The names of the statements prepared on this connection, least recently used first. */
  #prepared = new Map<string, true>();

  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has a dozen overloads; all are passed through.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    if (typeof args[0]?.submit === "function") return super.query(args[0], args[1], args[2]); // a stream or cursor
    const callback = typeof args.at(-1) === "function" ? args.pop() : undefined;
    // Timed into the request's database time (its log line) from when the statement starts, not while queued.
    const run = this.#tail.then(async () => {
      const query = (await this.#withRoomFor(args[0])) as pg.QueryConfig | string;
      return timedStatement(() => this.#withinLimits(query, args[1]));
    });
    this.#tail = run.catch(() => undefined);
    if (!callback) return run;
    run.then((result) => callback(null, result), callback);
  }

  /**
   * Sends the query within its limits: the connection's client-side deadline (query_timeout), cut to what is left of
   * the request's database deadline (lib/db/deadline.ts); none is sent once that has passed. A statement whose answer
   * did not come in time leaves the connection in a state nobody knows (mid-statement, perhaps in a transaction), and
   * what is sent next on it waits behind that answer: a hung server made a ROLLBACK wait a second 6 s after its
   * statement's. So the connection is closed then: the server rolls back what it began, what follows on it fails at
   * once, and the pool opens another.
   */
  async #withinLimits(query: pg.QueryConfig | string, values: unknown): Promise<unknown> {
    const left = databaseTimeLeft();
    let config = query;
    if (left !== undefined) {
      if (left <= 0) throw new DatabaseDeadlineError();
      const own = (this as unknown as { connectionParameters: { query_timeout?: number } }).connectionParameters
        .query_timeout;
      const limit = Math.ceil(Math.min(own ?? Number.POSITIVE_INFINITY, left));
      config = { ...(typeof query === "string" ? { text: query } : query), query_timeout: limit } as pg.QueryConfig;
    }
    try {
      return await super.query(config as pg.QueryConfig, values as unknown[]);
    } catch (error) {
      if ((error as Error)?.message === "Query read timeout") this.#abandon();
      throw error;
    }
  }

  #abandon() {
    // Marked as ending at once (pg's own flag, which the pool reads): released before its socket has closed, it
    // leaves the pool rather than wait idle for the next request, and its close is no unlistened 'error'.
    const client = this as unknown as { _ending: boolean; connection: { stream: { destroy(): void } } };
    client._ending = true;
    client.connection.stream.destroy();
  }

  /** The query as sent: a named one after making room among the prepared statements, or unnamed if that failed. */
  async #withRoomFor(query: unknown): Promise<unknown> {
    const name = (query as { name?: unknown } | null)?.name;
    if (typeof name !== "string") return query;
    if (this.#prepared.delete(name)) {
      this.#prepared.set(name, true);
      return query;
    }
    // pg's own record of what it parsed on this connection (its Parse is skipped for a name found there).
    const parsed = (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection
      .parsedStatements;
    while (this.#prepared.size >= preparedStatementsMax()) {
      const [oldest] = this.#prepared.keys();
      if (parsed[oldest] !== undefined) {
        // Fails only in a transaction already failed: this query then fails too, and goes unnamed meanwhile.
        const freed = await super.query(`DEALLOCATE "${oldest}"`).then(
          () => true,
          () => false,
        );
        if (!freed) return { ...(query as object), name: undefined };
        delete parsed[oldest];
      }
      this.#prepared.delete(oldest);
    }
    this.#prepared.set(name, true);
    return query;
  }
}

/** DATABASE_PREPARED_STATEMENTS_MAX: how many statements a pooled connection keeps prepared (default 64). */
export function preparedStatementsMax(): number {
  return setting("DATABASE_PREPARED_STATEMENTS_MAX", 64);
}

/**
 * The pool's bounded waits (README "Faults"): DATABASE_CONNECT_TIMEOUT_MS bounds both opening a connection and waiting
 * for a free one (node-postgres's pool uses connectionTimeoutMillis for both); DATABASE_STATEMENT_TIMEOUT_MS bounds a
 * statement. The server enforces the statement limit (statement_timeout in the startup packet, so it holds on every
 * pooled connection without a session SET); pgbouncer 1.18 refuses that parameter, so with `pgbouncer=true` in the URL
 * it is not sent and the operator sets it on the role instead. A client-side deadline just past it holds either way.
 * Likewise a statement runs on its own backend alone: PostgreSQL's parallel workers (max_parallel_workers_per_gather,
 * DATABASE_MAX_PARALLEL_WORKERS, default 0) would let one request's statement take every CPU of the database server,
 * and a place among the requests in flight stand for several backends' work (decisions.md, Capacity).
 */
const setting = (name: string, fallback: number) => Number(process.env[name] || fallback);

function waits() {
  return {
    statementTimeout: setting("DATABASE_STATEMENT_TIMEOUT_MS", 5_000),
    connectTimeout: setting("DATABASE_CONNECT_TIMEOUT_MS", 3_000),
  };
}

/** DATABASE_MAX_PARALLEL_WORKERS: PostgreSQL's parallel workers a statement of the app's may use (default 0). */
export function parallelWorkers(): number {
  return Number(process.env.DATABASE_MAX_PARALLEL_WORKERS || 0);
}

/**
 * An interactive transaction waits for its connection a little longer than the pool does, so that a busy pool
 * answers with its own "timeout exceeded when trying to connect" (a 503) rather than Prisma's 2 s default giving
 * up first; it may run for two statements' time limits.
 */
function transactionWaits() {
  const { statementTimeout, connectTimeout } = waits();
  return { maxWait: connectTimeout + 1_000, timeout: 2 * statementTimeout };
}

export function poolConfig(url: string): pg.PoolConfig {
  const { statementTimeout, connectTimeout } = waits();
  const behindPgbouncer = new URL(url).searchParams.get("pgbouncer") === "true";
  return {
    connectionString: url,
    Client: SerialClient,
    max: setting("DATABASE_POOL_SIZE", 10),
    // Replacing a connection now and then (DATABASE_POOL_MAX_USES, default 10,000 statements or transactions) bounds
    // what else a backend accumulates: its caches of the catalog, and the working memory of sorts and hashes that
    // PostgreSQL frees but its allocator keeps.
    maxUses: setting("DATABASE_POOL_MAX_USES", 10_000),
    connectionTimeoutMillis: connectTimeout,
    // JIT off: PostgreSQL compiles a statement whose estimated cost passes jit_above_cost (some of a list's filter
    // combinations on a large firm) with LLVM, and the backends that compile keep more memory: under the noisy
    // bench's filter combinations 9 MB backends grew to 22-25 MB with JIT, and levelled off at 13 MB without
    // (bench/RESULTS.md). An API's statements, planned to answer in milliseconds, do not repay a compile.
    ...(behindPgbouncer
      ? {}
      : {
          statement_timeout: statementTimeout,
          options: `-c max_parallel_workers_per_gather=${parallelWorkers()} -c jit=off`,
        }),
    query_timeout: statementTimeout + 1_000,
  };
}

/**
 * Named statements: node-postgres prepares each distinct SQL text once per connection and PostgreSQL then reuses its
 * plan instead of planning every statement anew (the token lookup that every request makes: 0.96 ms a statement
 * unnamed, 0.10 ms prepared, pgbench on the bench data). PgBouncer 1.18 in transaction mode hands a client another
 * server connection per transaction, where the statement was never prepared: behind it (`pgbouncer=true`), or with
 * DATABASE_PREPARED_STATEMENTS=off for other such poolers, statements stay unnamed.
 */
export function statementOptions(url: string) {
  const pooled = new URL(url).searchParams.get("pgbouncer") === "true";
  if (pooled || process.env.DATABASE_PREPARED_STATEMENTS === "off") return {};
  return {
    // Typed as always naming; an undefined name is sent unnamed (planned for this call, kept nowhere).
    statementNameGenerator: ({ sql }: { sql: string }) => nameFromUse(sql) as string,
  };
}

/**
 * The name a statement text is prepared under, from its DATABASE_PREPARE_THRESHOLD-th use in this process (default 3),
 * as pgJDBC's prepareThreshold does: the texts used again and again (a first page, a record) keep the gain of a named
 * statement, while a text used once or twice (one of thousands of filter combinations) is sent unnamed and costs a
 * backend no memory after it. The uses of at most USES_KEPT texts are remembered, the least recently used forgotten.
 */
function nameFromUse(sql: string): string | undefined {
  const name = `s${createHash("sha1").update(sql).digest("base64url")}`;
  const used = (statementUses.get(name) ?? 0) + 1;
  statementUses.delete(name);
  statementUses.set(name, Math.min(used, prepareThreshold()));
  if (statementUses.size > USES_KEPT) statementUses.delete(statementUses.keys().next().value!);
  return used >= prepareThreshold() ? name : undefined;
}

const statementUses = new Map<string, number>();
const USES_KEPT = 10_000;

/** DATABASE_PREPARE_THRESHOLD: the use of a statement text from which it is named (1: from its first). */
export function prepareThreshold(): number {
  return setting("DATABASE_PREPARE_THRESHOLD", 3);
}

/** A single pg connection for maintenance work (migrations) against DATABASE_URL. */
export async function withPgSession<T>(url: string, work: (session: pg.Client) => Promise<T>): Promise<T> {
  const session = new pg.Client({ connectionString: url });
  await session.connect();
  try {
    return await work(session);
  } finally {
    await session.end();
  }
}
