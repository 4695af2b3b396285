// Building blocks of list filters.
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * A case-insensitive substring filter for a text column, the text taken literally. Prisma passes `contains` to
 * ILIKE without escaping its wildcards, so unescaped a search for "%" or "_" would match everything.
 */
export function containsText(text: string): Prisma.StringFilter {
  return { contains: literal(text), mode: "insensitive" };
}

/** A LIKE pattern's text taken literally: its wildcards and escape character escaped. */
export const literal = (text: string) => text.replace(/[\\%_]/g, "\\$&");

/** A filter, or `false`/`undefined` for one the caller did not ask for (lists build them as `condition && {…}`). */
export type Filter<W> = W | false | undefined;

/** The conjunction of the filters that apply. */
export function allOf<W>(filters: Filter<W>[]): { AND: W[] } {
  return { AND: filters.filter((f): f is W => !!f) };
}
