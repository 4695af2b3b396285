// A page of 1000 rows takes as many database queries as a page of 10, but for the statements that stream a long
// page STREAMED_ROWS rows at a time (lib/db/wire-list.ts): no query per row (N+1).
// Counted at the two doors every statement goes through, on PGlite and on PostgreSQL alike: the driver adapter (every
// Prisma query) and Database.read (the read path's statements, sent to the driver itself: lib/db/client.ts).
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as clientByUuid from "@/app/api/v1/clients/[uuid]/route";
import * as clients from "@/app/api/v1/clients/route";
import * as contacts from "@/app/api/v1/contacts/route";
import * as jobByUuid from "@/app/api/v1/jobs/[uuid]/route";
import * as jobs from "@/app/api/v1/jobs/route";
import * as me from "@/app/api/v1/me/route";
import * as timeLogs from "@/app/api/v1/time-logs/route";
import { database, prisma } from "@/lib/db/client";
import { STREAMED_ROWS } from "@/lib/db/wire-list";
import { call, tokenFor, userByEmail } from "../support/api";

let queries = 0;
/** Whether each statement read since the last request asked to be planned for its values (lib/db/client.ts). */
let plannedEachCall: boolean[] = [];
/** The texts of the statements read since the last request. */
let texts: string[] = [];

/** The statements after the first that a streamed page of `rows` rows reads its later rows with. */
const laterChunks = (rows: number) => Math.ceil(rows / STREAMED_ROWS) - 1;

// Installed before this file's database is opened (on first use), so the adapter it connects is counted.
for (const factory of [PrismaPGlite.prototype, PrismaPg.prototype] as { connect(): Promise<any> }[]) {
  const connect = factory.connect;
  vi.spyOn(factory, "connect").mockImplementation(async function (this: unknown) {
    const adapter = await connect.call(this);
    for (const method of ["queryRaw", "executeRaw"] as const) {
      const original = adapter[method].bind(adapter);
      adapter[method] = (query: unknown) => {
        queries++;
        return original(query);
      };
    }
    return adapter;
  });
}

async function queriesFor(
  route: Parameters<typeof call>[0],
  path: string,
  params?: Record<string, string>,
  email = "assigned@acme.test", // a user with a visibility filter: the costliest case
) {
  const token = await tokenFor(email);
  await call(route, "GET", path, { token, params }); // warm up: the token's first use also records it
  queries = 0;
  plannedEachCall = [];
  texts = [];
  const res = await call(route, "GET", path, { token, params });
  expect(res.status).toBe(200);
  return { count: queries, body: res.body };
}

/**
 * Authentication's lookup is cached once the instance listens for auth changes (lib/auth/token-cache.ts; opened on
 * first use): waits until it does, so that every count below sees the same authentication (none, from the cache).
 */
async function untilAuthenticationIsCached() {
  const token = await tokenFor("assigned@acme.test");
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; ) {
    await call(me, "GET", "me", { token });
    queries = 0;
    await call(me, "GET", "me", { token });
    if (queries === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("authentication never answered from its cache");
}

beforeAll(async () => {
  const db = await database();
  const read = db.read;
  db.read = (statement, options) => {
    queries++;
    plannedEachCall.push(options?.planEachCall === true);
    texts.push(statement.text);
    return read(statement, options);
  };
  const client = await prisma();
  const user = await userByEmail("assigned@acme.test");
  const tenantId = user.tenantId;
  const [status] = await client.jobStatus.findMany({ where: { tenantId }, orderBy: { position: "asc" }, take: 1 });
  const clientRow = await client.client.findFirstOrThrow({ where: { tenantId } });
  const parent = await client.job.create({
    data: { tenantId, name: "Bulk parent", clientId: clientRow.id, assignees: { create: [{ userId: user.id }] } },
  });
  const bulk = await client.job.createManyAndReturn({
    data: Array.from({ length: 1000 }, (_, i) => ({
      tenantId,
      name: `Bulk job ${i}`,
      statusId: status.id,
      clientId: clientRow.id,
      parentId: parent.id,
    })),
  });
  await client.jobAssignee.createMany({ data: bulk.map((j) => ({ tenantId, jobId: j.id, userId: user.id })) });
  await client.timeLog.createMany({
    data: bulk.map((j, i) => ({
      tenantId,
      userId: user.id,
      jobId: j.id,
      clientId: clientRow.id,
      minutes: 15 + i,
      date: new Date("2026-01-05T00:00:00Z"),
    })),
  });
  // 1000 clients the user manages, each with a contact, a tag and a custom field value.
  const [tag, field] = await Promise.all([
    client.tag.findFirstOrThrow({ where: { tenantId } }),
    client.customField.findFirstOrThrow({ where: { tenantId, type: "number" } }),
  ]);
  const managed = await client.client.createManyAndReturn({
    data: Array.from({ length: 1000 }, (_, i) => ({ tenantId, name: `Bulk client ${i}`, accountManagerId: user.id })),
  });
  const people = await client.contact.createManyAndReturn({
    data: managed.map((_, i) => ({
      tenantId,
      firstname: "Bulk",
      lastname: `Person ${i}`,
      preferredName: "Bulk",
      email: `bulk.${i}@example.test`,
    })),
  });
  await client.clientContact.createMany({
    data: managed.map((c, i) => ({ tenantId, clientId: c.id, contactId: people[i].id, isPrimary: true })),
  });
  await client.clientTag.createMany({ data: managed.map((c) => ({ tenantId, clientId: c.id, tagId: tag.id })) });
  await client.customFieldValue.createMany({
    data: managed.map((c, i) => ({ tenantId, clientId: c.id, fieldId: field.id, value: i })),
  });
  await untilAuthenticationIsCached();
});

describe("queries per request do not grow with the page", () => {
  it.each(["due_date", "status"])("GET /jobs sorted by %s", async (sort) => {
    const small = await queriesFor(jobs, `jobs?search=Bulk job&per_page=10&sort_by=${sort}`);
    const large = await queriesFor(jobs, `jobs?search=Bulk job&per_page=1000&sort_by=${sort}`);
    expect(small.body.data).toHaveLength(10);
    expect(large.body.data).toHaveLength(1000);
    expect(large.count).toBe(small.count + laterChunks(1000));
  });

  it("GET /clients with contacts, tags and custom fields", async () => {
    const small = await queriesFor(clients, "clients?search=Bulk client&limit=10");
    const large = await queriesFor(clients, "clients?search=Bulk client&limit=1000");
    expect(small.body.data).toHaveLength(10);
    expect(large.body.data).toHaveLength(1000);
    expect(large.body.data[999].contacts).toHaveLength(1);
    expect(large.count).toBe(small.count);
  });

  it("GET /contacts", async () => {
    const small = await queriesFor(contacts, "contacts?search=Bulk&limit=10");
    const large = await queriesFor(contacts, "contacts?search=Bulk&limit=1000");
    expect(large.body.data).toHaveLength(1000);
    expect(large.count).toBe(small.count);
  });

  it("GET /time-logs", async () => {
    const small = await queriesFor(timeLogs, "time-logs?range=2026-01-05,2026-01-05&per_page=10");
    const large = await queriesFor(timeLogs, "time-logs?range=2026-01-05,2026-01-05&per_page=1000");
    expect(large.body.data).toHaveLength(1000);
    expect(large.count).toBe(small.count + laterChunks(1000));
  });

  it("GET /jobs/{uuid} with 1000 subtasks", async () => {
    const client = await prisma();
    const parent = await client.job.findFirstOrThrow({ where: { name: "Bulk parent" } });
    // Another top-level job the user is assigned to, with a single subtask: the same shape, 1000 times smaller.
    const user = await userByEmail("assigned@acme.test");
    const few = await client.job.create({
      data: { tenantId: user.tenantId, name: "Small parent", assignees: { create: [{ userId: user.id }] } },
    });
    await client.job.create({
      data: {
        tenantId: user.tenantId,
        name: "Only subtask",
        parentId: few.id,
        assignees: { create: [{ userId: user.id }] },
      },
    });
    const large = await queriesFor(jobByUuid, `jobs/${parent.uuid}`, { uuid: parent.uuid });
    const small = await queriesFor(jobByUuid, `jobs/${few.uuid}`, { uuid: few.uuid });
    expect(large.body.sub_tasks).toHaveLength(1000);
    expect(small.body.sub_tasks).toHaveLength(1);
    expect(large.count).toBe(small.count);
  });
});

// A usual page size is written into the page's statement, so that PostgreSQL can keep one plan for it; any other is a
// value, so that a caller stepping through the sizes cannot make a connection prepare (and keep) a statement per size.
describe("the page size in a list's statement", () => {
  it.each([
    ["jobs?per_page=%d", jobs],
    ["jobs?per_page=%d&cursor=", jobs],
    ["time-logs?per_page=%d&range=2026-01-05,2026-01-05", timeLogs],
  ] as const)("is written for a usual size, a value for any other: %s", async (template, route) => {
    const usual = await queriesFor(route, template.replace("%d", "50"));
    expect(usual.body.data).toHaveLength(50);
    expect(texts.some((text) => /LIMIT 5[01]\b/.test(text))).toBe(true);
    const other = await queriesFor(route, template.replace("%d", "37"));
    expect(other.body.data).toHaveLength(37);
    expect(texts.some((text) => /LIMIT 3[78]\b/.test(text))).toBe(false);
    // Both shapes read the same rows.
    expect(other.body.data).toEqual(usual.body.data.slice(0, 37));
  });
});

// Issue 29: a list page is found, written as JSON and counted by PostgreSQL in one statement (lib/db/wire-list.ts).
describe("a list page is one statement after authentication", () => {
  const pages: [Parameters<typeof call>[0], string][] = [
    [clients, "clients?limit=50"],
    [clients, "clients?limit=5&cursor="],
    [clients, "clients?limit=50&client_status=active&page=2"],
    [contacts, "contacts?limit=50"],
    [contacts, "contacts?limit=5&cursor="],
    [jobs, "jobs?per_page=50"],
    [jobs, "jobs?per_page=50&sort_by=status&exclude_subtasks=true&page=3"],
    [jobs, "jobs?per_page=5&sort_by=status&cursor="],
    [timeLogs, "time-logs?per_page=100"],
    [timeLogs, "time-logs?per_page=100&cursor="],
    [timeLogs, "time-logs?per_page=100&range=this_year"],
  ];
  it.each(["assigned@acme.test", "owner@acme.test"])("for %s", async (email) => {
    const authentication = await queriesFor(me, "me", undefined, email);
    for (const [route, path] of pages) {
      expect((await queriesFor(route, path, undefined, email)).count, path).toBe(authentication.count + 1);
    }
  });

  it("and so is a record read", async () => {
    const authentication = await queriesFor(me, "me");
    const { uuid } = await (await prisma()).client.findFirstOrThrow({ where: { name: "Bulk client 7" } });
    const read = await queriesFor(clientByUuid, `clients/${uuid}`, { uuid });
    expect(read.body.uuid).toBe(uuid);
    expect(read.count).toBe(authentication.count + 1);
  });

  it("and two for a search, whose first is planned for its terms at each call, never from a generic plan", async () => {
    const authentication = await queriesFor(me, "me");
    for (const [route, path] of [
      [clients, "clients?search=bulk&limit=5"],
      [contacts, "contacts?search=a&limit=5"],
    ] as const) {
      const search = await queriesFor(route, path);
      expect(search.count, path).toBe(authentication.count + 2);
      // The search (ids and total), the page's JSON (authentication from the cache).
      expect(plannedEachCall, path).toEqual([true, false]);
    }
  });

  it("and one more for a deep page of a kept total, which decides the end it is read from", async () => {
    const authentication = await queriesFor(me, "me", undefined, "owner@acme.test");
    const deep = await queriesFor(jobs, "jobs?per_page=5&page=3", undefined, "owner@acme.test");
    expect(deep.count).toBe(authentication.count + 2);
  });
});
