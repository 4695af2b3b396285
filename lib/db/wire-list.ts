// Lists answered by PostgreSQL in one statement (issue 29): the page's rows are found (tenant, filters, visibility,
// order, LIMIT/OFFSET or a keyset position), written as wire JSON and, for an offset page, counted, all at once; the
// app sends the JSON text without parsing it. A list is its table, its conditions on the row `t` and its order; the
// builder adds `t.tenant_id = <tenant>` to every statement it writes, so no list can leave it out (raw SQL is outside
// caller.db's tenant scope, lib/db/tenant.ts).

import type { Position } from "@/lib/core/cursor";
import type { Page, PageRows } from "@/lib/core/pagination";
import type { Direction } from "@/lib/core/validation";
import { Prisma } from "@/lib/generated/prisma/client";
import { readRows } from "./client";
import { jsonArray, type WireObject, type WireTable, wireRows } from "./json-rows";
import { onSameServer } from "./replicas";
import type { TenantScope } from "./tenant";

/** The SQL type of a key: how a cursor's position is read back (CAST) and written (lib/db/keyset.ts). */
export type KeyKind = "text" | "uuid" | "int" | "numeric" | "date" | "timestamptz";

/** One column of a list's order. */
export interface SqlKey {
  /** The key's SQL expression on the row `t`: a column (`t.name`) or a correlated subquery. */
  sql: string;
  direction: Direction;
  kind: KeyKind;
  /** A nullable key whose nulls come last in both directions. */
  nullsLast?: boolean;
}

/** A list's order, the last key unique and non-null (ties never straddle pages). */
export type SqlOrder = SqlKey[];

export interface WireList {
  table: WireTable;
  /** The conditions on the row `t` besides its tenant's, which the builder adds. */
  where: Prisma.Sql[];
  order: SqlOrder;
  object: WireObject;
}

/**
 * A list's total: a count of its rows, or the sum of a column of a table the triggers keep (lib/db/row-counts.ts,
 * time_log_day_counts) over the rows meeting `where` (conditions on its row `t`; the tenant's is added here).
 */
export type ListTotal = "count" | { sum: string; of: "row_counts" | "time_log_day_counts"; where: Prisma.Sql[] };

/**
 * `FROM <table> t WHERE t.tenant_id = <tenant> AND …`: the one way every statement here names its rows, and the one
 * a list's own raw statement uses (a table with a tenant_id column).
 */
export function tenantRows(scope: TenantScope, table: string, where: Prisma.Sql[]) {
  const conditions = [Prisma.sql`t.tenant_id = ${scope.tenant.id}`, ...where.map((c) => Prisma.sql`(${c})`)];
  return Prisma.sql`FROM ${Prisma.raw(table)} t WHERE ${Prisma.join(conditions, " AND ")}`;
}

/** Page sizes written into a list's statement (rowCount): the lists' defaults, the streamed chunk, and round sizes. */
const WRITTEN_SIZES = new Set([10, 20, 25, 50, 100, 200, 250, 500, 1000]);

/**
 * The rows of a page of `size` (and `extra`, a keyset page's look-ahead row) as SQL. A usual size is written into the
 * statement: planned with its count known, a prepared statement's generic plan fits a page of that size and
 * PostgreSQL keeps it, instead of planning the page anew on every call (a generic plan of an unknown LIMIT expected a
 * tenth of the table, and chose a hash join over all of it). Any other size is a value, planned at each call: a
 * caller stepping through the sizes 1 to 1,000 must not make every pooled connection prepare, and keep, a statement
 * per size.
 */
function rowCount(size: number, extra = 0) {
  if (!Number.isSafeInteger(size) || size < 0) throw new Error(`Not a row count: ${size}`);
  return WRITTEN_SIZES.has(size) ? Prisma.raw(String(size + extra)) : Prisma.sql`${size + extra}`;
}

/** ORDER BY of the list on the row `t`, or on the page's key columns `p.k0, p.k1, …`; `reversed`, its exact reverse. */
function orderSql(order: SqlOrder, on: "t" | "p", reversed: boolean) {
  return Prisma.raw(
    order
      .map((key, i) => {
        const column = on === "t" ? key.sql : `p.k${i}`;
        const direction = (key.direction === "asc") !== reversed ? "ASC" : "DESC";
        return `${column} ${direction}${key.nullsLast ? (reversed ? " NULLS FIRST" : " NULLS LAST") : ""}`;
      })
      .join(", "),
  );
}

/** The row's id and its keys as `k0, k1, …`, for a page read before its rows are written. */
const keyColumns = (order: SqlOrder) =>
  Prisma.raw(["t.id", ...order.map((key, i) => `${key.sql} AS k${i}`)].join(", "));

/**
 * Pages of more than this many rows are sent as they are read, this many rows a statement (lib/api/pagination.ts):
 * a 1,000-row page is about 1 MB of JSON, which the app then never holds whole.
 */
export const STREAMED_ROWS = 200;

/**
 * The rows of `page` numbered in the list's order; the JSON text of the first `STREAMED_ROWS` of them (all of a
 * smaller page) as `json`, and the ids of the rest, in order, as `rest` (null when there is none).
 */
function pageJson(scope: TenantScope, list: WireList) {
  return Prisma.sql`numbered AS (SELECT p.*, row_number() OVER (ORDER BY ${orderSql(list.order, "p", false)}) AS n FROM page p)
    SELECT (SELECT COALESCE(${jsonArray(list.object, Prisma.sql`p.n`)}, '[]')::text
      FROM numbered p JOIN ${Prisma.raw(list.table)} t ON t.tenant_id = ${scope.tenant.id} AND t.id = p.id
      WHERE p.n <= ${rowCount(STREAMED_ROWS)}) AS json,
    (SELECT array_agg(p.id ORDER BY p.n) FROM numbered p WHERE p.n > ${rowCount(STREAMED_ROWS)}) AS rest`;
}

/** What the statements of a page answer: the JSON of its first rows, the ids of the rest, and its own columns. */
type FirstRows<Extra> = { json: string; rest: number[] | null } & Extra;

/**
 * Statements of a streamed page's later rows in flight at once: while one chunk is written to the caller, the next is
 * read. One, so that a request's place among those in flight stands for one pooled connection (decisions.md,
 * Capacity): with two, a firm's four pages held twelve of the pool's ten connections, and ran three statements beside
 * every other firm's one (bench/RESULTS.md, the noisy neighbour). At most this chunk and the one being written are held.
 */
const READ_AHEAD = 1;

/** The page's rows: the first ones' JSON, and the rest's read on demand, STREAMED_ROWS a statement, in order. */
function pageRows(scope: TenantScope, list: WireList, { json, rest }: FirstRows<unknown>) {
  if (!rest) return { json };
  const ids = rest;
  const sameServer = onSameServer(); // every chunk from the server the first rows came from
  return {
    json,
    async *more() {
      const pending: Promise<string>[] = [];
      let next = 0;
      const readAhead = () => {
        for (; pending.length < READ_AHEAD && next < ids.length; next += STREAMED_ROWS) {
          const chunk = ids.slice(next, next + STREAMED_ROWS).map((id) => ({ id }));
          const rows = sameServer(() => wireRows(scope, list.table, chunk, list.object));
          // Its failure is met when its turn comes (or never, if the caller has gone): not an unhandled rejection.
          rows.catch(() => undefined);
          pending.push(rows);
        }
      };
      readAhead();
      while (pending.length > 0) {
        const rows = await pending.shift()!;
        readAhead();
        yield rows;
      }
    },
  };
}

function totalSql(scope: TenantScope, list: WireList, total: ListTotal) {
  if (total === "count") return Prisma.sql`(SELECT count(*)::int ${tenantRows(scope, list.table, list.where)})`;
  return Prisma.sql`(SELECT COALESCE(sum(t.${Prisma.raw(total.sum)}), 0)::int ${tenantRows(scope, total.of, total.where)})`;
}

/** Every row of a short list (not paginated: users), as the JSON text of their wire objects' array. */
export async function wireAll(scope: TenantScope, list: WireList): Promise<string> {
  const [row] = await readRows<{ json: string }>(Prisma.sql`
    SELECT COALESCE(${jsonArray(list.object, orderSql(list.order, "t", false))}, '[]')::text AS json
    ${tenantRows(scope, list.table, list.where)}`);
  return row.json;
}

/** The list's total alone. */
export async function wireTotal(scope: TenantScope, list: WireList, total: ListTotal): Promise<number> {
  const [row] = await readRows<{ total: number }>(Prisma.sql`SELECT ${totalSql(scope, list, total)} AS total`);
  return row.total;
}

/**
 * One offset page and the total, in one statement. Given the total beforehand (`known`: kept by triggers, so it
 * cost one row), a page in the second half is read from the end, walking the order backwards, so that no page walks
 * more than half the list; its rows are written in the list's order all the same.
 */
export async function wireOffsetPage(
  scope: TenantScope,
  list: WireList,
  page: Pick<Page, "skip" | "take">,
  total: ListTotal,
  known?: number,
): Promise<PageRows & { total: number }> {
  let at = { ...page, reversed: false };
  if (known !== undefined && page.skip > known / 2) {
    // The page's rows are the last `known - skip` (at most `take` of them) counted from the end; none past the end.
    const take = Math.max(0, Math.min(page.take, known - page.skip));
    at = { skip: Math.max(0, known - page.skip - take), take, reversed: true };
  }
  const [row] = await readRows<FirstRows<{ total: number }>>(Prisma.sql`
    WITH page AS (
      SELECT ${keyColumns(list.order)} ${tenantRows(scope, list.table, list.where)}
      ORDER BY ${orderSql(list.order, "t", at.reversed)} LIMIT ${rowCount(at.take)} OFFSET ${at.skip}),
    ${pageJson(scope, list)}, ${totalSql(scope, list, total)} AS total`);
  return { ...pageRows(scope, list, row), total: row.total };
}

/** A row at a page's edge: its position in the list's order, and its id. */
export interface EdgeRow {
  position: Position;
  id: number;
}

/** A keyset page as PostgreSQL found it: its rows' JSON, how many rows it found, and its edge rows. */
export interface WireKeysetPage extends PageRows {
  /** Rows found past the position, up to one more than the page holds. */
  found: number;
  first: EdgeRow | null;
  last: EdgeRow | null;
}

/** A key of the page `p` as a cursor's position holds it: times and dates as ISO 8601, decimals as strings. */
function positionSql({ kind }: SqlKey, i: number) {
  const column = `p.k${i}`;
  if (kind === "timestamptz") return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  if (kind === "date") return `to_char(${column}, 'YYYY-MM-DD"T00:00:00.000Z"')`;
  if (kind === "numeric") return `${column}::text`;
  return column;
}

/**
 * Up to `take` rows past a position (`past`, a condition on `t`: lib/db/keyset.ts), in the list's order or, with
 * `reversed`, read in its exact reverse; one more is looked for, to learn whether another page follows that way.
 * The rows' JSON is in the list's order either way; `first` and `last` are its first and last row.
 */
export async function wireKeysetPage(
  scope: TenantScope,
  list: WireList,
  past: Prisma.Sql | undefined,
  take: number,
  reversed: boolean,
): Promise<WireKeysetPage> {
  const positions = Prisma.raw(`json_build_array(${[...list.order.map(positionSql), "p.id"].join(", ")})::text`);
  const [row] = await readRows<FirstRows<{ found: number; first: string | null; last: string | null }>>(Prisma.sql`
    WITH found AS (
      SELECT ${keyColumns(list.order)} ${tenantRows(scope, list.table, past ? [...list.where, past] : list.where)}
      ORDER BY ${orderSql(list.order, "t", reversed)} LIMIT ${rowCount(take, 1)}),
    page AS (SELECT * FROM found p ORDER BY ${orderSql(list.order, "p", reversed)} LIMIT ${rowCount(take)}),
    ${pageJson(scope, list)}, (SELECT count(*)::int FROM found) AS found,
      (SELECT ${positions} FROM numbered p WHERE p.n = 1) AS first,
      (SELECT ${positions} FROM numbered p WHERE p.n = (SELECT max(n) FROM numbered)) AS last`);
  const edge = (text: string | null): EdgeRow | null => {
    if (text === null) return null;
    const values = JSON.parse(text) as Position;
    return { position: values.slice(0, -1), id: values.at(-1) as number };
  };
  return { ...pageRows(scope, list, row), found: row.found, first: edge(row.first), last: edge(row.last) };
}
