// Reading clients, always through the caller's tenant-scoped database and within the caller's visibility.
import type { Caller } from "@/lib/auth/caller";
import { seesAllClients, visibleClients, visibleClientsSql } from "@/lib/auth/visibility";
import { type Page, pageOf, type WirePage } from "@/lib/core/pagination";
import { containsKey, literal, sqlConditions, updatedSinceSql } from "@/lib/db/filters";
import { visibleWireRecord, wireRecord, wireRows } from "@/lib/db/json-rows";
import { readWireCursorPage } from "@/lib/db/keyset";
import { findVisible } from "@/lib/db/records";
import { keptRows } from "@/lib/db/row-counts";
import { type ListOrder, searchPage } from "@/lib/db/search-page";
import { type WireList, wireOffsetPage, wireTotal } from "@/lib/db/wire-list";
import { Prisma } from "@/lib/generated/prisma/client";
import { tenantCustomFields } from "./custom-fields";
import { loadClientRelations, NO_RELATIONS } from "./relations";
import type { ListClientsQuery, SearchClientsQuery } from "./schemas";
import { type ClientRecord, clientSelect } from "./serialize";
import { clientWire } from "./wire";

export const DEFAULT_CLIENT_PAGE_SIZE = 1000;
const SEARCH_RESULTS = 10;

const CLIENT_SORT_KINDS = { name: "text", created_at: "timestamptz", updated_at: "timestamptz" } as const;

/** One page of clients as wire JSON; a search's offset pages apart, one statement (lib/db/wire-list.ts). */
export async function listClients(caller: Caller, query: ListClientsQuery): Promise<WirePage> {
  const page = pageOf(query, DEFAULT_CLIENT_PAGE_SIZE);
  return query.search && query.cursor === undefined
    ? searchedClientPage(caller, query, query.search, page)
    : clientPage(caller, query, page);
}

/** The list's order: the sort, then uuid in the same direction. */
function clientOrder(query: ListClientsQuery): ListOrder {
  const direction = query.sort_direction ?? "asc";
  return [
    [query.sort_by ?? "name", direction],
    ["uuid", direction],
  ];
}

/** The list's filters and the caller's visibility, as conditions on the client row `t`. */
function clientConditions(caller: Caller, query: ListClientsQuery) {
  const visible = !seesAllClients(caller) && visibleClientsSql(caller, "t");
  const others = sqlConditions([
    query.client_status && Prisma.sql`t.client_status = ${query.client_status}::"ClientStatus"`,
    query.country_id !== undefined && Prisma.sql`t.country_id = ${query.country_id}`,
    !!query.tags?.length &&
      Prisma.sql`EXISTS (SELECT 1 FROM client_tags ct WHERE (ct.tenant_id, ct.client_id) = (t.tenant_id, t.id)
        AND ct.tag_id = ANY(${query.tags}::int[]))`,
    // citext makes this equality case-insensitive, and it can use the (tenant_id, email) index.
    !!query.contact_email &&
      Prisma.sql`EXISTS (SELECT 1 FROM client_contacts cc JOIN contacts k ON (k.tenant_id, k.id) = (cc.tenant_id, cc.contact_id)
        WHERE (cc.tenant_id, cc.client_id) = (t.tenant_id, t.id) AND k.email = ${query.contact_email}::citext)`,
    // One trigger-kept lower-case column (name, references, city, contacts) that one trigram index serves.
    !!query.search && Prisma.sql`t.search_text LIKE ${containsKey(query.search)}`,
    updatedSinceSql(query.updated_since),
  ]);
  const archived = !query.include_archived && Prisma.sql`NOT t.is_archived`;
  return { visible, others, where: sqlConditions([visible, archived, ...others]) };
}

/** A page of clients, or a cursor page, found and written by PostgreSQL in one statement. */
async function clientPage(caller: Caller, query: ListClientsQuery, page: Page): Promise<WirePage> {
  const { visible, others, where } = clientConditions(caller, query);
  const list: WireList = {
    table: "clients",
    where,
    order: clientOrder(query).map(([column, direction]) => ({
      sql: `t.${column}`,
      direction,
      kind: column === "uuid" ? "uuid" : CLIENT_SORT_KINDS[column as keyof typeof CLIENT_SORT_KINDS],
    })),
    object: clientWire(caller),
  };
  if (query.cursor !== undefined) return readWireCursorPage(caller, "clients", query, list, page.perPage);
  // Seeing every client and filtered by no more than the archived flag, the total is what the triggers keep, and a
  // deep page is read from the nearer end.
  const kept = !visible && others.length === 0 && keptRows("clients", query.include_archived ? undefined : false);
  const known = kept && page.skip > 0 ? await wireTotal(caller, list, kept) : undefined;
  return { page, ...(await wireOffsetPage(caller, list, page, kept || "count", known)) };
}

/** An offset page of a search: its ids and exact total found by lib/db/search-page.ts, written by PostgreSQL. */
async function searchedClientPage(
  caller: Caller,
  query: ListClientsQuery,
  search: string,
  page: Page,
): Promise<WirePage> {
  const { where } = clientConditions(caller, query);
  const [total, ids] = await searchPage(
    caller,
    { table: "clients", order: clientOrder(query), words: [search], where },
    page,
  );
  const rows = ids.map((id) => ({ id }));
  return { page, total, json: await wireRows(caller, "clients", rows, clientWire(caller)) };
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

/** The wire JSON of GET /clients/{uuid}: found, checked and written by PostgreSQL in one statement (404, 403 as findVisible). */
export function clientJson(caller: Caller, uuid: string): Promise<string> {
  return visibleWireRecord(caller, "client", "clients", uuid, visibleClientsSql(caller, "t"), clientWire(caller));
}

/** A client's wire JSON by id: the answer of a write, written by PostgreSQL like GET's. */
export function clientJsonById(caller: Caller, id: number): Promise<string> {
  return wireRecord(caller, "clients", id, clientWire(caller), "Client");
}

/** A client by id (a webhook event's data), with everything its wire shape shows. */
export async function loadClient(caller: Caller, id: number): Promise<ClientRecord> {
  const [row, relations, customFields] = await Promise.all([
    caller.db.client.findFirstOrThrow({ where: { id }, select: clientSelect }),
    loadClientRelations(caller, [id]),
    tenantCustomFields(caller.db),
  ]);
  return { ...row, relations: relations.get(id) ?? NO_RELATIONS, customFields };
}
