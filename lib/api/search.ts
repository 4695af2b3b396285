// Text search filters. Prisma passes `contains` to ILIKE without escaping its wildcards, so a search for "%" or "_"
// would match everything; escaping them makes every search a literal substring match.
import type { Prisma } from "@/lib/generated/prisma/client";

/** A case-insensitive substring filter for a text column, the text taken literally. */
export function containsText(text: string): Prisma.StringFilter {
  return { contains: text.replace(/[\\%_]/g, "\\$&"), mode: "insensitive" };
}
