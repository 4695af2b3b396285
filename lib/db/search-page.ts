// One page of a searched list (clients?search=, contacts?search=) and its exact total, in one statement. The total
// needs every match found and checked, however broad the term; with those at hand, sorting them for the page costs
// little, where a walk of the list's ordering index with the match as a filter walks far when the matches cluster in
// the list's order (a last name, a word that begins names: bench/search-plans.md). A term too short for the trigram
// index matches most rows and is read by a scan anyway: there the walk finds a page soonest.

import type { Page } from "@/lib/core/pagination";
import type { Direction } from "@/lib/core/validation";
import { Prisma } from "@/lib/generated/prisma/client";
import { readRows } from "./client";
import type { TenantScope } from "./tenant";
import { tenantRows } from "./wire-list";

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

/** A search's plan depends on how many rows its terms match: planned for the terms of each call (lib/db/client.ts). */
const EACH_CALL = { planEachCall: true };

/** The trigram index narrows a search only by terms of three characters or more. */
const TRIGRAM = 3;

export interface SearchedList {
  /** The table the list reads, and its order: plain columns of the table. */
  table: "clients" | "contacts";
  order: ListOrder;
  /** The words searched for (every one must match): what decides how the page is read. */
  words: string[];
  /** What a row `t` must meet besides its tenant: the words' matches, visibility, the list's filters. */
  where: Prisma.Sql[];
}

/** The total of the matches and the ids of one page of them, in the list's order. */
export async function searchPage(
  scope: TenantScope,
  list: SearchedList,
  page: Page,
  walk = walksOrder(list.words),
): Promise<[number, number[]]> {
  // Column names and directions are spliced into the SQL: only plain identifiers and the two directions get there.
  if (
    !list.order.every(
      ([column, direction]) => /^[a-z_]+$/.test(column) && (direction === "asc" || direction === "desc"),
    )
  ) {
    throw new Error(`Not an order of plain columns: ${JSON.stringify(list.order)}`);
  }
  const columns = Prisma.raw(list.order.map(([column]) => `t."${column}"`).join(", "));
  const orderBy = Prisma.raw(
    list.order.map(([column, direction]) => `"${column}" ${direction.toUpperCase()}`).join(", "),
  );
  const tOrderBy = Prisma.raw(
    list.order.map(([column, direction]) => `t."${column}" ${direction.toUpperCase()}`).join(", "),
  );
  const matches = tenantRows(scope, list.table, list.where);
  const [row] = walk
    ? await readRows<{ total: number; ids: number[] }>(
        Prisma.sql`
      SELECT (SELECT count(*) ${matches})::int AS total,
        ARRAY(SELECT t.id ${matches} ORDER BY ${tOrderBy} LIMIT ${page.take} OFFSET ${page.skip}) AS ids`,
        EACH_CALL,
      )
    : await readRows<{ total: number; ids: number[] }>(
        Prisma.sql`
      WITH matches AS MATERIALIZED (SELECT t.id, ${columns} ${matches})
      SELECT (SELECT count(*) FROM matches)::int AS total,
        ARRAY(SELECT id FROM matches ORDER BY ${orderBy} LIMIT ${page.take} OFFSET ${page.skip}) AS ids`,
        EACH_CALL,
      );
  return [row.total, row.ids];
}

/** Whether the page is found by walking the list's order (no word narrows the search by index), not by a sort. */
export function walksOrder(words: string[]) {
  return words.every((word) => word.length < TRIGRAM);
}
