// Keyset pages: the rows after (or before) a position in a list's order, as a WHERE condition, so that a page deep in the list
// costs what the first costs (no OFFSET) and rows inserted or moved behind the position shift nothing ahead of it.
// Prisma's own `cursor` option re-reads the cursor's row; this filter needs only the position's values.
import {
  type CursorOwner,
  type CursorPosition,
  type CursorTarget,
  carriedPosition,
  cursorBinding,
  decodeCursor,
  encodeCursor,
  isRowReference,
  type Position,
  type RowReference,
} from "@/lib/core/cursor";
import { validationFailed } from "@/lib/core/errors";
import type { CursorPage, WirePage } from "@/lib/core/pagination";
import { Prisma } from "@/lib/generated/prisma/client";
import { readRows } from "./client";
import { atPath, fieldPath, type ListOrder } from "./search-page";
import type { TenantScope } from "./tenant";
import { type EdgeRow, type SqlKey, type SqlOrder, tenantRows, type WireList, wireKeysetPage } from "./wire-list";

const isNull = (column: string, nullWhen?: string) => atPath(fieldPath(nullWhen ?? column), null);
const notNull = (column: string, nullWhen?: string) => atPath(fieldPath(nullWhen ?? column), { not: null });

const equals = ([column, , , nullWhen]: ListOrder[number], value: Position[number]) =>
  value === null ? isNull(column, nullWhen) : atPath(fieldPath(column), value);

/**
 * (c1, c2, …) after (v1, v2, …) in the order's directions, or with `before` ahead of it: c1 past v1, or c1 = v1 and
 * c2 past v2, and so on. After a value of a nulls-last column lie the greater (or smaller) values and every null,
 * after a null no value of it; before a value lie only values, before a null every value.
 */
export function keysetPast(order: ListOrder, target: CursorTarget) {
  const { before } = target;
  const position = carriedValues(target.position);
  const branches = order.flatMap(([column, direction, nulls, nullWhen], i) => {
    const value = position[i];
    const earlier = order.slice(0, i).map((earlierColumn, j) => equals(earlierColumn, position[j]));
    if (value === null) return before ? [{ AND: [...earlier, notNull(column, nullWhen)] }] : [];
    const past = atPath(fieldPath(column), { [(direction === "asc") !== before ? "gt" : "lt"]: value });
    return [{ AND: [...earlier, nulls && !before ? { OR: [past, isNull(column, nullWhen)] } : past] }];
  });
  return { AND: [leadingBound(order, position, before), { OR: branches }] };
}

/**
 * What every row past the position satisfies on the order's first column: at or past its value. Implied by the
 * branches, but PostgreSQL cannot start an index scan from an OR: without this bound it read the list from its start
 * up to the position (a cursor page of 1,000 time logs took 400 ms halfway down a million). Only for a column of the
 * row itself that holds no nulls; a nullable or related first column keeps the branches alone.
 */
function leadingBound(order: ListOrder, position: Position, before: boolean) {
  const [column, direction, nulls] = order[0];
  const path = fieldPath(column);
  if (nulls || path.length > 1 || position[0] === null) return {};
  return atPath(path, { [(direction === "asc") !== before ? "gte" : "lte"]: position[0] });
}

/**
 * The values of a position a list read by Prisma made: its keys (times, ids) are never long, so its cursors carry no
 * row reference (and one could only be forged, which the signature refuses).
 */
function carriedValues(position: CursorPosition): Position {
  if (position.some(isRowReference)) throw new Error("A cursor of a list read by Prisma holds a row reference");
  return position as Position;
}

/**
 * keysetPast as a SQL condition on the row `t`: the same branches and the same leading bound. A value the cursor
 * carries as a reference to its row is read back from that row (`readBack`).
 */
export function keysetPastSql(
  order: SqlOrder,
  { position, before }: CursorTarget,
  readBack: (key: SqlKey, reference: RowReference) => Prisma.Sql,
): Prisma.Sql {
  const column = (key: SqlKey) => Prisma.raw(key.sql);
  const value = (key: SqlKey, v: CursorPosition[number]) =>
    isRowReference(v) ? readBack(key, v) : Prisma.sql`CAST(${v} AS ${Prisma.raw(key.kind)})`;
  const equals = (key: SqlKey, v: CursorPosition[number]) =>
    v === null ? Prisma.sql`${column(key)} IS NULL` : Prisma.sql`${column(key)} = ${value(key, v)}`;
  const all = (parts: Prisma.Sql[]) => (parts.length ? Prisma.join(parts, " AND ") : Prisma.sql`TRUE`);
  const branches = order.flatMap((key, i) => {
    const v = position[i];
    const earlier = order.slice(0, i).map((earlierKey, j) => equals(earlierKey, position[j]));
    if (v === null) return before ? [all([...earlier, Prisma.sql`${column(key)} IS NOT NULL`])] : [];
    const operator = Prisma.raw((key.direction === "asc") !== before ? ">" : "<");
    const past = Prisma.sql`${column(key)} ${operator} ${value(key, v)}`;
    const reached = key.nullsLast && !before ? Prisma.sql`(${past} OR ${column(key)} IS NULL)` : past;
    return [Prisma.sql`(${all([...earlier, reached])})`];
  });
  const [first] = order;
  const bounded = !first.nullsLast && /^t\.\w+$/.test(first.sql) && position[0] !== null;
  const bound = Prisma.sql`${column(first)} ${Prisma.raw((first.direction === "asc") !== before ? ">=" : "<=")} ${value(first, position[0])}`;
  const past = branches.length ? Prisma.sql`(${Prisma.join(branches, " OR ")})` : Prisma.sql`FALSE`;
  return bounded ? Prisma.sql`${bound} AND ${past}` : past;
}

/**
 * One cursor page of a list: `find` reads the rows past the cursor's position (`past`, to be ANDed with the list's
 * filters, visibility included), in the list's order or, for a page before the cursor, in its exact reverse
 * (`reversed`), one more than a page to learn whether another page follows in that direction.
 */
export async function readCursorPage<Row extends Record<string, unknown>>(
  owner: CursorOwner,
  list: string,
  query: Record<string, unknown> & { cursor?: string },
  order: ListOrder,
  perPage: number,
  find: (past: object, take: number, reversed: boolean) => Promise<Row[]>,
): Promise<CursorPage<Row>> {
  const cursor = openCursor(owner, list, query, perPage, order.length);
  const found = await find(cursor.target ? keysetPast(order, cursor.target) : {}, perPage + 1, cursor.before);
  const rows = found.slice(0, perPage);
  if (cursor.before) rows.reverse();
  const at = (row: Row | undefined) => (row ? positionOf(order, row) : null);
  return { rows, ...cursor.edges(found.length > perPage, at(rows[0]), at(rows.at(-1))) };
}

/**
 * A cursor page of a list PostgreSQL writes as JSON (lib/db/wire-list.ts), found and written in one statement; the
 * same pages, cursors and rules as readCursorPage.
 */
export async function readWireCursorPage(
  scope: TenantScope & CursorOwner,
  name: string,
  query: Record<string, unknown> & { cursor?: string },
  list: WireList,
  perPage: number,
): Promise<WirePage> {
  const cursor = openCursor(scope, name, query, perPage, list.order.length);
  const ofRow = (row: number) => tenantRows(scope, list.table, [Prisma.sql`t.id = ${row}`]);
  const reference = cursor.target?.position.find(isRowReference);
  // A row gone since its cursor was made has no values to read back: the walk starts again rather than ends early.
  if (reference && !(await readRows(Prisma.sql`SELECT 1 ${ofRow(reference.row)}`)).length)
    throw validationFailed({ cursor: ["The record this cursor stood at is gone: start again with cursor= (empty)."] });
  const past =
    cursor.target &&
    keysetPastSql(
      list.order,
      cursor.target,
      (key, { row }) => Prisma.sql`(SELECT ${Prisma.raw(key.sql)} ${ofRow(row)})`,
    );
  const page = await wireKeysetPage(scope, list, past, perPage, cursor.before);
  const carried = (edge: EdgeRow | null) => edge && carriedPosition(edge.position, edge.id);
  return {
    json: page.json,
    more: page.more,
    ...cursor.edges(page.found > perPage, carried(page.first), carried(page.last)),
  };
}

/** The cursor a page was asked with (none for the first), and the cursors of its neighbours once it is read. */
function openCursor(
  owner: CursorOwner,
  list: string,
  query: Record<string, unknown> & { cursor?: string },
  perPage: number,
  keys: number,
) {
  const binding = cursorBinding(list, { ...query, limit: perPage, per_page: undefined }, owner);
  const target = query.cursor ? decodeCursor(query.cursor, binding, keys) : undefined;
  const before = target?.before ?? false;
  return {
    target,
    before,
    /** `more`: another page follows in the direction read; `first` and `last`: the page's edge rows' positions. */
    edges(more: boolean, first: CursorPosition | null, last: CursorPosition | null): Omit<CursorPage<unknown>, "rows"> {
      // Laravel's rule: a page read forward has a previous page unless it is the first; one read backward, a next page.
      const hasNext = before || more;
      const hasPrev = before ? more : target !== undefined;
      const cursorAt = (position: CursorPosition | null, towardsStart: boolean) =>
        position ? encodeCursor({ position, before: towardsStart }, binding) : null;
      return {
        perPage,
        nextCursor: hasNext ? cursorAt(last, false) : null,
        prevCursor: hasPrev ? cursorAt(first, true) : null,
      };
    },
  };
}

/** The position of a row in the order (dates as ISO strings, which Prisma reads back as dates; decimals as strings). */
export function positionOf(order: ListOrder, row: Record<string, unknown>): Position {
  return order.map(([column]) => {
    const value = fieldPath(column).reduce<unknown>(
      (inner, key) => (inner as Record<string, unknown> | null)?.[key] ?? null,
      row,
    );
    if (value instanceof Date) return value.toISOString();
    // A Prisma Decimal: its string keeps every digit, and Prisma takes a string where it takes a decimal.
    if (value !== null && typeof value === "object") return String(value);
    return value as string | number | null;
  });
}
