// POST /clients and PUT /clients/{uuid}: every validation rule, permissions, tenancy, transactions, concurrency.
import { beforeAll, describe, expect, it } from "vitest";
import * as clientRoute from "@/app/api/v1/clients/[uuid]/route";
import * as clientsRoute from "@/app/api/v1/clients/route";
import * as searchRoute from "@/app/api/v1/clients/search/route";
import * as contactRoute from "@/app/api/v1/contacts/[uuid]/route";
import { acceptProposal } from "@/lib/clients/mutations";
import { prisma } from "@/lib/db/client";
import { tenantDb } from "@/lib/db/tenant";
import { call, tableCounts, tenantByName, tokenFor, userByEmail } from "../support/api";

let owner: string;
let acmeId: number;
let birchId: number;

beforeAll(async () => {
  owner = await tokenFor("owner@acme.test");
  acmeId = (await tenantByName("Acme Accounting")).id;
  birchId = (await tenantByName("Birch Bookkeeping")).id;
});

const create = (body: unknown, token = owner) => call(clientsRoute, "POST", "clients", { token, body });
const update = (uuid: string, body: unknown, token = owner) =>
  call(clientRoute, "PUT", `clients/${uuid}`, { token, body, params: { uuid } });
const read = (uuid: string, token = owner) => call(clientRoute, "GET", `clients/${uuid}`, { token, params: { uuid } });

async function acmeRefs() {
  const client = await prisma();
  const [groups, tags, manager] = await Promise.all([
    client.clientGroup.findMany({ where: { tenantId: acmeId }, orderBy: { id: "asc" } }),
    client.tag.findMany({ where: { tenantId: acmeId }, orderBy: { id: "asc" } }),
    userByEmail("admin@acme.test"),
  ]);
  return { groups, tags, manager };
}

let unique = 0;
const fresh = (label: string) => `${label}-${Date.now().toString(36)}-${++unique}`;

/** Expects a 422 naming exactly these fields, and no row written anywhere. */
async function expectRejected(request: () => Promise<{ status: number; body: any }>, fields: string[]) {
  const before = await tableCounts();
  const res = await request();
  expect(res.status).toBe(422);
  expect(Object.keys(res.body.errors).sort()).toEqual([...fields].sort());
  for (const messages of Object.values(res.body.errors)) {
    expect(messages).toEqual(expect.arrayContaining([expect.any(String)]));
  }
  expect(await tableCounts()).toEqual(before);
  return res;
}

describe("POST /clients", () => {
  it("creates a client from a name alone, active with a 31 December year end, in the GET shape", async () => {
    const res = await create({ name: "Solo Trader" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Solo Trader",
      client_status: "active",
      year_end: "12-31",
      year_end_text: "31 December",
      is_archived: false,
      client_id: null,
      reg_number: null,
      country: null,
      contacts: [],
      industry: null,
      employees: null,
    });
    expect((await read(res.body.uuid)).body).toEqual(res.body);
    const stored = await (await prisma()).client.findFirstOrThrow({ where: { uuid: res.body.uuid } });
    expect(stored.tenantId).toBe(acmeId);
  });

  it("creates every field of the spec, with its primary contact, groups, tags and custom fields", async () => {
    const { groups, tags, manager } = await acmeRefs();
    const email = `${fresh("primary")}@example.test`;
    const res = await create({
      name: "Full Fields Ltd",
      client_status: "prospect",
      client_id: "  FF-001  ",
      reg_number: "SC123456",
      website: "https://fullfields.example",
      country_id: 826,
      user_id: manager.id,
      state: "England",
      city: "York",
      street_address: "1 Minster Yard",
      postal_code: "YO1 7HH",
      client_groups: [groups[1].id, groups[2].id],
      tags: [tags[0].id],
      year_end: "02-29",
      custom_fields: {
        industry: "Retail",
        employees: 12,
        onboarded_on: "2026-01-15",
        aml_checked: true,
        notes: "Family business",
      },
      contact: {
        firstname: "Fay",
        lastname: "Fields",
        email,
        title: "Owner",
        phone_number: "+44 1904 000000",
        include_for_client_requests: true,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Full Fields Ltd",
      client_status: "prospect",
      client_id: "FF-001",
      reg_number: "SC123456",
      website: "https://fullfields.example",
      country: "United Kingdom",
      state: "England",
      city: "York",
      street_address: "1 Minster Yard",
      postal_code: "YO1 7HH",
      year_end: "02-29",
      year_end_text: "29 February",
      industry: "Retail",
      employees: 12,
      onboarded_on: "2026-01-15",
      aml_checked: true,
      notes: "Family business",
    });
    expect(res.body.contacts).toEqual([
      {
        uuid: expect.any(String),
        firstname: "Fay",
        lastname: "Fields",
        preferred_name: "Fay",
        email,
        phone_number: "+44 1904 000000",
        portal_enabled: true,
        updated_at: expect.any(String),
        clients: [{ uuid: res.body.uuid, name: "Full Fields Ltd" }],
      },
    ]);
    const stored = await (await prisma()).client.findFirstOrThrow({
      where: { uuid: res.body.uuid },
      include: { groups: true, tags: true, contacts: true },
    });
    expect(stored.accountManagerId).toBe(manager.id);
    expect(stored.groups.map((g) => g.groupId).sort()).toEqual([groups[1].id, groups[2].id].sort());
    expect(stored.tags.map((t) => t.tagId)).toEqual([tags[0].id]);
    expect(stored.contacts).toEqual([
      expect.objectContaining({ isPrimary: true, title: "Owner", includeForClientRequests: true }),
    ]);
  });

  it.each([
    [{}, ["name"]],
    [{ name: "" }, ["name"]],
    [{ name: "   " }, ["name"]],
    [{ name: "x".repeat(101) }, ["name"]],
    [{ name: 42 }, ["name"]],
    [{ name: ["a"] }, ["name"]],
    [{ name: "ok", client_status: "lead" }, ["client_status"]],
    [{ name: "ok", client_id: "x".repeat(101) }, ["client_id"]],
    [{ name: "ok", reg_number: "x".repeat(101) }, ["reg_number"]],
    [{ name: "ok", website: "not a url" }, ["website"]],
    [{ name: "ok", website: "ftp://files.example" }, ["website"]],
    [{ name: "ok", country_id: 99999 }, ["country_id"]],
    [{ name: "ok", country_id: "826" }, ["country_id"]],
    [{ name: "ok", country_id: 8.5 }, ["country_id"]],
    [{ name: "ok", user_id: 999999 }, ["user_id"]],
    [{ name: "ok", client_groups: [999999] }, ["client_groups.0"]],
    [{ name: "ok", client_groups: "1" }, ["client_groups"]],
    [{ name: "ok", tags: [999999] }, ["tags.0"]],
    [{ name: "ok", tags: [1, "two"] }, ["tags.1"]],
    [{ name: "ok", year_end: "02-30" }, ["year_end"]],
    [{ name: "ok", year_end: "13-01" }, ["year_end"]],
    [{ name: "ok", year_end: "1231" }, ["year_end"]],
    [{ name: "ok", custom_fields: { colour: "blue" } }, ["custom_fields.colour"]],
    [{ name: "ok", custom_fields: { employees: "twelve" } }, ["custom_fields.employees"]],
    [{ name: "ok", custom_fields: { industry: "Mining" } }, ["custom_fields.industry"]],
    [{ name: "ok", custom_fields: { onboarded_on: "2026-02-30" } }, ["custom_fields.onboarded_on"]],
    [{ name: "ok", custom_fields: { aml_checked: "yes" } }, ["custom_fields.aml_checked"]],
    [{ name: "ok", custom_fields: [1] }, ["custom_fields"]],
    [{ name: "ok", contact: {} }, ["contact.firstname", "contact.lastname", "contact.email"]],
    [{ name: "ok", contact: [] }, ["contact"]],
    [{ name: "ok", contact: { firstname: "A", lastname: "B", email: "not-an-email" } }, ["contact.email"]],
    [
      { name: "ok", contact: { firstname: "A", lastname: "B", email: "a@b.test", include_for_client_requests: "yes" } },
      ["contact.include_for_client_requests"],
    ],
    [{ name: "nul\u0000byte" }, ["name"]],
    [{ name: "lone \ud800 surrogate" }, ["name"]],
    [{ name: "ok", contact: { firstname: "A\udfff", lastname: "B", email: "a@b.test" } }, ["contact.firstname"]],
  ])("is 422 and writes nothing for %j", async (body, fields) => {
    await expectRejected(() => create(body), fields);
  });

  it("refuses references to another tenant's user, group and tag", async () => {
    const client = await prisma();
    const [birchUser, birchGroup, birchTag, ownTag] = await Promise.all([
      client.user.findFirstOrThrow({ where: { tenantId: birchId } }),
      client.clientGroup.findFirstOrThrow({ where: { tenantId: birchId } }),
      client.tag.findFirstOrThrow({ where: { tenantId: birchId } }),
      client.tag.findFirstOrThrow({ where: { tenantId: { not: birchId } } }),
    ]);
    await expectRejected(
      () =>
        create({
          name: "Cross",
          user_id: birchUser.id,
          client_groups: [birchGroup.id],
          tags: [ownTag.id, birchTag.id],
        }),
      ["user_id", "client_groups.0", "tags.1"],
    );
  });

  it("refuses an archived account manager", async () => {
    await expectRejected(() => create({ name: "Managed", user_id: 0 }), ["user_id"]);
    const archived = await userByEmail("archived@acme.test");
    await expectRejected(() => create({ name: "Managed", user_id: archived.id }), ["user_id"]);
  });

  it("keeps client_id and reg_number unique in the tenant, ignoring case and surrounding spaces", async () => {
    await expectRejected(() => create({ name: "Dup", client_id: "  ac-001 " }), ["client_id"]);
    const taken = await (await prisma()).client.findFirstOrThrow({
      where: { tenantId: acmeId, regNumber: { not: null } },
    });
    await expectRejected(() => create({ name: "Dup", reg_number: taken.regNumber!.toLowerCase() }), ["reg_number"]);
  });

  it("allows a client_id that only another tenant uses", async () => {
    const ref = fresh("BIRCH");
    await (await prisma()).client.create({ data: { tenantId: birchId, name: "Birch's own", clientRef: ref } });
    const res = await create({ name: "Same ref, other firm", client_id: ref });
    expect(res.status).toBe(201);
    expect(res.body.client_id).toBe(ref);
  });

  it("writes nothing when the nested contact's email is taken: client and contact go together", async () => {
    const existing = await (await prisma()).contact.findFirstOrThrow({ where: { tenantId: acmeId } });
    await expectRejected(
      () =>
        create({
          name: "Half Written Ltd",
          client_id: fresh("HW"),
          contact: { firstname: "A", lastname: "B", email: existing.email.toUpperCase() },
        }),
      ["contact.email"],
    );
    expect(await (await prisma()).client.count({ where: { name: "Half Written Ltd" } })).toBe(0);
  });

  it("reports every offending field at once", async () => {
    const res = await expectRejected(
      () => create({ name: "", website: "nope", country_id: 99999 }),
      ["name", "website"],
    );
    expect(res.body.message).toMatch(/invalid/i);
  });

  it("is 403 for a role without clients.create, and writes nothing", async () => {
    const before = await tableCounts();
    const res = await create({ name: "Viewer's client" }, await tokenFor("viewer@acme.test"));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect(await tableCounts()).toEqual(before);
  });

  it("stores unicode and SQL-looking text as it was sent", async () => {
    for (const name of ["Café Zoë & Søn 株式会社 🚀", "Robert'); DROP TABLE clients;--", "<script>alert(1)</script>"]) {
      const res = await create({ name });
      expect(res.status).toBe(201);
      expect(res.body.name).toBe(name);
    }
  });

  it("is 413 for a 10 MB name and writes nothing", async () => {
    const before = await tableCounts();
    const res = await create({ name: "x".repeat(10 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(await tableCounts()).toEqual(before);
  });

  it("ignores unknown body fields", async () => {
    const res = await create({
      name: "Extra Fields",
      id: 1,
      tenant_id: birchId,
      uuid: "00000000-0000-4000-8000-000000000000",
    });
    expect(res.status).toBe(201);
    expect(res.body.uuid).not.toBe("00000000-0000-4000-8000-000000000000");
    expect((await (await prisma()).client.findFirstOrThrow({ where: { uuid: res.body.uuid } })).tenantId).toBe(acmeId);
  });

  it("creates exactly one of 20 simultaneous clients whose client_id differs only in case", async () => {
    const ref = fresh("race");
    const variants = Array.from({ length: 20 }, (_, i) =>
      [...ref].map((ch, k) => ((i >> k) & 1 ? ch.toUpperCase() : ch)).join(""),
    );
    const results = await Promise.all(
      variants.map((clientId, i) => create({ name: `Racer ${i}`, client_id: clientId })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const rejected = results.filter((r) => r.status === 422);
    expect(rejected).toHaveLength(19);
    for (const r of rejected) expect(Object.keys(r.body.errors)).toEqual(["client_id"]);
    expect(await (await prisma()).client.count({ where: { tenantId: acmeId, clientRef: ref } })).toBe(1);
  });
});

describe("PUT /clients/{uuid}", () => {
  async function newClient(body: object = {}) {
    const res = await create({ name: fresh("Client"), city: "Leeds", client_status: "prospect", ...body });
    expect(res.status).toBe(201);
    return res.body;
  }

  it("changes only the fields that were sent", async () => {
    const before = await newClient({ website: "https://keep.example", custom_fields: { employees: 3 } });
    const res = await update(before.uuid, { name: "Renamed Ltd" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, name: "Renamed Ltd", contacts: [], updated_at: expect.any(String) });
    expect(res.body.updated_at > before.updated_at).toBe(true);
    expect((await read(before.uuid)).body).toEqual(res.body);
  });

  it("moves between prospect and active both ways", async () => {
    const client = await newClient();
    expect((await update(client.uuid, { client_status: "active" })).body.client_status).toBe("active");
    expect((await update(client.uuid, { client_status: "prospect" })).body.client_status).toBe("prospect");
  });

  it("clears optional fields sent as null, and custom fields too", async () => {
    const client = await newClient({ custom_fields: { employees: 3, notes: "x" } });
    const res = await update(client.uuid, { city: null, custom_fields: { employees: null } });
    expect(res.body).toMatchObject({ city: null, employees: null, notes: "x" });
  });

  it("replaces tags and client groups, and archives", async () => {
    const { groups, tags } = await acmeRefs();
    const client = await newClient({ tags: [tags[0].id], client_groups: [groups[0].id] });
    const res = await update(client.uuid, {
      tags: [tags[1].id, tags[2].id],
      client_groups: [],
      is_archived: true,
      year_end: "03-31",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ is_archived: true, year_end: "03-31", year_end_text: "31 March" });
    const stored = await (await prisma()).client.findFirstOrThrow({
      where: { uuid: client.uuid },
      include: { tags: true, groups: true },
    });
    expect(stored.tags.map((t) => t.tagId).sort()).toEqual([tags[1].id, tags[2].id].sort());
    expect(stored.groups).toEqual([]);
    const listed = await call(clientsRoute, "GET", `clients?search=${client.name}`, { token: owner });
    expect(listed.body.data).toEqual([]);
  });

  it("keeps its own client_id but cannot take another client's", async () => {
    const client = await newClient({ client_id: fresh("OWN") });
    expect((await update(client.uuid, { client_id: client.client_id.toUpperCase() })).status).toBe(200);
    const before = (await read(client.uuid)).body;
    await expectRejected(() => update(client.uuid, { client_id: "AC-002" }), ["client_id"]);
    expect((await read(client.uuid)).body).toEqual(before);
  });

  it.each([
    [{ name: null }, ["name"]],
    [{ name: "" }, ["name"]],
    [{ client_status: null }, ["client_status"]],
    [{ is_archived: "true" }, ["is_archived"]],
    [{ tags: [999999] }, ["tags.0"]],
    [{ year_end: "00-10" }, ["year_end"]],
  ])("is 422 and changes nothing for %j", async (body, fields) => {
    const client = await newClient();
    await expectRejected(() => update(client.uuid, body), fields);
    expect((await read(client.uuid)).body).toEqual(client);
  });

  it("is 400 for a body that is not an object, and changes nothing", async () => {
    const client = await newClient();
    const res = await call(clientRoute, "PUT", `clients/${client.uuid}`, {
      token: owner,
      rawBody: "[]",
      headers: { "Content-Type": "application/json" },
      params: { uuid: client.uuid },
    });
    expect(res.status).toBe(400);
    expect((await read(client.uuid)).body).toEqual(client);
  });

  it("is 403 for a role without clients.update", async () => {
    const client = await newClient();
    const res = await update(client.uuid, { name: "Nope" }, await tokenFor("viewer@acme.test"));
    expect(res.status).toBe(403);
    expect((await read(client.uuid)).body.name).toBe(client.name);
  });

  it("is 403 for another tenant's client and outside the user's visibility; 404 when it exists nowhere", async () => {
    const birchClient = await (await prisma()).client.findFirstOrThrow({ where: { tenantId: birchId } });
    expect((await update(birchClient.uuid, { name: "Hijacked" })).status).toBe(403);
    expect(
      (await (await prisma()).client.findFirstOrThrow({ where: { id: birchClient.id, tenantId: birchId } })).name,
    ).toBe(birchClient.name);

    const casey = await userByEmail("assigned@acme.test");
    const hidden = await (await prisma()).client.findFirstOrThrow({
      where: {
        tenantId: acmeId,
        NOT: { accountManagerId: casey.id },
        jobs: { none: { assignees: { some: { userId: casey.id } } } },
      },
    });
    expect((await update(hidden.uuid, { name: "Hidden" }, await tokenFor("assigned@acme.test"))).status).toBe(403);

    expect((await update("00000000-0000-4000-8000-000000000000", { name: "Ghost" })).status).toBe(404);
  });
});

describe("search after writes", () => {
  // `search` reads a text that database triggers keep (migration …_client_search_text): every write it depends on
  // must show in the next search.
  const found = async (term: string) =>
    (await call(clientsRoute, "GET", `clients?search=${encodeURIComponent(term)}`, { token: owner })).body.data.map(
      (c: { uuid: string }) => c.uuid,
    );

  it("finds a client by what it was created with, its own fields and its contact's", async () => {
    const ref = fresh("SRCH");
    const lastname = fresh("Quorum");
    const res = await create({
      name: fresh("Searchable"),
      client_id: ref,
      city: "Penzance",
      contact: { firstname: "Zebedee", lastname, email: `${lastname}@example.test` },
    });
    expect(res.status).toBe(201);
    for (const term of [ref.toLowerCase(), lastname.toUpperCase(), `${lastname}@example`])
      expect(await found(term)).toEqual([res.body.uuid]);
  });

  it("follows renames of the client and of its contacts, and contacts linked and unlinked", async () => {
    const lastname = fresh("Marazion");
    const client = (
      await create({
        name: fresh("Renamed"),
        contact: { firstname: "Ada", lastname, email: `${fresh("ada")}@example.test` },
      })
    ).body;
    const contact = client.contacts[0];
    const newName = fresh("Porthleven");
    expect((await update(client.uuid, { name: newName })).status).toBe(200);
    expect(await found(newName)).toEqual([client.uuid]);

    // The quick search reads the lower-case name another trigger keeps.
    const quick = async (q: string) =>
      (await call(searchRoute, "GET", `clients/search?q=${encodeURIComponent(q)}`, { token: owner })).body.clients.map(
        (c: { uuid: string }) => c.uuid,
      );
    expect(await quick(newName.toUpperCase())).toEqual([client.uuid]);
    expect(await quick(newName.slice(3).toLowerCase())).toEqual([client.uuid]);

    const newLastname = fresh("Mousehole");
    const renamed = await call(contactRoute, "PUT", `contacts/${contact.uuid}`, {
      token: owner,
      body: { lastname: newLastname },
      params: { uuid: contact.uuid },
    });
    expect(renamed.status).toBe(200);
    expect(await found(lastname)).toEqual([]);
    expect(await found(newLastname)).toEqual([client.uuid]);

    const db = await prisma();
    const stored = await db.client.findFirstOrThrow({ where: { uuid: client.uuid } });
    const storedContact = await db.contact.findFirstOrThrow({ where: { uuid: contact.uuid } });
    await db.clientContact.delete({
      where: { tenantId_clientId_contactId: { tenantId: acmeId, clientId: stored.id, contactId: storedContact.id } },
    });
    expect(await found(newLastname)).toEqual([]);
    await db.clientContact.create({ data: { tenantId: acmeId, clientId: stored.id, contactId: storedContact.id } });
    expect(await found(newLastname)).toEqual([client.uuid]);
  });

  it("is a 422 for a search term of more than one line, which no field is searched across", async () => {
    const res = await call(clientsRoute, "GET", `clients?search=${encodeURIComponent("Leeds\nAC-001")}`, {
      token: owner,
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["search"]);
  });
});

describe("accepting a proposal", () => {
  it("moves a prospect to active and leaves an active client as it is", async () => {
    const client = await prisma();
    const db = tenantDb(client, acmeId);
    const prospect = await db.client.create({
      data: { tenantId: acmeId, name: "Prospect Co", clientStatus: "prospect" },
    });
    expect(await acceptProposal(db, prospect.id)).toBe(true);
    expect((await db.client.findFirstOrThrow({ where: { id: prospect.id } })).clientStatus).toBe("active");
    expect(await acceptProposal(db, prospect.id)).toBe(false);
    expect((await db.client.findFirstOrThrow({ where: { id: prospect.id } })).clientStatus).toBe("active");
  });
});
