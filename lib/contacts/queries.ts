// Reading contacts through the caller's tenant-scoped database, within the caller's visibility.
import type { Caller } from "@/lib/auth/caller";
import { seesAllClients, visibleContacts, visibleContactsSql } from "@/lib/auth/visibility";
import { type Page, pageOf, updatedSince, type WirePage } from "@/lib/core/pagination";
import { containsSql, containsText, sqlConditions, updatedSinceSql } from "@/lib/db/filters";
import { visibleWireRecord, wireRows } from "@/lib/db/json-rows";
import { readWireCursorPage } from "@/lib/db/keyset";
import { findVisible } from "@/lib/db/records";
import { keptRows } from "@/lib/db/row-counts";
import { type ListOrder, prismaOrderBy, searchPage } from "@/lib/db/search-page";
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
// Contacts are listed by last name, and a search by a last name finds matches that all sit together in that order,
// where a walk of the name index is slowest: the matches are sorted alone up to this many (lib/db/search-page.ts).
const MAX_SORTED_CONTACTS = 20_000;

/** What a page of a search is found by: the id, and the order's columns. */
const contactKeys = { id: true, uuid: true, lastname: true, firstname: true, updatedAt: true } as const;

/** Every word of a search must match one of the names, so "alice archer" finds Alice Archer. */
const searchWords = (search: string) => search.split(/\s+/);

/** One word of a search in one of the names, as SQL. */
const nameContainsSql = (word: string) =>
  Prisma.sql`(${Prisma.join(
    ["t.firstname", "t.lastname", "t.preferred_name"].map((column) => containsSql(column, word)),
    " OR ",
  )})`;

/** One page of contacts as wire JSON; a search's offset pages apart, one statement (lib/db/wire-list.ts). */
export async function listContacts(caller: Caller, query: ListContactsQuery): Promise<WirePage> {
  const page = pageOf(query, DEFAULT_CONTACT_PAGE_SIZE);
  return query.search && query.cursor === undefined
    ? searchedContactPage(caller, query, query.search, page)
    : contactPage(caller, query, page);
}

/** A page of contacts, or a cursor page, found and written by PostgreSQL in one statement. */
async function contactPage(caller: Caller, query: ListContactsQuery, page: Page): Promise<WirePage> {
  const visible = !seesAllClients(caller) && visibleContactsSql(caller, "t");
  const filters = sqlConditions([
    // citext: an exact match that ignores case.
    !!query.email && Prisma.sql`t.email = ${query.email}::citext`,
    ...(query.search ? searchWords(query.search).map(nameContainsSql) : []),
    updatedSinceSql(query.updated_since),
  ]);
  const list: WireList = {
    table: "contacts",
    where: sqlConditions([visible, ...filters]),
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

/** An offset page of a search: found by Prisma (lib/db/search-page.ts), written by PostgreSQL. */
async function searchedContactPage(
  caller: Caller,
  query: ListContactsQuery,
  search: string,
  page: Page,
): Promise<WirePage> {
  const filters: Prisma.ContactWhereInput[] = [visibleContacts(caller) ?? {}];
  // citext: an exact match that ignores case.
  if (query.email) filters.push({ email: query.email });
  const words = searchWords(search).map(containsText);
  filters.push(...words.map((term) => ({ OR: [{ firstname: term }, { lastname: term }, { preferredName: term }] })));
  if (query.updated_since) filters.push({ ...updatedSince(query.updated_since) });
  const where = { AND: filters };
  const order = CONTACT_ORDERS[query.sort_by];
  const rows = ({ skip, take }: Pick<Page, "skip" | "take">, ids?: number[]) =>
    caller.db.contact.findMany({
      where: ids ? { id: { in: ids } } : where,
      orderBy: prismaOrderBy(order),
      skip,
      take,
      select: contactKeys,
    });
  const count = () => caller.db.contact.count({ where });
  const matchIds = async () =>
    (await caller.db.contact.findMany({ where, select: { id: true } })).map((match) => match.id);
  const [total, found] = await searchPage(
    caller,
    { table: "contacts", order, maxSorted: MAX_SORTED_CONTACTS, rows, count, matchIds },
    page,
  );
  return { page, total, json: await wireRows(caller, "contacts", found, contactWire(caller)) };
}

/** The wire JSON of GET /contacts/{uuid}: found, checked and written by PostgreSQL in one statement (404, 403 as findVisible). */
export function contactJson(caller: Caller, uuid: string): Promise<string> {
  return visibleWireRecord(caller, "contact", "contacts", uuid, visibleContactsSql(caller, "t"), contactWire(caller));
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
