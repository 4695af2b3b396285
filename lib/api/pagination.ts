// The pagination envelope of every paginated list: data, links (absolute, on the public origin, keeping the
// caller's other query parameters) and meta.
import type { CursorPage, ListPage } from "@/lib/core/pagination";
import { publicUrl } from "./public-url";

/** The envelope of a page or of a cursor page, whichever the list answered (`cursor=` asks for the latter). */
export function listEnvelope<Row, T>(
  request: Request,
  result: ListPage<Row> | CursorPage<Row>,
  serialize: (row: Row) => T,
) {
  return "total" in result ? paginated(request, result, serialize) : cursorPaginated(request, result, serialize);
}

/** Laravel's cursor envelope: no total, no first or last page; `next` and `prev` carry their pages' cursors. */
export function cursorPaginated<Row, T>(
  request: Request,
  { perPage, rows, nextCursor, prevCursor }: CursorPage<Row>,
  serialize: (row: Row) => T,
) {
  const url = publicUrl(request);
  const path = `${url.origin}${url.pathname}`;
  url.searchParams.delete("page");
  const link = (cursor: string | null) => {
    if (cursor === null) return null;
    url.searchParams.set("cursor", cursor);
    return url.toString();
  };
  return {
    data: rows.map(serialize),
    links: { first: null, last: null, prev: link(prevCursor), next: link(nextCursor) },
    meta: { path, per_page: perPage, next_cursor: nextCursor, prev_cursor: prevCursor },
  };
}

/** The envelope of a list page, each row serialized by `serialize`. */
export function paginated<Row, T>(request: Request, { page, total, rows }: ListPage<Row>, serialize: (row: Row) => T) {
  const url = publicUrl(request);
  const lastPage = Math.max(1, Math.ceil(total / page.perPage));
  const link = (n: number) => {
    url.searchParams.set("page", String(n));
    return url.toString();
  };
  return {
    data: rows.map(serialize),
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page.page > 1 ? link(page.page - 1) : null,
      next: page.page < lastPage ? link(page.page + 1) : null,
    },
    meta: { current_page: page.page, last_page: lastPage, per_page: page.perPage, total },
  };
}
