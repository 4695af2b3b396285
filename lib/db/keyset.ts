// Keyset pages: the rows after (or before) a position in a list's order, as a WHERE condition, so that a page deep in the list
// costs what the first costs (no OFFSET) and rows inserted or moved behind the position shift nothing ahead of it.
// Prisma's own `cursor` option re-reads the cursor's row; this filter needs only the position's values.
import {
  type CursorOwner,
  type CursorTarget,
  cursorBinding,
  decodeCursor,
  encodeCursor,
  type Position,
} from "@/lib/core/cursor";
import type { CursorPage } from "@/lib/core/pagination";
import { atPath, fieldPath, type ListOrder } from "./search-page";

const isNull = (column: string, nullWhen?: string) => atPath(fieldPath(nullWhen ?? column), null);
const notNull = (column: string, nullWhen?: string) => atPath(fieldPath(nullWhen ?? column), { not: null });

const equals = ([column, , , nullWhen]: ListOrder[number], value: Position[number]) =>
  value === null ? isNull(column, nullWhen) : atPath(fieldPath(column), value);

/**
 * (c1, c2, …) after (v1, v2, …) in the order's directions, or with `before` ahead of it: c1 past v1, or c1 = v1 and
 * c2 past v2, and so on. After a value of a nulls-last column lie the greater (or smaller) values and every null,
 * after a null no value of it; before a value lie only values, before a null every value.
 */
export function keysetPast(order: ListOrder, { position, before }: CursorTarget) {
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
  const binding = cursorBinding(list, { ...query, limit: perPage, per_page: undefined }, owner);
  const target = query.cursor ? decodeCursor(query.cursor, binding, order.length) : undefined;
  const before = target?.before ?? false;
  const found = await find(target ? keysetPast(order, target) : {}, perPage + 1, before);
  const more = found.length > perPage;
  const rows = found.slice(0, perPage);
  if (before) rows.reverse();
  // Laravel's rule: a page read forward has a previous page unless it is the first; one read backward, a next page.
  const hasNext = before || more;
  const hasPrev = before ? more : target !== undefined;
  const cursorAt = (row: Row | undefined, towardsStart: boolean) =>
    row ? encodeCursor({ position: positionOf(order, row), before: towardsStart }, binding) : null;
  return {
    perPage,
    rows,
    nextCursor: hasNext ? cursorAt(rows.at(-1), false) : null,
    prevCursor: hasPrev ? cursorAt(rows[0], true) : null,
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
