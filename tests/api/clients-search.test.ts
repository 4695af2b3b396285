// GET /clients?search= finds a page of its matches by sorting them, or for a term too short for the trigram index by
// walking the name index (lib/db/search-page.ts): every answer here is asked for both ways, and must equal the
// simple definition: all the caller's visible matches, filtered, in list order, paged, with their total. Its own file,
// so that the thousand extra clients stay out of the other tests' database.
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as clientsRoute from "@/app/api/v1/clients/route";
import { visibleClients } from "@/lib/auth/visibility";
import { prisma } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { call, tenantByName, tokenFor } from "../support/api";
import { bothWays } from "../support/search-paths";

vi.mock("@/lib/db/search-page", async () => (await import("../support/search-paths")).searchPageModule());

let owner: string;
let acmeId: number;
const BULK = 1001;
const bulkName = (n: number) => `Zz Bulk ${String(n).padStart(4, "0")}`;
const LINKED_EMAIL = "quentin.zzlinked@example.test";
let tagId: number;
let countryId: number;

/** The answer, the same whichever way the search pages. */
async function list(query: string, token = owner) {
  const { sorted, walked } = await bothWays(() => call(clientsRoute, "GET", `clients${query}`, { token }));
  expect(sorted.status).toBe(200);
  expect(walked.body).toEqual(sorted.body);
  return sorted;
}
const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((c) => c.name);

/** A case-insensitive substring of any field the spec's search names, read from the fields themselves. */
function matching(term: string): Prisma.ClientWhereInput {
  const has = { contains: term, mode: "insensitive" } as const;
  return {
    OR: [
      { name: has },
      { clientRef: has },
      { regNumber: has },
      { city: has },
      { contacts: { some: { contact: { OR: [{ firstname: has }, { lastname: has }, { email: has }] } } } },
    ],
  };
}

/** The simple definition: every visible match of the filters in list order; the page's uuids and the total. */
async function expected(
  email: string,
  where: Prisma.ClientWhereInput[],
  { page = 1, limit = 50, sortBy = "name", direction = "asc" as "asc" | "desc" } = {},
) {
  const db = await prisma();
  const user = await db.user.findFirstOrThrow({ where: { email }, include: { role: true } });
  const visible = visibleClients({ user, roleName: user.role.name });
  const all = await db.client.findMany({
    where: { AND: [{ tenantId: acmeId }, ...(visible ? [visible] : []), ...where] },
    orderBy: [{ [sortBy === "name" ? "name" : "createdAt"]: direction }, { uuid: direction }],
    select: { uuid: true },
  });
  return { total: all.length, uuids: all.slice((page - 1) * limit, page * limit).map((c) => c.uuid) };
}

async function expectSimple(
  query: string,
  email: string,
  where: Prisma.ClientWhereInput[],
  options?: Parameters<typeof expected>[2],
) {
  const res = await list(query, await tokenFor(email));
  const want = await expected(email, where, options);
  expect(res.body.meta.total).toBe(want.total);
  expect(res.body.data.map((c: { uuid: string }) => c.uuid)).toEqual(want.uuids);
  return res;
}

beforeAll(async () => {
  owner = await tokenFor("owner@acme.test");
  acmeId = (await tenantByName("Acme Accounting")).id;
  const db = await prisma();
  const assigned = await db.user.findFirstOrThrow({ where: { email: "assigned@acme.test" } });
  const groups = await db.user.findFirstOrThrow({ where: { email: "groups@acme.test" } });
  const group =
    (await db.userClientGroup.findFirst({ where: { userId: groups.id } }))?.groupId ??
    (await db.clientGroup.create({ data: { tenantId: acmeId, name: "Zz group" } })).id;
  await db.userClientGroup.createMany({
    data: [{ tenantId: acmeId, userId: groups.id, groupId: group }],
    skipDuplicates: true,
  });
  tagId = (await db.tag.findFirstOrThrow({ where: { tenantId: acmeId } })).id;
  countryId = (await db.country.findFirstOrThrow({ orderBy: { id: "asc" } })).id;
  // Created in reverse order, so that neither creation order nor ids follow the names; archived, prospects, a
  // country, an account manager spread over them.
  const made = await db.client.createManyAndReturn({
    data: Array.from({ length: BULK }, (_, i) => ({
      tenantId: acmeId,
      name: bulkName(BULK - 1 - i),
      createdAt: new Date(Date.UTC(2020, 0, 1) + i * 1000),
      isArchived: i % 7 === 3,
      clientStatus: i % 5 === 1 ? ("prospect" as const) : ("active" as const),
      countryId: i % 3 === 0 ? countryId : null,
      accountManagerId: i % 4 === 0 ? assigned.id : null,
    })),
    select: { id: true },
  });
  await db.clientTag.createMany({
    data: made.filter((_, i) => i % 6 === 0).map((c) => ({ tenantId: acmeId, clientId: c.id, tagId })),
  });
  await db.clientGroupMember.createMany({
    data: made.filter((_, i) => i % 9 === 0).map((c) => ({ tenantId: acmeId, clientId: c.id, groupId: group })),
  });
  const contact = await db.contact.create({
    data: { tenantId: acmeId, firstname: "Quentin", lastname: "Zzlinked", preferredName: "", email: LINKED_EMAIL },
  });
  await db.clientContact.createMany({
    data: made.filter((_, i) => i % 50 === 0).map((c) => ({ tenantId: acmeId, clientId: c.id, contactId: contact.id })),
  });
});

describe("paging search results", () => {
  it("pages a thousand matches by name, with the right total", async () => {
    const res = await list("?search=zz%20bulk&limit=50&page=3&include_archived=true");
    expect(res.body.meta).toEqual({ current_page: 3, last_page: 21, per_page: 50, total: 1001 });
    expect(names(res)).toEqual(Array.from({ length: 50 }, (_, i) => bulkName(100 + i)));
  });

  it("pages a few matches by name and by created_at, in either direction", async () => {
    const res = await list("?search=zz%20bulk%2000&limit=5&page=2&include_archived=true");
    expect(res.body.meta).toMatchObject({ current_page: 2, last_page: 20, total: 100 });
    expect(names(res)).toEqual([5, 6, 7, 8, 9].map(bulkName));
    const descending = await list("?search=zz%20bulk%2000&limit=3&sort_direction=desc&include_archived=true");
    expect(names(descending)).toEqual([99, 98, 97].map(bulkName));
    // Created in reverse name order, so the newest is the lowest number.
    const newest = await list(
      "?search=zz%20bulk%2000&limit=3&sort_by=created_at&sort_direction=desc&include_archived=true",
    );
    expect(names(newest)).toEqual([0, 1, 2].map(bulkName));
  });

  it("answers no match, and a page past the last, with an empty page and the total", async () => {
    const none = await list("?search=no%20such%20client%20anywhere");
    expect(none.body).toMatchObject({ data: [], meta: { total: 0, current_page: 1 } });
    const past = await list("?search=zz%20bulk%2000&limit=50&page=9&include_archived=true");
    expect(past.body).toMatchObject({ data: [], meta: { total: 100, current_page: 9 } });
  });
});

describe("search results equal all visible matches in list order", () => {
  const broad = matching("zz bulk");
  it("for broad, narrow and short terms, the wildcards taken literally", async () => {
    await expectSimple("?search=ZZ%20BULK&limit=50&page=4", "owner@acme.test", [broad, { isArchived: false }], {
      page: 4,
    });
    await expectSimple(
      "?search=bulk%2001&limit=7&page=2",
      "owner@acme.test",
      [matching("bulk 01"), { isArchived: false }],
      {
        page: 2,
        limit: 7,
      },
    );
    await expectSimple("?search=zz&limit=20&page=3", "owner@acme.test", [matching("zz"), { isArchived: false }], {
      page: 3,
      limit: 20,
    });
    await expectSimple("?search=%25", "owner@acme.test", [matching("\\%"), { isArchived: false }]);
    expect((await list("?search=bulk_0")).body.meta.total).toBe(0);
  });

  it("for a term that matches a linked contact's email", async () => {
    const res = await expectSimple(
      `?search=${encodeURIComponent("Quentin.ZZLINKED@")}&limit=5&page=2`,
      "owner@acme.test",
      [matching("quentin.zzlinked@"), { isArchived: false }],
      { page: 2, limit: 5 },
    );
    expect(res.body.meta.total).toBeGreaterThan(10);
  });

  it("with the other filters combined", async () => {
    const owner = "owner@acme.test";
    const filters: [string, Prisma.ClientWhereInput[]][] = [
      ["include_archived=true", []],
      ["client_status=prospect", [{ clientStatus: "prospect" }, { isArchived: false }]],
      [`country_id=${countryId}`, [{ countryId }, { isArchived: false }]],
      [`tags[]=${tagId}`, [{ tags: { some: { tagId } } }, { isArchived: false }]],
      [
        `contact_email=${encodeURIComponent(LINKED_EMAIL.toUpperCase())}`,
        [{ contacts: { some: { contact: { email: LINKED_EMAIL } } } }, { isArchived: false }],
      ],
      ["updated_since=2000-01-01T00:00:00Z", [{ isArchived: false }]],
      [
        "updated_since=2999-01-01T00:00:00Z",
        [{ updatedAt: { gte: new Date("2999-01-01T00:00:00Z") } }, { isArchived: false }],
      ],
      [
        `client_status=active&country_id=${countryId}&include_archived=true`,
        [{ clientStatus: "active" }, { countryId }],
      ],
    ];
    for (const [filter, where] of filters) {
      await expectSimple(`?search=zz%20bulk&limit=30&page=2&${filter}`, owner, [broad, ...where], {
        page: 2,
        limit: 30,
      });
    }
    await expectSimple(
      `?search=zz%20bulk&limit=10&sort_by=created_at&sort_direction=desc&tags[]=${tagId}`,
      owner,
      [broad, { isArchived: false }, { tags: { some: { tagId } } }],
      { limit: 10, sortBy: "created_at", direction: "desc" },
    );
  });

  it("for users who see only assigned clients or their groups' clients", async () => {
    for (const email of ["assigned@acme.test", "groups@acme.test"]) {
      const res = await expectSimple("?search=zz%20bulk&limit=25&page=2", email, [broad, { isArchived: false }], {
        page: 2,
        limit: 25,
      });
      expect(res.body.meta.total).toBeGreaterThan(50);
      expect(res.body.meta.total).toBeLessThan(BULK / 2);
      await expectSimple(
        "?search=zz&limit=25&client_status=prospect",
        email,
        [matching("zz"), { isArchived: false }, { clientStatus: "prospect" }],
        { limit: 25 },
      );
    }
  });
});
