// The pagination envelope of every paginated list: data, links (absolute, on the public origin, keeping the
// caller's other query parameters) and meta.
import type { ListPage } from "@/lib/core/pagination";
import { publicUrl } from "./public-url";

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
