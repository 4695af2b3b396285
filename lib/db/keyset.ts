// Keyset pages: the rows after a position in a list's order, as a WHERE condition, so that a page deep in the list
// costs what the first costs (no OFFSET) and rows inserted or moved behind the position shift nothing ahead of it.
// Prisma's own `cursor` option re-reads the cursor's row; this filter needs only the position's values.
import { cursorBinding, decodeCursor, encodeCursor, type Position } from "@/lib/core/cursor";
import type { CursorPage } from "@/lib/core/pagination";
import { atPath, fieldPath, type ListOrder } from "./search-page";

const isNull = (column: string, nullWhen?: string) => atPath(fieldPath(nullWhen ?? column), null);

const equals = ([column, , , nullWhen]: ListOrder[number], value: Position[number]) =>
  value === null ? isNull(column, nullWhen) : atPath(fieldPath(column), value);

/**
 * (c1, c2, …) after (v1, v2, …) in the order's directions: c1 past v1, or c1 = v1 and c2 past v2, and so on. Past a
 * value of a nulls-last column lie the greater (or smaller) values and every null; past a null, no value of it.
 */
export function keysetAfter(order: ListOrder, position: Position) {
  const branches = order.flatMap(([column, direction, nulls, nullWhen], i) => {
    const value = position[i];
    if (value === null) return [];
    const past = atPath(fieldPath(column), { [direction === "asc" ? "gt" : "lt"]: value });
    const earlier = order.slice(0, i).map((earlierColumn, j) => equals(earlierColumn, position[j]));
    return [{ AND: [...earlier, nulls ? { OR: [past, isNull(column, nullWhen)] } : past] }];
  });
  return { AND: [leadingBound(order, position), { OR: branches }] };
}

/**
 * What every row after the position satisfies on the order's first column: at or past its value. Implied by the
 * branches, but PostgreSQL cannot start an index scan from an OR: without this bound it read the list from its start
 * up to the position (a cursor page of 1,000 time logs took 400 ms halfway down a million). Only for a column of the
 * row itself that holds no nulls; a nullable or related first column keeps the branches alone.
 */
function leadingBound(order: ListOrder, position: Position) {
  const [column, direction, nulls] = order[0];
  const path = fieldPath(column);
  if (nulls || path.length > 1 || position[0] === null) return {};
  return atPath(path, { [direction === "asc" ? "gte" : "lte"]: position[0] });
}

/**
 * One cursor page of a list: `find` reads the rows after the cursor's position (`after`, to be ANDed with the list's
 * filters, visibility included, in the list's order), one more than a page to learn whether another page follows.
 */
export async function readCursorPage<Row extends Record<string, unknown>>(
  list: string,
  query: Record<string, unknown> & { cursor?: string },
  order: ListOrder,
  perPage: number,
  find: (after: object, take: number) => Promise<Row[]>,
): Promise<CursorPage<Row>> {
  const binding = cursorBinding(list, { ...query, limit: perPage, per_page: undefined });
  const after = query.cursor ? keysetAfter(order, decodeCursor(query.cursor, binding, order.length)) : {};
  const found = await find(after, perPage + 1);
  const rows = found.slice(0, perPage);
  const nextCursor = found.length > perPage ? encodeCursor(positionOf(order, rows[rows.length - 1]), binding) : null;
  return { perPage, rows, nextCursor };
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
