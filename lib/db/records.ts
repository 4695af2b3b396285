// Finding one record by uuid. The answer for a record the caller cannot have depends on why: a uuid that exists
// nowhere is a 404; one that belongs to another tenant, or lies outside the caller's visibility, is a 403.
import { forbidden, notFound } from "@/lib/core/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { readRows } from "./client";

export type UuidModel = "client" | "contact" | "job";

export const RECORD_LABELS: Record<UuidModel, string> = { client: "Client", contact: "Contact", job: "Job" };

/** The error for a uuid the caller's tenant does not have. The only lookup across tenants; it reveals only existence. */
export async function missingRecord(model: UuidModel, uuid: string) {
  // Read where the request's other reads are (a replica, if it reads from one: lib/db/replicas.ts), so that a record
  // the replica has not replayed yet is a 404 there, not a 403 from the primary's copy.
  const [{ elsewhere }] = await readRows<{ elsewhere: boolean }>(
    Prisma.sql`SELECT EXISTS (SELECT 1 FROM ${Prisma.raw(TABLES[model])} WHERE uuid = ${uuid}::uuid) AS elsewhere`,
  );
  return elsewhere ? forbidden() : notFound(RECORD_LABELS[model]);
}

const TABLES: Record<UuidModel, string> = { client: "clients", contact: "contacts", job: "jobs" };

/**
 * Finds a record by uuid within the caller's visibility. `lookup` runs the tenant-scoped query with an extra filter:
 * first none (does the tenant have it?), then the visibility filter (may this caller see it?).
 */
export async function findVisible<W extends object>(
  model: UuidModel,
  uuid: string,
  visible: W | undefined,
  lookup: (extra: W | Record<string, never>) => Promise<{ id: number } | null>,
): Promise<{ id: number }> {
  const record = await lookup({});
  if (!record) throw await missingRecord(model, uuid);
  if (visible && !(await lookup(visible))) throw forbidden();
  return record;
}
