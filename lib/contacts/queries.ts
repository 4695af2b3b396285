// Reading contacts through the caller's tenant-scoped database, within the caller's visibility.
import type { Caller } from "@/lib/auth/caller";
import { seesAllClients, visibleContacts, visibleContactsSql } from "@/lib/auth/visibility";
import { type Page, pageOf, type WirePage } from "@/lib/core/pagination";
import { containsKey, sqlConditions, updatedSinceSql } from "@/lib/db/filters";
import { visibleWireRecord, wireRecord, wireRows } from "@/lib/db/json-rows";
import { readWireCursorPage } from "@/lib/db/keyset";
import { findVisible } from "@/lib/db/records";
import { keptRows } from "@/lib/db/row-counts";
import { type ListOrder, searchPage } from "@/lib/db/search-page";
import { type KeyKind, type WireList, wireOffsetPage, wireTotal } from "@/lib/db/wire-list";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ListContactsQuery } from "./schemas";
import { type ContactRow, contactInclude } from "./serialize";
import { contactWire } from "./wire";

const DEFAULT_CONTACT_PAGE_SIZE = 1000;
const CONTACT_ORDERS: Record<ListContactsQuery["sort_by"], ListOrder> = {
  name: [
    ["lastname", "asc"],
    ["firstname", "asc"],
    ["uuid", "asc"],
  ],
  updated_at: [
    ["updated_at", "asc"],
    ["uuid", "asc"],
  ],
};
const CONTACT_KEY_KINDS: Record<string, KeyKind> = {
  lastname: "text",
  firstname: "text",
  updated_at: "timestamptz",
  uuid: "uuid",
};

/** Every word of a search must match one of the names, so "alice archer" finds Alice Archer. */
const searchWords = (search: string) => search.split(/\s+/);

/** One page of contacts as wire JSON; a search's offset pages apart, one statement (lib/db/wire-list.ts). */
export async function listContacts(caller: Caller, query: ListContactsQuery): Promise<WirePage> {
  const page = pageOf(query, DEFAULT_CONTACT_PAGE_SIZE);
  return query.search && query.cursor === undefined
    ? searchedContactPage(caller, query, query.search, page)
    : contactPage(caller, query, page);
}

/** The list's filters and the caller's visibility, as conditions on the contact row `t`. */
function contactConditions(caller: Caller, query: ListContactsQuery) {
  const visible = !seesAllClients(caller) && visibleContactsSql(caller, "t");
  const filters = sqlConditions([
    // citext: an exact match that ignores case.
    !!query.email && Prisma.sql`t.email = ${query.email}::citext`,
    // Each word in the lower-case key of the names that a trigger keeps and one trigram index serves.
    ...(query.search
      ? searchWords(query.search).map((word) => Prisma.sql`t.search_key LIKE ${containsKey(word)}`)
      : []),
    updatedSinceSql(query.updated_since),
  ]);
  return { visible, filters, where: sqlConditions([visible, ...filters]) };
}

/** A page of contacts, or a cursor page, found and written by PostgreSQL in one statement. */
async function contactPage(caller: Caller, query: ListContactsQuery, page: Page): Promise<WirePage> {
  const { visible, filters, where } = contactConditions(caller, query);
  const list: WireList = {
    table: "contacts",
    where,
    order: CONTACT_ORDERS[query.sort_by].map(([column, direction]) => ({
      sql: `t.${column}`,
      direction,
      kind: CONTACT_KEY_KINDS[column],
    })),
    object: contactWire(caller),
  };
  if (query.cursor !== undefined) return readWireCursorPage(caller, "contacts", query, list, page.perPage);
  // Seeing every contact, unfiltered: the total is what the triggers keep, and a deep page is read from the nearer end.
  const kept = !visible && filters.length === 0 && keptRows("contacts");
  const known = kept && page.skip > 0 ? await wireTotal(caller, list, kept) : undefined;
  return { page, ...(await wireOffsetPage(caller, list, page, kept || "count", known)) };
}

/** An offset page of a search: its ids and exact total found by lib/db/search-page.ts, written by PostgreSQL. */
async function searchedContactPage(
  caller: Caller,
  query: ListContactsQuery,
  search: string,
  page: Page,
): Promise<WirePage> {
  const { where } = contactConditions(caller, query);
  const order = CONTACT_ORDERS[query.sort_by];
  const [total, ids] = await searchPage(caller, { table: "contacts", order, words: searchWords(search), where }, page);
  const rows = ids.map((id) => ({ id }));
  return { page, total, json: await wireRows(caller, "contacts", rows, contactWire(caller)) };
}

/** The wire JSON of GET /contacts/{uuid}: found, checked and written by PostgreSQL in one statement (404, 403 as findVisible). */
export function contactJson(caller: Caller, uuid: string): Promise<string> {
  return visibleWireRecord(caller, "contact", "contacts", uuid, visibleContactsSql(caller, "t"), contactWire(caller));
}

/** A contact's wire JSON by id: the answer of a write, written by PostgreSQL like GET's. */
export function contactJsonById(caller: Caller, id: number): Promise<string> {
  return wireRecord(caller, "contacts", id, contactWire(caller), "Contact");
}

/** The contact with this uuid, if the caller may see it: 404 when it exists nowhere, 403 when it is not theirs. */
export function findVisibleContact(caller: Caller, uuid: string) {
  return findVisible("contact", uuid, visibleContacts(caller), (extra) =>
    caller.db.contact.findFirst({ where: { AND: [{ uuid }, extra] }, select: { id: true } }),
  );
}

/** A contact by id, with the links its wire shape shows. */
export function loadContact(caller: Caller, id: number): Promise<ContactRow> {
  return caller.db.contact.findFirstOrThrow({ where: { id }, include: contactInclude(caller) });
}
