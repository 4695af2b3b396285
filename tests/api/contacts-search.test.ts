// GET /contacts?search= equals the simple definition, whichever way lib/db/search-page.ts finds the page: all the
// caller's visible contacts whose first, last or preferred name contains every word (ignoring case), filtered, in
// list order, paged, with their total.
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as contactsRoute from "@/app/api/v1/contacts/route";
import { visibleContacts } from "@/lib/auth/visibility";
import { prisma } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { call, tenantByName, tokenFor } from "../support/api";
import { bothWays } from "../support/search-paths";

vi.mock("@/lib/db/search-page", async () => (await import("../support/search-paths")).searchPageModule());

let acmeId: number;

/** Every word in one of the three names, read from the names themselves. */
const everyWord = (search: string): Prisma.ContactWhereInput[] =>
  search.split(/\s+/).map((word) => {
    const has = { contains: word, mode: "insensitive" } as const;
    return { OR: [{ firstname: has }, { lastname: has }, { preferredName: has }] };
  });

async function expectSimple(
  search: string,
  email: string,
  { extra = "", where = [] as Prisma.ContactWhereInput[], page = 1, limit = 20, byUpdate = false } = {},
) {
  const query = `contacts?search=${encodeURIComponent(search)}&limit=${limit}&page=${page}${extra}`;
  const token = await tokenFor(email);
  const { sorted, walked } = await bothWays(() => call(contactsRoute, "GET", query, { token }));
  expect(sorted.status).toBe(200);
  expect(walked.body).toEqual(sorted.body);
  const db = await prisma();
  const user = await db.user.findFirstOrThrow({ where: { email }, include: { role: true } });
  const visible = visibleContacts({ user, roleName: user.role.name });
  const all = await db.contact.findMany({
    where: { AND: [{ tenantId: acmeId }, ...(visible ? [visible] : []), ...everyWord(search), ...where] },
    orderBy: byUpdate
      ? [{ updatedAt: "asc" }, { uuid: "asc" }]
      : [{ lastname: "asc" }, { firstname: "asc" }, { uuid: "asc" }],
    select: { uuid: true },
  });
  expect(sorted.body.meta.total).toBe(all.length);
  expect(sorted.body.data.map((c: { uuid: string }) => c.uuid)).toEqual(
    all.slice((page - 1) * limit, page * limit).map((c) => c.uuid),
  );
  return sorted;
}

beforeAll(async () => {
  acmeId = (await tenantByName("Acme Accounting")).id;
  const db = await prisma();
  // Many Zzwalsh contacts together in the list's order, a first name spread over it, a preferred name.
  await db.contact.createMany({
    data: Array.from({ length: 120 }, (_, i) => ({
      tenantId: acmeId,
      firstname: i % 3 === 0 ? "Zzpriya" : `First${i % 10}`,
      lastname: i % 2 === 0 ? "Zzwalsh" : `Last${String(i).padStart(3, "0")}`,
      preferredName: i % 11 === 0 ? "Zzpreferred" : "",
      email: `zz.search.${i}@example.test`,
    })),
  });
  // Some of them linked to a client the assigned user manages.
  const assigned = await db.user.findFirstOrThrow({ where: { email: "assigned@acme.test" } });
  const client = await db.client.create({
    data: { tenantId: acmeId, name: "Zz Contacts Client", accountManagerId: assigned.id },
  });
  const linked = await db.contact.findMany({ where: { tenantId: acmeId, email: { startsWith: "zz.search.1" } } });
  await db.clientContact.createMany({
    data: linked.map((c) => ({ tenantId: acmeId, clientId: client.id, contactId: c.id })),
  });
});

describe("contact search results equal all visible matches in list order", () => {
  it("for broad, clustered, spread and several-word terms, ignoring case", async () => {
    const owner = "owner@acme.test";
    const walsh = await expectSimple("ZZWALSH", owner, { page: 2 });
    expect(walsh.body.meta.total).toBe(60);
    await expectSimple("zzpriya", owner, { page: 2, limit: 7 });
    await expectSimple("zzpriya zzwalsh", owner);
    await expectSimple("zzpreferred", owner);
    await expectSimple("zz", owner, { page: 3, limit: 25 });
    await expectSimple("zzwalsh", owner, { page: 9 });
  });

  it("with the email and updated_since filters and the updated_at order", async () => {
    const owner = "owner@acme.test";
    await expectSimple("zzwalsh", owner, {
      extra: "&email=ZZ.SEARCH.4%40example.test",
      where: [{ email: "zz.search.4@example.test" }],
    });
    await expectSimple("zzpriya", owner, {
      extra: "&updated_since=2000-01-01T00:00:00Z&sort_by=updated_at",
      byUpdate: true,
      limit: 9,
      page: 2,
    });
  });

  it("for a user who sees only the contacts of assigned clients", async () => {
    const res = await expectSimple("zzwalsh", "assigned@acme.test", { limit: 5, page: 2 });
    expect(res.body.meta.total).toBeGreaterThan(5);
    expect(res.body.meta.total).toBeLessThan(60);
    await expectSimple("zz", "assigned@acme.test", { limit: 5 });
  });
});
