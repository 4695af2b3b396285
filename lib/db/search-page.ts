// One page of a searched list (clients?search=, contacts?search=). Search matches often cluster in the list's order,
// where PostgreSQL's ORDER BY … LIMIT plan walks far; so up to `maxSorted` matches the page is sorted from the
// matches alone (measurements: bench/RESULTS.md, "Search pages").

import type { Page } from "@/lib/core/pagination";
import type { Direction } from "@/lib/core/validation";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TenantScope } from "./tenant";

/**
 * A list's order: columns and directions, the last column unique and non-null. A column is a database column, or
 * `relation.column` of a to-one relation; `"last"` marks one that may be null, whose nulls come last in both
 * directions. For a relation's column, `nullWhen` is the foreign key that is null when the relation is missing
 * (Prisma's `relation: null` filter misses those rows when the key is composite, as every key here is).
 */
export type ListOrder = [column: string, direction: Direction, nulls?: "last", nullWhen?: string][];

/** The Prisma field path of an order's column (camel case; a dot steps into a relation). */
export const fieldPath = (column: string) =>
  column.split(".").map((part) => part.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase()));

/** `value` at a field path: `{ a: { b: value } }` for `a.b`. */
export const atPath = (path: string[], value: unknown): Record<string, unknown> =>
  path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;

/**
 * The same order as a Prisma orderBy, or with `reversed` its exact reverse (each direction flipped, nulls first).
 * Prisma can put nulls last only for a model's own columns: a list ordered by a nullable relation's column reads the
 * rows without it separately (lib/jobs/queries.ts).
 */
export function prismaOrderBy(order: ListOrder, reversed = false) {
  return order.map(([column, direction, nulls]) => {
    const path = fieldPath(column);
    const sort = reversed ? (direction === "asc" ? "desc" : "asc") : direction;
    return atPath(path, nulls && path.length === 1 ? { sort, nulls: reversed ? "first" : nulls } : sort);
  });
}

interface SearchedList<Row> {
  /** The table the list reads, and its order, which `rows` reads with prismaOrderBy. */
  table: "clients" | "contacts";
  order: ListOrder;
  /** Up to this many matches, the page is sorted from the matches alone; above, read by walking the order. */
  maxSorted: number;
  count(): Promise<number>;
  /** The ids of all matches, in no order. */
  matchIds(): Promise<number[]>;
  /** A page of the matches in the list's order; with `ids`, those rows alone, in the same order. */
  rows(page: Pick<Page, "skip" | "take">, ids?: number[]): Promise<Row[]>;
}

/** The total and the rows of one page of a search. */
export async function searchPage<Row>(
  scope: TenantScope,
  list: SearchedList<Row>,
  page: Page,
): Promise<[number, Row[]]> {
  const total = await list.count();
  if (total === 0 || page.skip >= total) return [total, []];
  if (total > list.maxSorted) return [total, await list.rows(page)];
  const ids = await sortedPageIds(scope, list, await list.matchIds(), page);
  return [total, await list.rows({ skip: 0, take: ids.length }, ids)];
}

/**
 * The ids of one page of the given rows in the list's order. The OFFSET 0 keeps PostgreSQL from planning the sort
 * as a walk of an ordering index; the tenant is named here, as in every raw statement (lib/db/tenant.ts).
 */
async function sortedPageIds(
  scope: TenantScope,
  { table, order }: Pick<SearchedList<unknown>, "table" | "order">,
  ids: number[],
  page: Page,
) {
  // Column names and directions are spliced into the SQL: only plain identifiers and the two directions get there.
  if (
    !order.every(([column, direction]) => /^[a-z_]+$/.test(column) && (direction === "asc" || direction === "desc"))
  ) {
    throw new Error(`Not an order of plain columns: ${JSON.stringify(order)}`);
  }
  const columns = Prisma.raw(order.map(([column]) => `"${column}"`).join(", "));
  const orderBy = Prisma.raw(order.map(([column, direction]) => `"${column}" ${direction.toUpperCase()}`).join(", "));
  const rows = await scope.db.$queryRaw<{ id: number }[]>`
    SELECT id FROM (
      SELECT id, ${columns} FROM ${Prisma.raw(`"${table}"`)} WHERE tenant_id = ${scope.tenant.id} AND id = ANY(${ids}::int[]) OFFSET 0
    ) AS matches
    ORDER BY ${orderBy} LIMIT ${page.take} OFFSET ${page.skip}`;
  return rows.map((row) => row.id);
}
