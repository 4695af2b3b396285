// Offset pages (`page=N`) that cost little however deep they are. OFFSET reads every skipped row: on the bench data
// a client page 1000 fetched 50,000 clients to return 50. Past the first page, the page's ids are found first, by a
// query that reads only columns an index holds in the list's order (an index-only scan: the lists' ordering indexes
// carry the id, migration 20261126000001_row_counts), then those rows alone are read, in the same order.
import type { Page } from "@/lib/core/pagination";

export interface OffsetPageReader<Row> {
  /** The ids of one page: the list's filter and order (with `reversed`, its exact reverse), selecting `id` alone. */
  ids(page: Pick<Page, "skip" | "take">, reversed: boolean): Promise<{ id: number }[]>;
  /** One page of full rows in the list's order; with `ids`, those rows alone (in the list's order, a total one). */
  rows(page: Pick<Page, "skip" | "take">, ids?: number[]): Promise<Row[]>;
}

/**
 * The rows of one offset page: the first page at once, a later one through its ids. Given the list's total when it
 * costs nothing (kept by triggers: lib/db/row-counts.ts), a page in the second half is found from the end, walking
 * the order backwards, so that no page walks more than half the list.
 */
export async function readOffsetPage<Row>(
  page: Pick<Page, "skip" | "take">,
  reader: OffsetPageReader<Row>,
  total?: Promise<number>,
): Promise<Row[]> {
  if (page.skip === 0) return reader.rows(page);
  const known = total === undefined ? undefined : await total;
  let ids: { id: number }[];
  if (known !== undefined && page.skip > known / 2) {
    // The page's rows are the last `known - skip` (at most `take` of them) counted from the end.
    const take = Math.min(page.take, known - page.skip);
    if (take <= 0) return [];
    ids = await reader.ids({ skip: known - page.skip - take, take }, true);
  } else {
    ids = await reader.ids(page, false);
  }
  return ids.length === 0
    ? []
    : reader.rows(
        { skip: 0, take: ids.length },
        ids.map((row) => row.id),
      );
}

/** The total and the page, read at once; the page may wait for the total (readOffsetPage's `total`). */
export function pageAndTotal<Row>(
  total: Promise<number>,
  page: (total: Promise<number>) => Promise<Row[]>,
): Promise<[number, Row[]]> {
  return Promise.all([total, page(total)]);
}
