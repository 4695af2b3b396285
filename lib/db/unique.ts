// Unique indexes guard uniqueness (also against concurrent requests); this turns their violations into 422s.
import { invalidField } from "@/lib/core/errors";

/**
 * Runs a write and turns a unique-index violation into a 422 on the field the index guards. The checks before a
 * write give the same answer in the common case; this covers two requests racing for the same value.
 */
export async function withUniqueFields<T>(
  fields: Record<string, readonly [field: string, message: string]>,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const constraint = violatedUniqueConstraint(error);
    const field = constraint ? fields[constraint] : undefined;
    if (field) throw invalidField(field[0], field[1]);
    throw error;
  }
}

/**
 * The name of the unique constraint an error violated, or null. Both adapters (pg and PGlite) report it through
 * Prisma's P2002, with the server's message in meta.driverAdapterError.
 */
export function violatedUniqueConstraint(error: unknown): string | null {
  if (!error || typeof error !== "object") return null;
  const e = error as { code?: string; meta?: { driverAdapterError?: { cause?: { originalMessage?: string } } } };
  const message = e.code === "P2002" ? e.meta?.driverAdapterError?.cause?.originalMessage : undefined;
  return message ? (/unique constraint "([^"]+)"/.exec(message)?.[1] ?? null) : null;
}
