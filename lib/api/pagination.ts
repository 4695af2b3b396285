// The pagination envelope of every paginated list: data, links (absolute, keeping the caller's other query
// parameters) and meta. Page size is `limit` or `per_page` (either name on every list), 1..1000.
import { z } from "zod";
import { component } from "@/lib/openapi/registry";
import { queryInt } from "./validation";

export const MAX_PAGE_SIZE = 1000;

export const paginationQuery = {
  page: queryInt().pipe(z.number().min(1).max(1_000_000)).optional(),
  limit: queryInt().pipe(z.number().min(1).max(MAX_PAGE_SIZE)).optional(),
  per_page: queryInt().pipe(z.number().min(1).max(MAX_PAGE_SIZE)).optional(),
};

export interface Page {
  page: number;
  perPage: number;
  skip: number;
  take: number;
}

export function pageOf(query: { page?: number; limit?: number; per_page?: number }, defaultSize: number): Page {
  const page = query.page ?? 1;
  const perPage = query.limit ?? query.per_page ?? defaultSize;
  return { page, perPage, skip: (page - 1) * perPage, take: perPage };
}

export function paginated<T>(url: URL, page: Page, total: number, data: T[]) {
  const lastPage = Math.max(1, Math.ceil(total / page.perPage));
  const link = (n: number) => {
    const target = new URL(url);
    target.searchParams.set("page", String(n));
    return target.toString();
  };
  return {
    data,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page.page > 1 ? link(page.page - 1) : null,
      next: page.page < lastPage ? link(page.page + 1) : null,
    },
    meta: { current_page: page.page, last_page: lastPage, per_page: page.perPage, total },
  };
}

/** The envelope's schema around a list item schema, registered as a component named `id`. */
export function paginatedSchema(item: z.ZodType, id: string) {
  const link = z.url();
  const envelope = z.object({
    data: z.array(item),
    links: z.object({ first: link, last: link, prev: link.nullable(), next: link.nullable() }),
    meta: z.object({
      current_page: z.number().int().min(1),
      last_page: z.number().int().min(1),
      per_page: z.number().int().min(1).max(MAX_PAGE_SIZE),
      total: z.number().int().min(0).describe("Number of matching records"),
    }),
  });
  return component(envelope, id);
}
