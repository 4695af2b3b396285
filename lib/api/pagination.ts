// The pagination envelope of every paginated list: data, links (absolute, on the public origin, keeping the
// caller's other query parameters) and meta.
import type { CursorPage, ListPage, WirePage } from "@/lib/core/pagination";
import { publicUrl } from "./public-url";

/** A JSON answer whose body is already JSON text (built by PostgreSQL: lib/db/json-rows.ts), sent as it is. */
export const jsonText = (text: string, status = 200) => jsonPieces([text], status);

/**
 * The answer of a page whose rows PostgreSQL wrote as JSON: their text goes into the body without being parsed. A
 * long page's body is streamed: its first rows, then the rest as each statement reads them, then links and meta
 * (known from the first statement, as the total and the cursors are).
 */
export function listResponse(request: Request, { json, more, ...page }: WirePage): Response {
  const envelope = `,${JSON.stringify(envelopeOf(request, page)).slice(1)}`;
  if (!more) return jsonPieces(['{"data":', json, envelope]);
  return new Response(textStream(streamedPieces(json, more(), envelope)), {
    headers: { "Content-Type": "application/json" },
  });
}

/**
 * The pieces of a streamed page: the first rows' array left open, the rows of each later array joined into it, and
 * the envelope. Each piece is a slice of the text a statement read, never a copy of it joined to another.
 */
async function* streamedPieces(first: string, rows: AsyncGenerator<string>, envelope: string) {
  try {
    yield '{"data":';
    yield first.slice(0, -1);
    // An empty array (its rows deleted since the page was found) adds nothing.
    for await (const array of rows) if (array !== "[]") yield* [",", array.slice(1, -1)];
    yield "]";
    yield envelope;
  } finally {
    await rows.return(undefined);
  }
}

/** Characters of a body encoded at a time (at most three times as many bytes). */
export const BODY_CHUNK_CHARS = 16_384;

/** A JSON answer of these pieces of text in order: one string when short, else streamed (textStream). */
function jsonPieces(pieces: string[], status = 200): Response {
  const headers = { "Content-Type": "application/json" };
  if (pieces.reduce((length, piece) => length + piece.length, 0) <= BODY_CHUNK_CHARS)
    return new Response(pieces.join(""), { status, headers });
  return new Response(textStream(pieces.values()), { status, headers });
}

/**
 * A body of the pieces in order, encoded BODY_CHUNK_CHARS at a time as the server takes them. A page of a thousand rows
 * (1.5 MB) encoded whole is one task of milliseconds that every other request's next step waits behind, and two
 * more large objects (the joined text and its bytes) for the garbage collector's slowest pass to move; in slices it
 * is many short tasks and short-lived chunks (bench/RESULTS.md, the noisy neighbour). The status is sent before a
 * streamed page's later rows are read: should a later statement fail, the body is cut off (the stream errors, and
 * the server ends the response without its last chunk), so that no client takes half a page for a whole one; the
 * first rows' statement, which meets most faults, runs before the answer is given, and answers them as JSON 4xx/5xx.
 */
function textStream(pieces: Iterator<string> | AsyncIterator<string>) {
  const encoder = new TextEncoder();
  let rest = "";
  return new ReadableStream<Uint8Array>({
    // Each pull must enqueue something or close the stream, or it is not called again.
    async pull(controller) {
      while (!rest) {
        const next = await pieces.next();
        if (next.done) return controller.close();
        rest = next.value;
      }
      let end = Math.min(rest.length, BODY_CHUNK_CHARS);
      // Never between the halves of a surrogate pair: each half alone would be encoded as U+FFFD.
      if (end < rest.length && isHighSurrogate(rest.charCodeAt(end - 1))) end--;
      controller.enqueue(encoder.encode(rest.slice(0, end)));
      rest = rest.slice(end);
    },
    async cancel() {
      await pieces.return?.(undefined);
    },
  });
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

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
