/** A LIKE pattern that matches `term` literally: Prisma's `contains` passes %, _ and \ through as wildcards. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}
