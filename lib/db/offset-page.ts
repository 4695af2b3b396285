// Offset pages (`page=N`) that cost little however deep they are. OFFSET reads every skipped row: on the bench data
// a client page 1000 fetched 50,000 clients to return 50. Past the first page, the page's ids are found first, by a
// query that reads only columns an index holds in the list's order (an index-only scan: the lists' ordering indexes
// carry the id, migration 20261126000001_row_counts), then those rows alone are read, in the same order.
import type { Page } from "@/lib/core/pagination";

export interface OffsetPageReader<Row> {
  /** The ids of one page, in the list's order: the list's filter and order, selecting `id` alone. */
  ids(page: Pick<Page, "skip" | "take">): Promise<{ id: number }[]>;
  /** One page of full rows in the list's order; with `ids`, those rows alone (the same order, a total one). */
  rows(page: Pick<Page, "skip" | "take">, ids?: number[]): Promise<Row[]>;
}

/** The rows of one offset page: the first page at once, a later one through its ids. */
export async function readOffsetPage<Row>(page: Pick<Page, "skip" | "take">, reader: OffsetPageReader<Row>) {
  if (page.skip === 0) return reader.rows(page);
  const ids = (await reader.ids(page)).map((row) => row.id);
  return ids.length === 0 ? [] : reader.rows({ skip: 0, take: ids.length }, ids);
}
