// GET /clients, /clients/{uuid} and /clients/search: filters, sorting, paging, shapes, visibility, tenancy.
import { beforeAll, describe, expect, it } from "vitest";
import * as clientRoute from "@/app/api/v1/clients/[uuid]/route";
import * as clientsRoute from "@/app/api/v1/clients/route";
import * as searchRoute from "@/app/api/v1/clients/search/route";
import * as jobsRoute from "@/app/api/v1/jobs/route";
import { prisma } from "@/lib/db/client";
import { call, tenantByName, tokenFor, userByEmail } from "../support/api";

let owner: string;
let acmeId: number;
let birchId: number;

beforeAll(async () => {
  owner = await tokenFor("owner@acme.test");
  acmeId = (await tenantByName("Acme Accounting")).id;
  birchId = (await tenantByName("Birch Bookkeeping")).id;
});

const list = (query = "", token = owner) => call(clientsRoute, "GET", `clients${query}`, { token });
const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((c) => c.name);
const uuids = (res: { body: { data: { uuid: string }[] } }) => res.body.data.map((c) => c.uuid).sort();

async function acmeClients(where: object = {}) {
  return (await prisma()).client.findMany({
    where: { tenantId: acmeId, ...where },
    orderBy: [{ name: "asc" }, { uuid: "asc" }],
  });
}

describe("GET /clients", () => {
  it("lists the tenant's unarchived clients by name, in the pagination envelope", async () => {
    const res = await list();
    const expected = await acmeClients({ isArchived: false });
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(expected.map((c) => c.name));
    expect(res.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 1000, total: expected.length });
    expect(res.body.links).toEqual({
      first: "http://localhost/api/v1/clients?page=1",
      last: "http://localhost/api/v1/clients?page=1",
      prev: null,
      next: null,
    });
  });

  it("shows each client in full: contacts, country name, year end and every custom field", async () => {
    const res = await list("?search=AC-001");
    expect(res.body.data).toHaveLength(1);
    const client = res.body.data[0];
    expect(Object.keys(client).sort()).toEqual(
      [
        "uuid",
        "name",
        "client_id",
        "reg_number",
        "website",
        "country",
        "state",
        "city",
        "street_address",
        "postal_code",
        "year_end",
        "year_end_text",
        "is_archived",
        "client_status",
        "created_at",
        "updated_at",
        "contacts",
        "industry",
        "employees",
        "onboarded_on",
        "aml_checked",
        "notes",
      ].sort(),
    );
    expect(client).toMatchObject({
      client_id: "AC-001",
      country: "United Kingdom",
      is_archived: false,
      client_status: "active",
      notes: null,
    });
    expect(client.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(client.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(client.year_end_text).toMatch(/^\d{1,2} [A-Z][a-z]+$/);
    expect(typeof client.employees).toBe("number");
    expect(client.contacts).toHaveLength(2);
    expect(Object.keys(client.contacts[0]).sort()).toEqual([
      "clients",
      "email",
      "firstname",
      "lastname",
      "phone_number",
      "portal_enabled",
      "preferred_name",
      "updated_at",
      "uuid",
    ]);
    expect(client.contacts[0].updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(client.contacts[0].clients).toEqual([{ uuid: client.uuid, name: client.name }]);
  });

  it("includes archived clients only when asked", async () => {
    const archived = await acmeClients({ isArchived: true });
    expect(archived.length).toBeGreaterThan(0);
    const res = await list("?include_archived=true");
    expect(res.body.meta.total).toBe((await acmeClients()).length);
    expect(names(res)).toEqual(expect.arrayContaining(archived.map((c) => c.name)));
    expect(res.body.data.find((c: { is_archived: boolean }) => c.is_archived)).toBeTruthy();
  });

  it.each(["prospect", "active"])("filters by client_status=%s", async (status) => {
    const res = await list(`?client_status=${status}`);
    const expected = await acmeClients({ isArchived: false, clientStatus: status });
    expect(expected.length).toBeGreaterThan(0);
    expect(uuids(res)).toEqual(expected.map((c) => c.uuid).sort());
  });

  it("filters by country_id", async () => {
    const res = await list("?country_id=372");
    const expected = await acmeClients({ isArchived: false, countryId: 372 });
    expect(expected.length).toBeGreaterThan(0);
    expect(uuids(res)).toEqual(expected.map((c) => c.uuid).sort());
    expect(res.body.data.every((c: { country: string }) => c.country === "Ireland")).toBe(true);
  });

  it("filters by tags, matching any of them, with repeated keys or a single value", async () => {
    const tags = await (await prisma()).tag.findMany({ where: { tenantId: acmeId }, orderBy: { id: "asc" } });
    const [a, b] = tags;
    const expected = await acmeClients({ isArchived: false, tags: { some: { tagId: { in: [a.id, b.id] } } } });
    const res = await list(`?tags[]=${a.id}&tags[]=${b.id}`);
    expect(uuids(res)).toEqual(expected.map((c) => c.uuid).sort());
    const single = await list(`?tags=${a.id}`);
    expect(uuids(single)).toEqual(
      (await acmeClients({ isArchived: false, tags: { some: { tagId: a.id } } })).map((c) => c.uuid).sort(),
    );
    expect(single.body.meta.total).toBeLessThan(res.body.meta.total);
  });

  it("filters by contact_email, exactly and ignoring case", async () => {
    const link = await (await prisma()).clientContact.findFirstOrThrow({
      where: { tenantId: acmeId, client: { isArchived: false } },
      include: { contact: true, client: true },
    });
    const res = await list(`?contact_email=${encodeURIComponent(link.contact.email.toUpperCase())}`);
    expect(names(res)).toEqual([link.client.name]);
    expect((await list(`?contact_email=${encodeURIComponent(link.contact.email.slice(1))}`)).body.data).toEqual([]);
  });

  it.each([
    ["the name", "harbour"],
    ["client_id", "ac-00"],
    ["reg_number", "RN1"],
    ["city", "dublin"],
  ])("searches %s, ignoring case", async (_, term) => {
    const res = await list(`?search=${encodeURIComponent(term)}`);
    expect(res.body.data.length).toBeGreaterThan(0);
    const t = term.toLowerCase();
    for (const c of res.body.data) {
      const haystack = [
        c.name,
        c.client_id,
        c.reg_number,
        c.city,
        ...c.contacts.flatMap((p: { firstname: string; lastname: string; email: string }) => [
          p.firstname,
          p.lastname,
          p.email,
        ]),
      ];
      expect(haystack.some((v) => v?.toLowerCase().includes(t))).toBe(true);
    }
  });

  it("searches the names and emails of linked contacts", async () => {
    const link = await (await prisma()).clientContact.findFirstOrThrow({
      where: { tenantId: acmeId, client: { isArchived: false } },
      include: { contact: true, client: true },
    });
    const res = await list(`?search=${encodeURIComponent(link.contact.email)}`);
    expect(names(res)).toContain(link.client.name);
  });

  it("treats search wildcards and SQL as plain text", async () => {
    for (const term of ["%", "_", "' OR 1=1 --", "\\"]) {
      const res = await list(`?search=${encodeURIComponent(term)}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    }
  });

  it("sorts by created_at and in either direction, with stable ties", async () => {
    const byCreated = await list("?sort_by=created_at&sort_direction=desc");
    const expected = (
      await (
        await prisma()
      ).client.findMany({
        where: { tenantId: acmeId, isArchived: false },
        orderBy: [{ createdAt: "desc" }, { uuid: "desc" }],
      })
    ).map((c) => c.name);
    expect(names(byCreated)).toEqual(expected);
    const byNameDesc = await list("?sort_direction=desc");
    expect(names(byNameDesc)).toEqual(names(await list()).reverse());
  });

  it("pages with limit and page, keeping the other parameters in the links", async () => {
    const all = names(await list("?client_status=active"));
    const res = await list("?client_status=active&limit=7&page=2");
    expect(names(res)).toEqual(all.slice(7, 14));
    const lastPage = Math.ceil(all.length / 7);
    expect(res.body.meta).toEqual({ current_page: 2, last_page: lastPage, per_page: 7, total: all.length });
    expect(res.body.links).toEqual({
      first: "http://localhost/api/v1/clients?client_status=active&limit=7&page=1",
      last: `http://localhost/api/v1/clients?client_status=active&limit=7&page=${lastPage}`,
      prev: "http://localhost/api/v1/clients?client_status=active&limit=7&page=1",
      next: "http://localhost/api/v1/clients?client_status=active&limit=7&page=3",
    });
    const pages = await Promise.all(
      Array.from({ length: lastPage }, (_, i) => list(`?client_status=active&limit=7&page=${i + 1}`)),
    );
    expect(pages.flatMap(names)).toEqual(all);
  });

  it("answers a page past the last with no data and the right meta", async () => {
    const res = await list("?limit=10&page=99");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({
      current_page: 99,
      per_page: 10,
      last_page: Math.ceil(res.body.meta.total / 10),
    });
    expect(res.body.links.next).toBeNull();
  });

  it("ignores unknown query parameters", async () => {
    const res = await list("?colour=blue&limit=3");
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(3);
  });

  it.each([
    ["sort_by", "?sort_by=city"],
    ["sort_direction", "?sort_direction=up"],
    ["client_status", "?client_status=lead"],
    ["limit", "?limit=0"],
    ["limit", "?limit=1001"],
    ["limit", "?limit=ten"],
    ["page", "?page=0"],
    ["page", "?page=-1"],
    ["page", "?page=1&page=2"],
    ["country_id", "?country_id=abc"],
    ["tags.0", "?tags[]=x"],
    ["include_archived", "?include_archived=maybe"],
    ["search", `?search=${"x".repeat(201)}`],
  ])("is 422 naming %s for %s", async (field, query) => {
    const res = await list(query);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(res.body.message).toContain(field);
  });
});

describe("client visibility", () => {
  it("shows a user with assigned_clients only the clients they manage or have a job on", async () => {
    const casey = await userByEmail("assigned@acme.test");
    const expected = await acmeClients({
      isArchived: false,
      OR: [{ accountManagerId: casey.id }, { jobs: { some: { assignees: { some: { userId: casey.id } } } } }],
    });
    const res = await list("", await tokenFor("assigned@acme.test"));
    expect(res.body.meta.total).toBe(expected.length);
    expect(uuids(res)).toEqual(expected.map((c) => c.uuid).sort());
    expect(expected.length).toBeLessThan((await acmeClients({ isArchived: false })).length);
  });

  it("shows a user with client_groups only the clients of their groups, in lists and search", async () => {
    const gina = await userByEmail("groups@acme.test");
    const expected = await acmeClients({
      isArchived: false,
      groups: { some: { group: { users: { some: { userId: gina.id } } } } },
    });
    const token = await tokenFor("groups@acme.test");
    const res = await list("", token);
    expect(uuids(res)).toEqual(expected.map((c) => c.uuid).sort());
    const search = await call(searchRoute, "GET", "clients/search?q=a", { token });
    const visible = new Set(expected.map((c) => c.uuid));
    expect(search.body.clients.length).toBeGreaterThan(0);
    expect(search.body.clients.every((c: { uuid: string }) => visible.has(c.uuid))).toBe(true);
  });

  it("is a 403 on a direct read of a client outside the user's visibility", async () => {
    const casey = await userByEmail("assigned@acme.test");
    const hidden = await (await prisma()).client.findFirstOrThrow({
      where: {
        tenantId: acmeId,
        NOT: { accountManagerId: casey.id },
        jobs: { none: { assignees: { some: { userId: casey.id } } } },
      },
    });
    const res = await call(clientRoute, "GET", `clients/${hidden.uuid}`, {
      token: await tokenFor("assigned@acme.test"),
      params: { uuid: hidden.uuid },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: expect.any(String) });
  });

  it("shows a user with assigned_clients a client from the moment a job of it is assigned to them", async () => {
    const casey = await userByEmail("assigned@acme.test");
    const caseyToken = await tokenFor("assigned@acme.test");
    const [hidden] = await acmeClients({
      isArchived: false,
      NOT: { accountManagerId: casey.id },
      jobs: { none: { assignees: { some: { userId: casey.id } } } },
    });
    const read = () =>
      call(clientRoute, "GET", `clients/${hidden.uuid}`, { token: caseyToken, params: { uuid: hidden.uuid } });
    const listed = async () => uuids(await list("", caseyToken)).includes(hidden.uuid);
    expect([(await read()).status, await listed()]).toEqual([403, false]);

    const job = await call(jobsRoute, "POST", "jobs", {
      token: owner,
      body: { name: "Assigned to Casey", client_uuid: hidden.uuid, user_id: casey.id },
    });
    expect(job.status).toBe(201);
    expect([(await read()).status, await listed()]).toEqual([200, true]);
  });

  it("lists, under a shared contact, only the clients the user may see, and the primary contact first", async () => {
    const casey = await userByEmail("assigned@acme.test");
    const db = await prisma();
    const [visible] = await acmeClients({ isArchived: false, accountManagerId: casey.id });
    const [hidden] = await acmeClients({
      NOT: { accountManagerId: casey.id },
      jobs: { none: { assignees: { some: { userId: casey.id } } } },
    });
    const shared = await db.contact.create({
      data: {
        tenantId: acmeId,
        firstname: "Shared",
        lastname: "Aaronson",
        preferredName: "Shared",
        email: "shared.contact@example.test",
      },
    });
    const primary = await db.contact.create({
      data: {
        tenantId: acmeId,
        firstname: "Pat",
        lastname: "Zuckerman",
        preferredName: "Pat",
        email: "primary.contact@example.test",
      },
    });
    await db.clientContact.createMany({
      data: [
        { tenantId: acmeId, clientId: visible.id, contactId: shared.id },
        { tenantId: acmeId, clientId: hidden.id, contactId: shared.id },
        { tenantId: acmeId, clientId: visible.id, contactId: primary.id, isPrimary: true },
      ],
    });
    const link = (c: { uuid: string; name: string }) => ({ uuid: c.uuid, name: c.name });
    const contactsOf = (client: { contacts: { uuid: string; clients: unknown[] }[] }) =>
      client.contacts.filter((c) => c.uuid === shared.uuid || c.uuid === primary.uuid);
    const caseyToken = await tokenFor("assigned@acme.test");
    const listed = (await list("", caseyToken)).body.data.find((c: { uuid: string }) => c.uuid === visible.uuid);
    const read = (
      await call(clientRoute, "GET", `clients/${visible.uuid}`, { token: caseyToken, params: { uuid: visible.uuid } })
    ).body;
    for (const client of [listed, read]) {
      expect(contactsOf(client).map((c) => c.uuid)).toEqual([primary.uuid, shared.uuid]);
      expect(contactsOf(client)[1].clients).toEqual([link(visible)]);
    }
    const asOwner = (
      await call(clientRoute, "GET", `clients/${visible.uuid}`, { token: owner, params: { uuid: visible.uuid } })
    ).body;
    expect(contactsOf(asOwner)[1].clients).toEqual(
      (await acmeClients({ id: { in: [visible.id, hidden.id] } })).map(link),
    );
  });

  it("lets a Standard user with access to all clients see them all", async () => {
    const res = await list("", await tokenFor("standard@acme.test"));
    expect(res.body.meta.total).toBe((await acmeClients({ isArchived: false })).length);
  });
});

describe("tenant isolation", () => {
  it("never lists another tenant's clients, even with the same references", async () => {
    const birch = await (await prisma()).client.findMany({ where: { tenantId: birchId } });
    const res = await list("?include_archived=true");
    const seen = new Set(res.body.data.map((c: { uuid: string }) => c.uuid));
    expect(birch.some((c) => seen.has(c.uuid))).toBe(false);
    const sameRef = await list("?search=AC-001", await tokenFor("owner@birch.test"));
    expect(sameRef.body.data.map((c: { uuid: string }) => c.uuid)).toEqual(
      birch.filter((c) => c.clientRef === "AC-001").map((c) => c.uuid),
    );
  });

  it("is a 403 to read another tenant's client by uuid, and a 404 for a uuid that exists nowhere", async () => {
    const birchClient = await (await prisma()).client.findFirstOrThrow({ where: { tenantId: birchId } });
    const other = await call(clientRoute, "GET", `clients/${birchClient.uuid}`, {
      token: owner,
      params: { uuid: birchClient.uuid },
    });
    expect(other.status).toBe(403);
    expect(JSON.stringify(other.body)).not.toContain(birchClient.name);
    const nowhere = "00000000-0000-4000-8000-000000000000";
    const missing = await call(clientRoute, "GET", `clients/${nowhere}`, { token: owner, params: { uuid: nowhere } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "Client not found." });
  });

  it("is a 404 for a malformed uuid", async () => {
    for (const uuid of ["123", "not-a-uuid", "' OR 1=1 --", "00000000-0000-4000-8000-00000000000g"]) {
      const res = await call(clientRoute, "GET", `clients/x`, { token: owner, params: { uuid } });
      expect(res.status).toBe(404);
    }
  });
});

describe("GET /clients/{uuid}", () => {
  it("answers the same object as the list, found by uuid in any case", async () => {
    const [first] = (await list("?limit=1")).body.data;
    const res = await call(clientRoute, "GET", `clients/${first.uuid}`, {
      token: owner,
      params: { uuid: first.uuid.toUpperCase() },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(first);
  });
});

describe("GET /clients/search", () => {
  const search = (q: string | null, token = owner) =>
    call(searchRoute, "GET", q === null ? "clients/search" : `clients/search?q=${encodeURIComponent(q)}`, { token });

  it("answers at most 10 lightweight results, prefix matches first", async () => {
    const res = await search("a");
    expect(res.status).toBe(200);
    expect(res.body.clients).toHaveLength(10);
    for (const c of res.body.clients) expect(Object.keys(c).sort()).toEqual(["id", "name", "uuid"]);
    const client = await prisma();
    const tenantId = acmeId;
    await client.client.createMany({
      data: [
        { tenantId, name: "Zed Meadowbank Ltd" },
        { tenantId, name: "Meadowsweet Farm" },
      ],
    });
    const meadow = await search("MEADOW");
    const found = meadow.body.clients.map((c: { name: string }) => c.name);
    const firstSubstring = found.indexOf("Zed Meadowbank Ltd");
    expect(firstSubstring).toBeGreaterThan(0);
    expect(found.slice(0, firstSubstring).every((n: string) => n.toLowerCase().startsWith("meadow"))).toBe(true);
    expect(found).toContain("Meadowsweet Farm");
  });

  it("matches without regard to case, in other alphabets too, and orders each group by the name in lower case", async () => {
    const db = await prisma();
    const tenantId = acmeId;
    const made = [
      "École Ørsted Quillon",
      "écoLE Abbey Quillon",
      "ECOLE Zinc Quillon",
      "İstanbul Quillon Tekstil",
      "Quillon Σοφία",
    ];
    await db.client.createMany({ data: made.map((name) => ({ tenantId, name })) });
    const found = async (q: string) => (await search(q)).body.clients.map((c: { name: string }) => c.name);
    expect(await found("ÉCOLE")).toEqual(["écoLE Abbey Quillon", "École Ørsted Quillon"]);
    expect(await found("écolE")).toEqual(["écoLE Abbey Quillon", "École Ørsted Quillon"]);
    // PostgreSQL lowers İ to i, where JavaScript's toLowerCase gives i and a combining dot.
    expect(await found("İSTANBUL")).toEqual(["İstanbul Quillon Tekstil"]);
    expect(await found("ΣΟΦΊΑ")).toEqual(["Quillon Σοφία"]);
    // Prefix matches first, then the rest, each by the name in lower case (by the name as stored, "QUILLFEATHER Alpha"
    // and "Banana …" would sort before their lower-case neighbours in a C collation).
    await db.client.createMany({
      data: ["Banana Quillfeather", "quillfeather Zed", "apple Quillfeather", "QUILLFEATHER Alpha"].map((name) => ({
        tenantId,
        name,
      })),
    });
    expect(await found("quillFEATHER")).toEqual([
      "QUILLFEATHER Alpha",
      "quillfeather Zed",
      "apple Quillfeather",
      "Banana Quillfeather",
    ]);
  });

  it("takes the query literally: % and _ are not wildcards", async () => {
    const db = await prisma();
    await db.client.createMany({
      data: [
        { tenantId: acmeId, name: "100% Organic Quillet" },
        { tenantId: acmeId, name: "Under_score Quillet" },
      ],
    });
    const found = async (q: string) => (await search(q)).body.clients.map((c: { name: string }) => c.name);
    expect(await found("%")).toEqual(["100% Organic Quillet"]);
    expect(await found("r_s")).toEqual(["Under_score Quillet"]);
    expect(await found("0% o")).toEqual(["100% Organic Quillet"]);
  });

  it("leaves archived clients out", async () => {
    const archived = await (await prisma()).client.findFirstOrThrow({ where: { tenantId: acmeId, isArchived: true } });
    const res = await search(archived.name);
    expect(res.body.clients.map((c: { uuid: string }) => c.uuid)).not.toContain(archived.uuid);
  });

  it("is a 422 without a query", async () => {
    for (const q of [null, "", "   "]) {
      const res = await search(q);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(["q"]);
    }
  });

  it("finds only the caller's tenant's clients", async () => {
    const res = await search("a", await tokenFor("owner@birch.test"));
    const birch = new Set(
      (await (await prisma()).client.findMany({ where: { tenantId: birchId } })).map((c) => c.uuid),
    );
    expect(res.body.clients.length).toBeGreaterThan(0);
    expect(res.body.clients.every((c: { uuid: string }) => birch.has(c.uuid))).toBe(true);
  });
});
