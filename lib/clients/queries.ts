// Reading clients, always through the caller's tenant-scoped database and within the caller's visibility.
import type { Caller } from "@/lib/auth/caller";
import { visibleClients, visibleClientsSql } from "@/lib/auth/visibility";
import { type Page, pageOf, updatedSince, type WirePage } from "@/lib/core/pagination";
import { allOf, containsText, type Filter, literal } from "@/lib/db/filters";
import { wireRecord, wireRows } from "@/lib/db/json-rows";
import { readCursorPage } from "@/lib/db/keyset";
import { pageAndTotal, readOffsetPage } from "@/lib/db/offset-page";
import { findVisible } from "@/lib/db/records";
import { countedRows } from "@/lib/db/row-counts";
import { containsKey, type ListOrder, prismaOrderBy, searchPage } from "@/lib/db/search-page";
import { Prisma } from "@/lib/generated/prisma/client";
import { tenantCustomFields } from "./custom-fields";
import { loadClientRelations, NO_RELATIONS } from "./relations";
import type { ListClientsQuery, SearchClientsQuery } from "./schemas";
import { type ClientRecord, clientSelect } from "./serialize";
import { clientWire } from "./wire";

export const DEFAULT_CLIENT_PAGE_SIZE = 1000;
const SEARCH_RESULTS = 10;

/** What a page of clients is found by: the id, and the order's columns for a cursor page's positions. */
const clientKeys = { id: true, uuid: true, name: true, createdAt: true, updatedAt: true } as const;

/** One page of clients as wire JSON: found by Prisma (filters, visibility, order), written by PostgreSQL. */
export async function listClients(caller: Caller, query: ListClientsQuery): Promise<WirePage> {
  const visible = visibleClients(caller);
  const archived = !query.include_archived && { isArchived: false };
  const others: Filter<Prisma.ClientWhereInput>[] = [
    query.client_status && { clientStatus: query.client_status },
    query.country_id !== undefined && { countryId: query.country_id },
    !!query.tags?.length && { tags: { some: { tagId: { in: query.tags } } } },
    // citext makes this equality case-insensitive, and it can use the (tenant_id, email) index.
    !!query.contact_email && { contacts: { some: { contact: { email: query.contact_email } } } },
    // One trigger-kept column (name, references, city, contacts) that one trigram index serves.
    !!query.search && { searchText: containsText(query.search) },
    updatedSince(query.updated_since),
  ];
  const where = allOf<Prisma.ClientWhereInput>([visible, archived, ...others]);
  const direction = query.sort_direction ?? "asc";
  const order: ListOrder = [
    [query.sort_by ?? "name", direction],
    ["uuid", direction],
  ];
  const page = pageOf(query, DEFAULT_CLIENT_PAGE_SIZE);
  if (query.cursor !== undefined) return clientCursorPage(caller, query, where, order, page.perPage);
  if (query.search) return searchedClientsPage(caller, { ...query, search: query.search }, order, page);
  const rows = ({ skip, take }: Pick<Page, "skip" | "take">, ids?: number[]) =>
    caller.db.client.findMany({
      where: ids ? { id: { in: ids } } : where,
      orderBy: prismaOrderBy(order),
      skip,
      take,
      select: clientKeys,
    });
  const ids = ({ skip, take }: Pick<Page, "skip" | "take">, reversed: boolean) =>
    caller.db.client.findMany({ where, orderBy: prismaOrderBy(order, reversed), skip, take, select: { id: true } });
  // Seeing every client and filtered by no more than the archived flag, the total is what the triggers keep.
  const counted = !visible && !others.some(Boolean);
  const count = () =>
    counted
      ? countedRows(caller.db, "clients", query.include_archived ? undefined : false)
      : caller.db.client.count({ where });
  const [total, found] = await pageAndTotal(count(), (total) =>
    readOffsetPage(page, { ids, rows }, counted ? total : undefined),
  );
  return { page, total, json: await clientsJson(caller, found) };
}

/**
 * A page of a search (lib/db/search-page.ts): the same filters as listClients' and the caller's visibility, as
 * conditions on the client row `t`; the term matches the lower-case text the triggers keep (search_text).
 */
async function searchedClientsPage(
  caller: Caller,
  query: ListClientsQuery & { search: string },
  order: ListOrder,
  page: Page,
): Promise<WirePage> {
  const where: Filter<Prisma.Sql>[] = [
    Prisma.sql`t.search_text LIKE ${containsKey(query.search)}`,
    visibleClientsSql(caller, "t"),
    !query.include_archived && Prisma.sql`NOT t.is_archived`,
    query.client_status && Prisma.sql`t.client_status = ${query.client_status}::"ClientStatus"`,
    query.country_id !== undefined && Prisma.sql`t.country_id = ${query.country_id}`,
    !!query.tags?.length &&
      Prisma.sql`EXISTS (SELECT 1 FROM client_tags ct
        WHERE ct.tenant_id = t.tenant_id AND ct.client_id = t.id AND ct.tag_id = ANY(${query.tags}::int[]))`,
    !!query.contact_email &&
      Prisma.sql`EXISTS (SELECT 1 FROM client_contacts cc JOIN contacts k ON (k.tenant_id, k.id) = (cc.tenant_id, cc.contact_id)
        WHERE cc.tenant_id = t.tenant_id AND cc.client_id = t.id AND k.email = ${query.contact_email}::citext)`,
    query.updated_since && Prisma.sql`t.updated_at >= ${query.updated_since}`,
  ];
  const [total, ids] = await searchPage(
    caller,
    { table: "clients", order, words: [query.search], where: allOf(where).AND },
    page,
  );
  return {
    page,
    total,
    json: await clientsJson(
      caller,
      ids.map((id) => ({ id })),
    ),
  };
}

const clientsJson = (caller: Caller, rows: { id: number }[]) => wireRows(caller, "clients", rows, clientWire(caller));

/** A cursor page (lib/db/keyset.ts). */
async function clientCursorPage(
  caller: Caller,
  query: ListClientsQuery,
  where: Prisma.ClientWhereInput,
  order: ListOrder,
  perPage: number,
): Promise<WirePage> {
  const { rows, ...page } = await readCursorPage(caller, "clients", query, order, perPage, (past, take, reversed) =>
    caller.db.client.findMany({
      where: { AND: [where, past] },
      orderBy: prismaOrderBy(order, reversed),
      take,
      select: clientKeys,
    }),
  );
  return { ...page, json: await clientsJson(caller, rows) };
}

/**
 * The lower case PostgreSQL's lower() gives (clients.name_key): character by character, without the mappings to
 * several characters or by context that JavaScript's toLowerCase applies to a whole string ("İ" gives "i" here).
 */
const lowerLikePostgres = (text: string) => Array.from(text, (char) => Array.from(char.toLowerCase())[0]).join("");

/**
 * Quick search by name for pickers: prefix matches first, then other matches; archived clients left out. Both
 * filter and order by the lower-case name (prisma/migrations/…_client_name_key) in byte order (…_search_keys): the
 * prefix matches are one range of its btree, read in order; the other matches come from its trigram index, sorted.
 */
export async function searchClients(caller: Caller, { q }: SearchClientsQuery) {
  const base: Prisma.ClientWhereInput[] = [visibleClients(caller) ?? {}, { isArchived: false }];
  const key = literal(lowerLikePostgres(q));
  const prefix = { nameKey: { startsWith: key } };
  const select = { id: true, uuid: true, name: true } as const;
  const orderBy = [{ nameKey: "asc" as const }, { uuid: "asc" as const }];
  const first = await caller.db.client.findMany({
    where: { AND: [...base, prefix] },
    select,
    orderBy,
    take: SEARCH_RESULTS,
  });
  const rest =
    first.length < SEARCH_RESULTS
      ? await caller.db.client.findMany({
          where: { AND: [...base, { nameKey: { contains: key } }, { NOT: prefix }] },
          select,
          orderBy,
          take: SEARCH_RESULTS - first.length,
        })
      : [];
  return { clients: [...first, ...rest] };
}

/** The client with this uuid, if the caller may see it: 404 when it exists nowhere, 403 when it is not theirs. */
export function findVisibleClient(caller: Caller, uuid: string) {
  return findVisible("client", uuid, visibleClients(caller), (extra) =>
    caller.db.client.findFirst({ where: { AND: [{ uuid }, extra] }, select: { id: true } }),
  );
}

/** A visible client's wire JSON (GET /clients/{uuid}), written by PostgreSQL. */
export function clientJson(caller: Caller, id: number): Promise<string> {
  return wireRecord(caller, "clients", id, clientWire(caller), "Client");
}

/** A client by id (after a write), with everything its wire shape shows. */
export async function loadClient(caller: Caller, id: number): Promise<ClientRecord> {
  const [row, relations, customFields] = await Promise.all([
    caller.db.client.findFirstOrThrow({ where: { id }, select: clientSelect }),
    loadClientRelations(caller, [id]),
    tenantCustomFields(caller.db),
  ]);
  return { ...row, relations: relations.get(id) ?? NO_RELATIONS, customFields };
}
