// Reading contacts through the caller's tenant-scoped database, within the caller's visibility.
import type { Caller } from "@/lib/auth/caller";
import { visibleContacts, visibleContactsSql } from "@/lib/auth/visibility";
import { type Page, pageOf, updatedSince, type WirePage } from "@/lib/core/pagination";
import { containsText } from "@/lib/db/filters";
import { wireRecord, wireRows } from "@/lib/db/json-rows";
import { readCursorPage } from "@/lib/db/keyset";
import { pageAndTotal, readOffsetPage } from "@/lib/db/offset-page";
import { findVisible } from "@/lib/db/records";
import { countedRows } from "@/lib/db/row-counts";
import { containsKey, type ListOrder, prismaOrderBy, searchPage } from "@/lib/db/search-page";
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

/** What a page of contacts is found by: the id, and the order's columns for a cursor page's positions. */
const contactKeys = { id: true, uuid: true, lastname: true, firstname: true, updatedAt: true } as const;

const contactsJson = (caller: Caller, rows: { id: number }[]) =>
  wireRows(caller, "contacts", rows, contactWire(caller));

/** One page of contacts as wire JSON: found by Prisma (filters, visibility, order), written by PostgreSQL. */
export async function listContacts(caller: Caller, query: ListContactsQuery): Promise<WirePage> {
  const visible = visibleContacts(caller);
  const filters: Prisma.ContactWhereInput[] = [visible ?? {}];
  // citext: an exact match that ignores case.
  if (query.email) filters.push({ email: query.email });
  if (query.search) {
    // Every word must match one of the names (their trigger-kept key), so "alice archer" finds Alice Archer.
    filters.push(...query.search.split(/\s+/).map((word) => ({ searchKey: containsText(word) })));
  }
  if (query.updated_since) filters.push({ ...updatedSince(query.updated_since) });
  const where = { AND: filters };
  // Seeing every contact, unfiltered: the total is what the triggers keep.
  const counted = !visible && filters.length === 1;
  const order = CONTACT_ORDERS[query.sort_by];
  const page = pageOf(query, DEFAULT_CONTACT_PAGE_SIZE);
  if (query.cursor !== undefined) {
    const { rows, ...cursorPage } = await readCursorPage(
      caller,
      "contacts",
      query,
      order,
      page.perPage,
      (past, take, reversed) =>
        caller.db.contact.findMany({
          where: { AND: [where, past] },
          orderBy: prismaOrderBy(order, reversed),
          take,
          select: contactKeys,
        }),
    );
    return { ...cursorPage, json: await contactsJson(caller, rows) };
  }
  if (query.search) return searchedContactsPage(caller, { ...query, search: query.search }, order, page);
  const rows = ({ skip, take }: Pick<Page, "skip" | "take">, ids?: number[]) =>
    caller.db.contact.findMany({
      where: ids ? { id: { in: ids } } : where,
      orderBy: prismaOrderBy(order),
      skip,
      take,
      select: contactKeys,
    });
  const ids = ({ skip, take }: Pick<Page, "skip" | "take">, reversed: boolean) =>
    caller.db.contact.findMany({ where, orderBy: prismaOrderBy(order, reversed), skip, take, select: { id: true } });
  const count = () => (counted ? countedRows(caller.db, "contacts") : caller.db.contact.count({ where }));
  const [total, found] = await pageAndTotal(count(), (total) =>
    readOffsetPage(page, { ids, rows }, counted ? total : undefined),
  );
  return { page, total, json: await contactsJson(caller, found) };
}

/**
 * A page of a search (lib/db/search-page.ts): every word matches the lower-case key of the names the trigger keeps
 * (search_key), with the list's other filters and the caller's visibility as conditions on the contact row `t`.
 */
async function searchedContactsPage(
  caller: Caller,
  query: ListContactsQuery & { search: string },
  order: ListOrder,
  page: Page,
): Promise<WirePage> {
  const words = query.search.split(/\s+/);
  const where = [
    ...words.map((word) => Prisma.sql`t.search_key LIKE ${containsKey(word)}`),
    visibleContactsSql(caller, "t"),
    ...(query.email ? [Prisma.sql`t.email = ${query.email}::citext`] : []),
    ...(query.updated_since ? [Prisma.sql`t.updated_at >= ${query.updated_since}`] : []),
  ];
  const [total, ids] = await searchPage(caller, { table: "contacts", order, words, where }, page);
  return {
    page,
    total,
    json: await contactsJson(
      caller,
      ids.map((id) => ({ id })),
    ),
  };
}

/** A visible contact's wire JSON (GET /contacts/{uuid}), written by PostgreSQL. */
export function contactJson(caller: Caller, id: number): Promise<string> {
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
