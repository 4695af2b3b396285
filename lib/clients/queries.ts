// Reading clients, always through the caller's tenant-scoped database and within the caller's visibility.
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Caller } from "@/lib/api/caller";
import { pageOf, paginated } from "@/lib/api/pagination";
import { findVisible } from "@/lib/api/records";
import { visibleClients } from "@/lib/auth/visibility";
import { containsText, literal } from "@/lib/api/filters";
import { tenantCustomFields } from "./custom-fields";
import type { listClientsQuery, searchClientsQuery } from "./schemas";
import { loadClientRelations, NO_RELATIONS } from "./relations";
import { clientSelect, serializeClient, type ClientColumns } from "./serialize";
import type { z } from "zod";

export const DEFAULT_CLIENT_PAGE_SIZE = 1000;
const SEARCH_RESULTS = 10;

export async function listClients(caller: Caller, query: z.output<typeof listClientsQuery>, url: URL) {
  const filters: Prisma.ClientWhereInput[] = [visibleClients(caller) ?? {}];
  if (!query.include_archived) filters.push({ isArchived: false });
  if (query.client_status) filters.push({ clientStatus: query.client_status });
  if (query.country_id !== undefined) filters.push({ countryId: query.country_id });
  if (query.tags?.length) filters.push({ tags: { some: { tagId: { in: query.tags } } } });
  // citext makes this equality case-insensitive, and it can use the (tenant_id, email) index.
  if (query.contact_email) filters.push({ contacts: { some: { contact: { email: query.contact_email } } } });
  // The name, reference, registration number, city and linked contacts' names and emails, kept in one column by
  // database triggers so that one trigram index serves any term (prisma/migrations/…_client_search_text).
  if (query.search) filters.push({ searchText: containsText(query.search) });
  const where = { AND: filters };
  const direction = query.sort_direction ?? "asc";
  const orderBy: Prisma.ClientOrderByWithRelationInput[] = [
    query.sort_by === "created_at" ? { createdAt: direction } : { name: direction },
    { uuid: direction },
  ];
  const page = pageOf(query, DEFAULT_CLIENT_PAGE_SIZE);
  const findPage = (filter: Prisma.ClientWhereInput) =>
    caller.db.client.findMany({ where: filter, orderBy, skip: page.skip, take: page.take, select: clientSelect });
  const [[total, rows], fields] = await Promise.all([
    query.search ? searchPage(caller, where, findPage) : Promise.all([caller.db.client.count({ where }), findPage(where)]),
    tenantCustomFields(caller.db),
  ]);
  const relations = await loadClientRelations(caller, rows.map((row) => row.id));
  return paginated(url, page, total, rows.map((row) => serializeClient(row, relations.get(row.id) ?? NO_RELATIONS, fields)));
}

/** Above this many matches a search pages with its filter alone (see searchPage). */
const MAX_SEARCH_IDS = 1000;

/**
 * A search's matches can cluster in name order (every "Kestrel …" client sits under K), and PostgreSQL, planning
 * `ORDER BY name LIMIT` as if they were spread evenly, then walks the name index through tens of thousands of other
 * clients to fill a page (100–220 ms on the bench data). The count, a trigram index scan, tells how many there are;
 * when they are few, their ids are found the same way and named in the page's filter, which makes the page a sort of
 * those clients alone (about 6 ms). Thousands of ids would cost Prisma more than the walk (bench/RESULTS.md).
 */
async function searchPage(
  caller: Caller,
  where: Prisma.ClientWhereInput,
  findPage: (filter: Prisma.ClientWhereInput) => Promise<ClientColumns[]>,
): Promise<[number, ClientColumns[]]> {
  const total = await caller.db.client.count({ where });
  if (total === 0) return [0, []];
  if (total > MAX_SEARCH_IDS) return [total, await findPage(where)];
  const matches = await caller.db.client.findMany({ where, select: { id: true } });
  return [total, await findPage({ AND: [where, { id: { in: matches.map((match) => match.id) } }] })];
}

/**
 * The lower case PostgreSQL's lower() gives (clients.name_key): character by character, without the mappings to
 * several characters or by context that JavaScript's toLowerCase applies to a whole string ("İ" gives "i" here).
 */
const lowerLikePostgres = (text: string) => Array.from(text, (char) => Array.from(char.toLowerCase())[0]).join("");

/**
 * Quick search by name for pickers: prefix matches first, then other matches; archived clients left out. Both
 * filter and order by the lower-case name (prisma/migrations/…_client_name_key), which no index orders, so
 * PostgreSQL sorts the matches the trigram index finds rather than walking every client in name order.
 */
export async function searchClients(caller: Caller, { q }: z.output<typeof searchClientsQuery>) {
  const base: Prisma.ClientWhereInput[] = [visibleClients(caller) ?? {}, { isArchived: false }];
  const key = literal(lowerLikePostgres(q));
  const prefix = { nameKey: { startsWith: key } };
  const select = { id: true, uuid: true, name: true } as const;
  const orderBy = [{ nameKey: "asc" as const }, { uuid: "asc" as const }];
  const first = await caller.db.client.findMany({ where: { AND: [...base, prefix] }, select, orderBy, take: SEARCH_RESULTS });
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

export async function getClient(caller: Caller, uuid: string) {
  const { id } = await findVisibleClient(caller, uuid);
  return loadClient(caller, id);
}

/** The wire shape of a client by id (after a write, or once visibility is settled). */
export async function loadClient(caller: Caller, id: number) {
  const [row, relations, fields] = await Promise.all([
    caller.db.client.findFirstOrThrow({ where: { id }, select: clientSelect }),
    loadClientRelations(caller, [id]),
    tenantCustomFields(caller.db),
  ]);
  return serializeClient(row, relations.get(id) ?? NO_RELATIONS, fields);
}
