// Reading contacts through the caller's tenant-scoped database, within the caller's visibility.
import type { z } from "zod";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/api/caller";
import { pageOf, paginated } from "@/lib/api/pagination";
import { findVisible } from "@/lib/api/records";
import { visibleContacts } from "@/lib/auth/visibility";
import { containsText } from "@/lib/api/filters";
import type { listContactsQuery } from "./schemas";
import { contactInclude, serializeContact } from "./serialize";

export const DEFAULT_CONTACT_PAGE_SIZE = 1000;

export async function listContacts(caller: Caller, query: z.output<typeof listContactsQuery>, url: URL) {
  const filters: Prisma.ContactWhereInput[] = [visibleContacts(caller) ?? {}];
  // citext: an exact match that ignores case.
  if (query.email) filters.push({ email: query.email });
  if (query.search) {
    const words = query.search.split(/\s+/).map(containsText);
    // Every word must match one of the names, so "alice archer" finds Alice Archer.
    filters.push(...words.map((term) => ({ OR: [{ firstname: term }, { lastname: term }, { preferredName: term }] })));
  }
  const where = { AND: filters };
  const page = pageOf(query, DEFAULT_CONTACT_PAGE_SIZE);
  const [total, rows] = await Promise.all([
    caller.db.contact.count({ where }),
    caller.db.contact.findMany({
      where,
      orderBy: [{ lastname: "asc" }, { firstname: "asc" }, { uuid: "asc" }],
      skip: page.skip,
      take: page.take,
      include: contactInclude(caller),
    }),
  ]);
  return paginated(url, page, total, rows.map(serializeContact));
}

/** The contact with this uuid, if the caller may see it: 404 when it exists nowhere, 403 when it is not theirs. */
export function findVisibleContact(caller: Caller, uuid: string) {
  return findVisible("contact", uuid, visibleContacts(caller), (extra) =>
    caller.db.contact.findFirst({ where: { AND: [{ uuid }, extra] }, select: { id: true } }),
  );
}

export async function loadContact(caller: Caller, id: number) {
  return serializeContact(await caller.db.contact.findFirstOrThrow({ where: { id }, include: contactInclude(caller) }));
}

export async function getContact(caller: Caller, uuid: string) {
  return loadContact(caller, (await findVisibleContact(caller, uuid)).id);
}
