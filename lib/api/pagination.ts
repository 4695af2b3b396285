// The pagination envelope of every paginated list: data, links (absolute, on the public origin, keeping the
// caller's other query parameters) and meta.
import type { CursorPage, ListPage, WirePage } from "@/lib/core/pagination";
import { publicUrl } from "./public-url";

/** A JSON answer whose body is already JSON text (built by PostgreSQL: lib/db/json-rows.ts), sent as it is. */
export const jsonText = (text: string, status = 200) =>
  new Response(text, { status, headers: { "Content-Type": "application/json" } });

/**
 * The answer of a page whose rows PostgreSQL wrote as JSON: their text goes into the body without being parsed. A
 * long page's body is streamed: its first rows, then the rest as each statement reads them, then links and meta
 * (known from the first statement, as the total and the cursors are).
 */
export function listResponse(request: Request, { json, more, ...page }: WirePage): Response {
  const envelope = `,${JSON.stringify(envelopeOf(request, page)).slice(1)}`;
  if (!more) return jsonText(`{"data":${json}${envelope}`);
  return new Response(streamedBody(`{"data":${json.slice(0, -1)}`, more(), `]${envelope}`), {
    headers: { "Content-Type": "application/json" },
  });
}

/**
 * A body of `head`, the rows of each array of `rows` joined into head's open array, and `tail`. The status is sent
 * before the rest is read: should a later statement fail, the body is cut off (the stream errors, and the server
 * ends the response without its last chunk), so that no client takes half a page for a whole one; the first rows'
 * statement, which meets most faults, runs before the answer is given, and answers them as JSON 4xx/5xx.
 */
function streamedBody(head: string, rows: AsyncGenerator<string>, tail: string) {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(head));
    },
    // Each pull must enqueue something or close the stream, or it is not called again: an empty chunk (its rows
    // deleted since the page was found) is passed over for the next.
    async pull(controller) {
      for (;;) {
        const next = await rows.next();
        if (next.done) {
          controller.enqueue(encoder.encode(tail));
          controller.close();
          return;
        }
        if (next.value !== "[]") {
          controller.enqueue(encoder.encode(`,${next.value.slice(1, -1)}`));
          return;
        }
      }
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
}

/** The answer of a page whose rows are serialized here (a list PostgreSQL does not write as JSON: the audit log). */
export function serializedListResponse<Row>(
  request: Request,
  { rows, ...page }: ListPage<Row> | CursorPage<Row>,
  serialize: (row: Row) => unknown,
): Response {
  return listResponse(request, { ...page, json: JSON.stringify(rows.map(serialize)) });
}

function envelopeOf(request: Request, page: Omit<ListPage<unknown>, "rows"> | Omit<CursorPage<unknown>, "rows">) {
  return "total" in page ? paginated(request, page) : cursorPaginated(request, page);
}

/** Laravel's cursor envelope: no total, no first or last page; `next` and `prev` carry their pages' cursors. */
function cursorPaginated(request: Request, { perPage, nextCursor, prevCursor }: Omit<CursorPage<unknown>, "rows">) {
  const url = publicUrl(request);
  const path = `${url.origin}${url.pathname}`;
  url.searchParams.delete("page");
  const link = (cursor: string | null) => {
    if (cursor === null) return null;
    url.searchParams.set("cursor", cursor);
    return url.toString();
  };
  return {
    links: { first: null, last: null, prev: link(prevCursor), next: link(nextCursor) },
    meta: { path, per_page: perPage, next_cursor: nextCursor, prev_cursor: prevCursor },
  };
}

/** The links and meta of a list page. */
function paginated(request: Request, { page, total }: Omit<ListPage<unknown>, "rows">) {
  const url = publicUrl(request);
  const lastPage = Math.max(1, Math.ceil(total / page.perPage));
  const link = (n: number) => {
    url.searchParams.set("page", String(n));
    return url.toString();
  };
  return {
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page.page > 1 ? link(page.page - 1) : null,
      next: page.page < lastPage ? link(page.page + 1) : null,
    },
    meta: { current_page: page.page, last_page: lastPage, per_page: page.perPage, total },
  };
}
