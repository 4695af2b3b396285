// Looking up one record by the uuid in its path. The answer for a record the caller cannot have depends on why:
// a uuid that exists nowhere (or is not a uuid) is a 404; one that belongs to another tenant is a 403.
import { prisma } from "@/lib/db/client";
import { forbidden, notFound } from "./errors";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type UuidModel = "client" | "contact" | "job";

const LABELS: Record<UuidModel, string> = { client: "Client", contact: "Contact", job: "Job" };

/** The uuid of a path, lower-cased; anything that is not a uuid cannot name a record, so it is a 404. */
export function pathUuid(value: string | string[] | undefined, model: UuidModel): string {
  if (typeof value !== "string" || !UUID.test(value)) throw notFound(LABELS[model]);
  return value.toLowerCase();
}

/** The error for a uuid the caller's tenant does not have. The only lookup across tenants, and it reveals only existence. */
export async function missingRecord(model: UuidModel, uuid: string) {
  const client = await prisma();
  const where = { where: { uuid } };
  const elsewhere =
    model === "client"
      ? await client.client.count(where)
      : model === "contact"
        ? await client.contact.count(where)
        : await client.job.count(where);
  return elsewhere > 0 ? forbidden() : notFound(LABELS[model]);
}

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
