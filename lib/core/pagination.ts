// Pages of a list: the page-size and page query parameters (`limit` or `per_page` on every list, 1..1000), the
// page they select, and the envelope's schema for the OpenAPI document. lib/api/pagination.ts builds the envelope.
import { z } from "zod";
import { isCalendarDate } from "./dates";
import { component } from "./openapi-registry";
import { queryInt } from "./validation";

const MAX_PAGE_SIZE = 1000;

/** `cursor` switches a list to cursor pages: empty for the first page, then each page's next_cursor. */
export const cursorQuery = {
  cursor: z
    .string()
    .max(1000)
    .optional()
    .describe(
      "Cursor pages: empty to start, then a page's meta.next_cursor or meta.prev_cursor; bound to the other parameters and to the caller",
    ),
};

export const paginationQuery = {
  page: queryInt(z.number().int().min(1).max(1_000_000)).optional(),
  limit: queryInt(z.number().int().min(1).max(MAX_PAGE_SIZE)).optional(),
  per_page: queryInt(z.number().int().min(1).max(MAX_PAGE_SIZE)).optional(),
};

/** `updated_since` of every list: an ISO 8601 date and time with a zone (Z or an offset); records changed at or after it. */
export const updatedSinceQuery = {
  updated_since: z.iso
    .datetime({ offset: true })
    // Years 0001-9999, as for every date (PostgreSQL refuses year 0000 with a server error).
    // The check runs even when the format check failed: a string no Date can hold (a valid date followed by junk) is
    // refused here rather than thrown by toISOString (a 500, found by the sweep).
    .refine(
      (s) => {
        const date = new Date(s);
        return (
          !Number.isNaN(date.getTime()) &&
          isCalendarDate(s.slice(0, 10)) &&
          isCalendarDate(date.toISOString().slice(0, 10))
        );
      },
      { message: "Must be a real date and time in the years 0001 to 9999." },
    )
    .transform((s) => new Date(s))
    .optional()
    .describe("Only records whose updated_at is at or after this ISO 8601 date and time (with Z or an offset)"),
};

export interface Page {
  page: number;
  perPage: number;
  skip: number;
  take: number;
}

/** What a list query returns: its page, the total of matches, and the page's rows. */
export interface ListPage<Row> {
  page: Page;
  total: number;
  rows: Row[];
}

export function pageOf(query: { page?: number; limit?: number; per_page?: number }, defaultSize: number): Page {
  const page = query.page ?? 1;
  const perPage = query.limit ?? query.per_page ?? defaultSize;
  return { page, perPage, skip: (page - 1) * perPage, take: perPage };
}

/** One cursor page: its rows and the cursors of the pages after it (null on the last) and before it (null on the first). */
export interface CursorPage<Row> {
  perPage: number;
  rows: Row[];
  nextCursor: string | null;
  prevCursor: string | null;
}

/**
 * A page's rows as PostgreSQL wrote them (lib/db/wire-list.ts): the JSON text of their array, or for a long page of
 * its first rows, with `more` reading the JSON texts of the arrays of the rest, in order, as the body is sent.
 */
export interface PageRows {
  json: string;
  more?: () => AsyncGenerator<string>;
}

/** A list page or a cursor page whose rows PostgreSQL wrote as JSON. */
export type WirePage = (Omit<ListPage<unknown>, "rows"> | Omit<CursorPage<unknown>, "rows">) & PageRows;

// The envelopes' parts, one component each, so that generated clients have one type of each rather than one per list.
const cursorLinks = component(
  z.object({ first: z.null(), last: z.null(), prev: z.url().nullable(), next: z.url().nullable() }),
  "CursorPaginationLinks",
);
const cursorMeta = component(
  z.object({
    path: z.url(),
    per_page: z.number().int().min(1).max(MAX_PAGE_SIZE),
    next_cursor: z.string().nullable().describe("The cursor of the next page; null on the last page"),
    prev_cursor: z
      .string()
      .nullable()
      .describe("The cursor of the page before (links.prev leads to it); null on the first page"),
  }),
  "CursorPaginationMeta",
);
const pageLinks = component(
  z.object({ first: z.url(), last: z.url(), prev: z.url().nullable(), next: z.url().nullable() }),
  "PaginationLinks",
);
const pageMeta = component(
  z.object({
    current_page: z.number().int().min(1),
    last_page: z.number().int().min(1),
    per_page: z.number().int().min(1).max(MAX_PAGE_SIZE),
    total: z.number().int().min(0).describe("Number of matching records"),
  }),
  "PaginationMeta",
);

/** An example page around one example item, for the document. */
function examplePage(item: z.ZodType, cursor: boolean) {
  const examples = item.meta()?.examples as unknown[] | undefined;
  if (!examples) return undefined;
  const path = "https://app.example.com/api/v1/items";
  return cursor
    ? {
        data: examples,
        links: { first: null, last: null, prev: null, next: `${path}?cursor=eyJrIjpbIjIwMjYtMDEtMDEiXX0.c2ln` },
        meta: { path, per_page: 25, next_cursor: "eyJrIjpbIjIwMjYtMDEtMDEiXX0.c2ln", prev_cursor: null },
      }
    : {
        data: examples,
        links: { first: `${path}?page=1`, last: `${path}?page=3`, prev: null, next: `${path}?page=2` },
        meta: { current_page: 1, last_page: 3, per_page: 25, total: 61 },
      };
}

/** The cursor envelope's schema (Laravel's cursor paginator: no total), registered as a component named `id`. */
export function cursorPaginatedSchema(item: z.ZodType, id: string) {
  const envelope = z.object({ data: z.array(item), links: cursorLinks, meta: cursorMeta });
  const example = examplePage(item, true);
  return component(example ? envelope.meta({ examples: [example] }) : envelope, id);
}

/** The envelope's schema around a list item schema, registered as a component named `id`. */
export function paginatedSchema(item: z.ZodType, id: string) {
  const envelope = z.object({ data: z.array(item), links: pageLinks, meta: pageMeta });
  const example = examplePage(item, false);
  return component(example ? envelope.meta({ examples: [example] }) : envelope, id);
}

/** A list's answer: `{name}Page`, or with `cursor=` a `{name}CursorPage`; one component, `{name}List`, for both. */
export function listAnswerSchema(item: z.ZodType, name: string) {
  return component(
    z.union([paginatedSchema(item, `${name}Page`), cursorPaginatedSchema(item, `${name}CursorPage`)]),
    `${name}List`,
  );
}
