// /contacts and /contacts/{uuid}: filters, paging, create and update rules, visibility, tenancy, concurrency.
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as contactRoute from "@/app/api/v1/contacts/[uuid]/route";
import * as contactsRoute from "@/app/api/v1/contacts/route";
import { prisma } from "@/lib/db/client";
import { call, tableCounts, tenantByName, tokenFor, userByEmail } from "../support/api";
import { bothWays } from "../support/search-paths";

vi.mock("@/lib/db/search-page", async () => (await import("../support/search-paths")).searchPageModule());

let owner: string;
let acmeId: number;
let birchId: number;
let tokenForCasey: string;

beforeAll(async () => {
  owner = await tokenFor("owner@acme.test");
  tokenForCasey = await tokenFor("assigned@acme.test");
  acmeId = (await tenantByName("Acme Accounting")).id;
  birchId = (await tenantByName("Birch Bookkeeping")).id;
});

const list = (query = "", token = owner) => call(contactsRoute, "GET", `contacts${query}`, { token });
const create = (body: unknown, token = owner) => call(contactsRoute, "POST", "contacts", { token, body });
const update = (uuid: string, body: unknown, token = owner) =>
  call(contactRoute, "PUT", `contacts/${uuid}`, { token, body, params: { uuid } });
const read = (uuid: string, token = owner) =>
  call(contactRoute, "GET", `contacts/${uuid}`, { token, params: { uuid } });
const uuids = (res: { body: { data: { uuid: string }[] } }) => res.body.data.map((c) => c.uuid).sort();

let unique = 0;
const freshEmail = () => `person-${Date.now().toString(36)}-${++unique}@example.test`;

async function expectRejected(request: () => Promise<{ status: number; body: any }>, fields: string[]) {
  const before = await tableCounts();
  const res = await request();
  expect(res.status).toBe(422);
  expect(Object.keys(res.body.errors).sort()).toEqual([...fields].sort());
  expect(await tableCounts()).toEqual(before);
}

describe("GET /contacts", () => {
  it("lists the tenant's contacts by last and first name, in the pagination envelope", async () => {
    const expected = await (await prisma()).contact.findMany({
      where: { tenantId: acmeId },
      orderBy: [{ lastname: "asc" }, { firstname: "asc" }, { uuid: "asc" }],
    });
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { uuid: string }) => c.uuid)).toEqual(expected.map((c) => c.uuid));
    expect(res.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 1000, total: expected.length });
    const [first] = res.body.data;
    expect(Object.keys(first).sort()).toEqual([
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
  });

  it("finds by email exactly, ignoring case, only in the caller's tenant", async () => {
    const contact = await (await prisma()).contact.findFirstOrThrow({
      where: { tenantId: acmeId, clients: { some: {} } },
      include: { clients: { include: { client: true } } },
    });
    expect(await (await prisma()).contact.count({ where: { tenantId: birchId, email: contact.email } })).toBe(1);
    const res = await list(`?email=${encodeURIComponent(contact.email.toUpperCase())}`);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        uuid: contact.uuid,
        email: contact.email,
        clients: contact.clients.map(({ client }) => ({ uuid: client.uuid, name: client.name })),
      }),
    ]);
    expect((await list(`?email=${encodeURIComponent(contact.email.slice(0, -1))}`)).body.data).toEqual([]);
  });

  it("searches names, every word matching some name", async () => {
    const contact = await (await prisma()).contact.findFirstOrThrow({
      where: { tenantId: acmeId, lastname: "Archer" },
    });
    const res = await list(`?search=${encodeURIComponent(`${contact.firstname.toLowerCase()} ARCHER`)}`);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const c of res.body.data) {
      expect(c.lastname === "Archer" || c.firstname === "Archer").toBe(true);
      expect([c.firstname, c.lastname, c.preferred_name].join(" ").toLowerCase()).toContain(
        contact.firstname.toLowerCase(),
      );
    }
    expect((await list("?search=%25")).body.data).toEqual([]);
  });

  it("pages search results in list order, the same whether it sorts the matches or walks the name index", async () => {
    const matches = (await list("?search=a")).body.data.map((c: { uuid: string }) => c.uuid);
    expect(matches.length).toBeGreaterThan(6);
    expect(matches).toEqual(
      (await list()).body.data.map((c: { uuid: string }) => c.uuid).filter((uuid: string) => matches.includes(uuid)),
    );
    for (const query of [
      "?search=a&limit=3&page=1",
      "?search=a&limit=3&page=2",
      `?search=a&limit=3&page=${Math.ceil(matches.length / 3)}`,
      "?search=a&limit=3&page=99",
    ]) {
      const { sorted, walked } = await bothWays(() => list(query));
      expect(walked.body).toEqual(sorted.body);
      const [, size, page] = query.match(/limit=(\d+)&page=(\d+)/)!.map(Number);
      expect(sorted.body.data.map((c: { uuid: string }) => c.uuid)).toEqual(
        matches.slice((page - 1) * size, page * size),
      );
      expect(sorted.body.meta.total).toBe(matches.length);
    }
    const hidden = await bothWays(() => list("?search=a", tokenForCasey));
    expect(hidden.walked.body).toEqual(hidden.sorted.body);
    expect(hidden.sorted.body.meta.total).toBeLessThan(matches.length);
  });

  it("pages with limit and page", async () => {
    const all = (await list()).body.data.map((c: { uuid: string }) => c.uuid);
    const res = await list("?limit=5&page=3");
    expect(res.body.data.map((c: { uuid: string }) => c.uuid)).toEqual(all.slice(10, 15));
    expect(res.body.meta).toEqual({
      current_page: 3,
      last_page: Math.ceil(all.length / 5),
      per_page: 5,
      total: all.length,
    });
    expect(res.body.links.prev).toBe("http://localhost/api/v1/contacts?limit=5&page=2");
  });

  it.each([
    ["limit", "?limit=0"],
    ["page", "?page=x"],
    ["email", "?email[]=a@b.test"],
    ["search", `?search=${"y".repeat(201)}`],
  ])("is 422 naming %s for %s", async (field, query) => {
    const res = await list(query);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it("shows restricted users only contacts of clients they can see, and no unlinked contacts", async () => {
    const casey = await userByEmail("assigned@acme.test");
    const visibleClient = {
      OR: [{ accountManagerId: casey.id }, { jobs: { some: { assignees: { some: { userId: casey.id } } } } }],
    };
    const expected = await (await prisma()).contact.findMany({
      where: { tenantId: acmeId, clients: { some: { client: visibleClient } } },
    });
    const token = await tokenFor("assigned@acme.test");
    const res = await list("", token);
    expect(uuids(res)).toEqual(expected.map((c) => c.uuid).sort());
    expect(res.body.data.find((c: { lastname: string }) => c.lastname === "Loose")).toBeUndefined();
    const visibleUuids = new Set(
      (await (await prisma()).client.findMany({ where: { tenantId: acmeId, ...visibleClient } })).map((c) => c.uuid),
    );
    for (const c of res.body.data) for (const linked of c.clients) expect(visibleUuids.has(linked.uuid)).toBe(true);

    const loose = await (await prisma()).contact.findFirstOrThrow({ where: { tenantId: acmeId, lastname: "Loose" } });
    expect((await read(loose.uuid, token)).status).toBe(403);
    expect((await read(loose.uuid)).status).toBe(200);
  });
});

describe("GET /contacts/{uuid}", () => {
  it("answers the contact; 403 for another tenant's; 404 for unknown or malformed uuids", async () => {
    const [first] = (await list("?limit=1")).body.data;
    expect((await read(first.uuid)).body).toEqual(first);
    const birch = await (await prisma()).contact.findFirstOrThrow({ where: { tenantId: birchId } });
    const other = await read(birch.uuid);
    expect(other.status).toBe(403);
    expect(JSON.stringify(other.body)).not.toContain(birch.email);
    expect((await read("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await read("nope")).status).toBe(404);
  });
});

describe("POST /contacts", () => {
  it("creates a contact with preferred_name defaulting to firstname and the portal enabled", async () => {
    const email = freshEmail();
    const res = await create({ firstname: "Nora", lastname: "New", email });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.any(String),
      firstname: "Nora",
      lastname: "New",
      preferred_name: "Nora",
      email,
      phone_number: null,
      portal_enabled: true,
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      clients: [],
    });
    expect((await read(res.body.uuid)).body).toEqual(res.body);
  });

  it("links the new contact to a client, with a title", async () => {
    const client = await (await prisma()).client.findFirstOrThrow({ where: { tenantId: acmeId } });
    const res = await create({
      firstname: "Lin",
      lastname: "Ked",
      email: freshEmail(),
      preferred_name: "Lynn",
      portal_enabled: false,
      phone_number: "+353 1 000",
      client_uuid: client.uuid,
      title: "Bookkeeper",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      preferred_name: "Lynn",
      portal_enabled: false,
      phone_number: "+353 1 000",
      clients: [{ uuid: client.uuid, name: client.name }],
    });
    const link = await (await prisma()).clientContact.findFirstOrThrow({
      where: { tenantId: acmeId, clientId: client.id, contact: { uuid: res.body.uuid } },
    });
    expect(link.title).toBe("Bookkeeper");
  });

  it.each([
    [{}, ["firstname", "lastname", "email"]],
    [{ firstname: "A", lastname: "B", email: "nope" }, ["email"]],
    [{ firstname: "A", lastname: "B", email: 12 }, ["email"]],
    [{ firstname: "", lastname: "B", email: "a@b.test" }, ["firstname"]],
    [{ firstname: "A", lastname: "x".repeat(101), email: "a@b.test" }, ["lastname"]],
    [{ firstname: "A", lastname: "B", email: "a@b.test", portal_enabled: "no" }, ["portal_enabled"]],
    [{ firstname: "A", lastname: "B", email: "a@b.test", client_uuid: "not-a-uuid" }, ["client_uuid"]],
    [
      { firstname: "A", lastname: "B", email: "a@b.test", client_uuid: "00000000-0000-4000-8000-000000000000" },
      ["client_uuid"],
    ],
    [{ firstname: { first: "A" }, lastname: "B", email: "a@b.test" }, ["firstname"]],
  ])("is 422 and writes nothing for %j", async (body, fields) => {
    await expectRejected(() => create(body), fields);
  });

  it("keeps emails unique in the tenant ignoring case, but not across tenants", async () => {
    const acme = await (await prisma()).contact.findFirstOrThrow({ where: { tenantId: acmeId } });
    await expectRejected(() => create({ firstname: "A", lastname: "B", email: acme.email.toUpperCase() }), ["email"]);
    const birchOnly = freshEmail();
    await (await prisma()).contact.create({
      data: { tenantId: birchId, firstname: "B", lastname: "Only", preferredName: "B", email: birchOnly },
    });
    expect((await create({ firstname: "A", lastname: "Acme", email: birchOnly })).status).toBe(201);
  });

  it("refuses to link to another tenant's client or one outside the caller's visibility", async () => {
    const birchClient = await (await prisma()).client.findFirstOrThrow({ where: { tenantId: birchId } });
    await expectRejected(
      () => create({ firstname: "A", lastname: "B", email: freshEmail(), client_uuid: birchClient.uuid }),
      ["client_uuid"],
    );
    const casey = await userByEmail("assigned@acme.test");
    const hidden = await (await prisma()).client.findFirstOrThrow({
      where: {
        tenantId: acmeId,
        NOT: { accountManagerId: casey.id },
        jobs: { none: { assignees: { some: { userId: casey.id } } } },
      },
    });
    await expectRejected(
      () => create({ firstname: "A", lastname: "B", email: freshEmail(), client_uuid: hidden.uuid }, tokenForCasey),
      ["client_uuid"],
    );
  });

  it("is 403 for a role without contacts.create", async () => {
    const before = await tableCounts();
    expect(
      (await create({ firstname: "A", lastname: "B", email: freshEmail() }, await tokenFor("viewer@acme.test"))).status,
    ).toBe(403);
    expect(await tableCounts()).toEqual(before);
  });

  it("creates exactly one of 20 simultaneous contacts whose emails differ only in case", async () => {
    const email = freshEmail();
    const variants = Array.from({ length: 20 }, (_, i) =>
      [...email].map((ch, k) => ((i >> (k % 5)) & 1 ? ch.toUpperCase() : ch)).join(""),
    );
    const results = await Promise.all(
      variants.map((e, i) => create({ firstname: `Racer${i}`, lastname: "Race", email: e })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const rejected = results.filter((r) => r.status === 422);
    expect(rejected).toHaveLength(19);
    for (const r of rejected) expect(r.body.errors).toEqual({ email: [expect.any(String)] });
    expect(await (await prisma()).contact.count({ where: { tenantId: acmeId, email } })).toBe(1);
  });
});

describe("PUT /contacts/{uuid}", () => {
  async function newContact() {
    const res = await create({ firstname: "Up", lastname: "Date", email: freshEmail(), phone_number: "123" });
    expect(res.status).toBe(201);
    return res.body;
  }

  it("changes only the fields that were sent", async () => {
    const contact = await newContact();
    const res = await update(contact.uuid, { preferred_name: "Uppy", portal_enabled: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...contact,
      preferred_name: "Uppy",
      portal_enabled: false,
      updated_at: expect.any(String),
    });
    expect(res.body.updated_at > contact.updated_at).toBe(true);
  });

  it("keeps its own email in another case but cannot take another contact's", async () => {
    const contact = await newContact();
    expect((await update(contact.uuid, { email: contact.email.toUpperCase() })).status).toBe(200);
    const other = await newContact();
    await expectRejected(() => update(contact.uuid, { email: other.email }), ["email"]);
  });

  it("links to a client with a title, and a second link updates the title", async () => {
    const contact = await newContact();
    const client = await (await prisma()).client.findFirstOrThrow({ where: { tenantId: acmeId } });
    const res = await update(contact.uuid, { client_uuid: client.uuid, title: "Director" });
    expect(res.body.clients).toEqual([{ uuid: client.uuid, name: client.name }]);
    await update(contact.uuid, { client_uuid: client.uuid, title: "Partner" });
    const link = await (await prisma()).clientContact.findFirstOrThrow({
      where: { tenantId: acmeId, clientId: client.id, contact: { uuid: contact.uuid } },
    });
    expect(link.title).toBe("Partner");
  });

  it("clears the phone number with null; refuses null for required fields", async () => {
    const contact = await newContact();
    expect((await update(contact.uuid, { phone_number: null })).body.phone_number).toBeNull();
    await expectRejected(() => update(contact.uuid, { firstname: null, email: null }), ["firstname", "email"]);
  });

  it("is 403 without contacts.update, for another tenant's contact and outside visibility; 404 for unknown", async () => {
    const contact = await newContact();
    expect((await update(contact.uuid, { firstname: "X" }, await tokenFor("viewer@acme.test"))).status).toBe(403);
    const birch = await (await prisma()).contact.findFirstOrThrow({ where: { tenantId: birchId } });
    expect((await update(birch.uuid, { firstname: "X" })).status).toBe(403);
    expect(
      (await (await prisma()).contact.findFirstOrThrow({ where: { id: birch.id, tenantId: birchId } })).firstname,
    ).toBe(birch.firstname);
    expect((await update(contact.uuid, { firstname: "X" }, tokenForCasey)).status).toBe(403);
    expect((await update("00000000-0000-4000-8000-000000000000", { firstname: "X" })).status).toBe(404);
    expect((await read(contact.uuid)).body).toEqual(contact);
  });
});
