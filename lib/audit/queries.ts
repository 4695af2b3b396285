// Reading the audit log, newest first, within one firm (every read goes through the tenant-scoped database).
import type { CursorPage } from "@/lib/core/pagination";
import { pageOf } from "@/lib/core/pagination";
import { readCursorPage } from "@/lib/db/keyset";
import { type ListOrder, prismaOrderBy } from "@/lib/db/search-page";
import type { TenantScope } from "@/lib/db/tenant";
import type { AuditEvent, Prisma } from "@/lib/generated/prisma/client";
import type { AuditFilters, ListAuditEventsQuery } from "./schemas";

const DEFAULT_PAGE_SIZE = 100;
/** Newest first; entries of one transaction share created_at, and the later insert comes first. */
const ORDER: ListOrder = [
  ["created_at", "desc"],
  ["id", "desc"],
];

function auditWhere(filters: AuditFilters): Prisma.AuditEventWhereInput {
  return {
    action: filters.action,
    actorId: filters.actor_id,
    targetType: filters.target_type,
    targetUuid: filters.target_uuid,
    createdAt: filters.since || filters.until ? { gte: filters.since, lt: filters.until } : undefined,
  };
}

/** Who reads: the firm's database, and the person (cursors are theirs alone). */
export type AuditReader = TenantScope & { user: { id: number } };

/** One cursor page of the firm's entries that match the filters (the first page without a cursor). */
export function listAuditEvents(reader: AuditReader, query: ListAuditEventsQuery): Promise<CursorPage<AuditEvent>> {
  const where = auditWhere(query);
  const { perPage } = pageOf(query, DEFAULT_PAGE_SIZE);
  return readCursorPage(reader, "audit-events", query, ORDER, perPage, (after, take, reversed) =>
    reader.db.auditEvent.findMany({ where: { AND: [where, after] }, orderBy: prismaOrderBy(ORDER, reversed), take }),
  );
}

/** Every entry that matches the filters, newest first, a cursor page at a time (the CSV download). */
export async function* allAuditEvents(reader: AuditReader, filters: AuditFilters) {
  let cursor = "";
  do {
    const page = await listAuditEvents(reader, { ...filters, cursor, limit: 1000 });
    yield* page.rows;
    cursor = page.nextCursor ?? "";
  } while (cursor);
}
