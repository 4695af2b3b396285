// Reading contacts through the caller's tenant-scoped database, within the caller's visibility.
import type { Caller } from "@/lib/auth/caller";
import { visibleContacts } from "@/lib/auth/visibility";
import { type Page, pageOf, updatedSince, type WirePage } from "@/lib/core/pagination";
import { containsText } from "@/lib/db/filters";
import { wireRecord, wireRows } from "@/lib/db/json-rows";
import { readCursorPage } from "@/lib/db/keyset";
import { pageAndTotal, readOffsetPage } from "@/lib/db/offset-page";
import { findVisible } from "@/lib/db/records";
import { countedRows } from "@/lib/db/row-counts";
import { type ListOrder, prismaOrderBy, searchPage } from "@/lib/db/search-page";
import type { Prisma } from "@/lib/generated/prisma/client";
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
// Contacts are listed by last name, and a search by a last name finds matches that all sit together in that order,
// where a walk of the name index is slowest: the matches are sorted alone up to this many (lib/db/search-page.ts).
const MAX_SORTED_CONTACTS = 20_000;

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
    const words = query.search.split(/\s+/).map(containsText);
    // Every word must match one of the names, so "alice archer" finds Alice Archer.
    filters.push(...words.map((term) => ({ OR: [{ firstname: term }, { lastname: term }, { preferredName: term }] })));
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
  const matchIds = async () =>
    (await caller.db.contact.findMany({ where, select: { id: true } })).map((match) => match.id);
  const [total, found] = query.search
    ? await searchPage(
        caller,
        { table: "contacts", order, maxSorted: MAX_SORTED_CONTACTS, rows, count, matchIds },
        page,
      )
    : await pageAndTotal(count(), (total) => readOffsetPage(page, { ids, rows }, counted ? total : undefined));
  return { page, total, json: await contactsJson(caller, found) };
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
