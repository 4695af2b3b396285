// Cursor pages (decisions.md, Integrations): `cursor=` switches a list to Laravel's cursor envelope. Keyset pages
// visit every record once even while records are written during the walk; a cursor is bound to its list, filters
// and sort, and a tampered or foreign one is a 422; a Standard user's pages hold only what it may see.
import { beforeAll, describe, expect, it } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import * as contacts from "@/app/api/v1/contacts/route";
import { prisma } from "@/lib/db/client";
import { call, tokenFor, userByEmail } from "../support/api";

let tenantId: number;
beforeAll(async () => {
  tenantId = (await userByEmail("owner@acme.test")).tenantId;
});

const get = async (query: string, email = "owner@acme.test") =>
  call(clients, "GET", `clients?${query}`, { token: await tokenFor(email) });

/** Every page of a cursor walk from the start; `between` runs after each page. */
async function walk(query: string, email?: string, between?: (page: number) => Promise<void>) {
  const seen: string[] = [];
  let cursor = "";
  for (let page = 0; page < 1000; page++) {
    const res = await get(`${query}&cursor=${encodeURIComponent(cursor)}`, email);
    expect(res.status).toBe(200);
    seen.push(...res.body.data.map((c: { uuid: string }) => c.uuid));
    if (res.body.meta.next_cursor === null) return seen;
    expect(new URL(res.body.links.next).searchParams.get("cursor")).toBe(res.body.meta.next_cursor);
    cursor = res.body.meta.next_cursor;
    await between?.(page);
  }
  throw new Error("The walk did not end");
}

describe("GET /clients?cursor=", () => {
  it("answers the cursor envelope, without a total", async () => {
    const res = await get("limit=2&cursor=");
    expect(res.status).toBe(200);
    expect(res.body.links).toEqual({ first: null, last: null, prev: null, next: expect.stringContaining("cursor=") });
    expect(res.body.meta).toEqual({
      path: "http://localhost/api/v1/clients",
      per_page: 2,
      next_cursor: expect.any(String),
      prev_cursor: null,
    });
    expect(res.body.data).toHaveLength(2);
  });

  it.each([
    "sort_by=name",
    "sort_by=name&sort_direction=desc",
    "sort_by=created_at",
    "sort_by=updated_at&sort_direction=desc",
    "sort_by=updated_at",
  ])("with %s, visits every client once, in the order of the offset pages", async (sort) => {
    const all = (await get(`${sort}&include_archived=true&limit=1000`)).body.data.map((c: { uuid: string }) => c.uuid);
    expect(await walk(`${sort}&include_archived=true&limit=7`)).toEqual(all);
  });

  it("visits every client that existed and did not change, while clients are created and changed during the walk", async () => {
    const db = await prisma();
    const before = await db.client.findMany({ where: { tenantId }, select: { id: true, uuid: true } });
    const changed = new Set<string>();
    const seen = await walk("sort_by=updated_at&include_archived=true&limit=5", undefined, async (page) => {
      await db.client.create({ data: { tenantId, name: `Walk insert ${page}` } });
      const target = before[(page * 7) % before.length];
      changed.add(target.uuid);
      await db.client.update({ where: { tenantId_id: { tenantId, id: target.id } }, data: { city: `Walk ${page}` } });
    });
    const times = (uuid: string) => seen.filter((seenUuid) => seenUuid === uuid).length;
    for (const { uuid } of before) if (!changed.has(uuid)) expect(times(uuid), uuid).toBe(1);
    // A change moves a record to the end of an updated_at walk: it is seen (again) there, after its change.
    for (const uuid of changed) expect(times(uuid)).toBeGreaterThanOrEqual(1);
    const inserted = await db.client.findMany({ where: { tenantId, name: { startsWith: "Walk insert" } } });
    for (const { uuid } of inserted) expect(times(uuid)).toBe(1);
  });

  it("keeps a Standard user's pages within what it may see", async () => {
    const email = "assigned@acme.test";
    const visible = (await get("limit=1000&include_archived=true", email)).body.data.map(
      (c: { uuid: string }) => c.uuid,
    );
    const owner = (await get("limit=1000&include_archived=true")).body.data.length;
    expect(visible.length).toBeLessThan(owner);
    expect(await walk("include_archived=true&limit=2", email)).toEqual(visible);
  });

  it("is 422 for a tampered or forged cursor, and for one made with other filters, sort or page size", async () => {
    const first = await get("limit=2&sort_by=name&cursor=");
    const cursor: string = first.body.meta.next_cursor;
    const [payload, signature] = cursor.split(".");
    const forged = Buffer.from(JSON.stringify(["A", "00000000-0000-4000-8000-000000000000"])).toString("base64url");
    for (const query of [
      `limit=2&sort_by=name&cursor=${payload}.${signature.slice(0, -2)}xx`,
      `limit=2&sort_by=name&cursor=${forged}.${signature}`,
      `limit=2&sort_by=name&cursor=garbage`,
      `limit=2&sort_by=created_at&cursor=${cursor}`,
      `limit=3&sort_by=name&cursor=${cursor}`,
      `limit=2&sort_by=name&client_status=active&cursor=${cursor}`,
    ]) {
      const res = await get(query);
      expect(res.status, query).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(["cursor"]);
    }
    expect((await get(`limit=2&sort_by=name&cursor=${cursor}`)).status).toBe(200);
  });
});

describe("GET /contacts?cursor=", () => {
  const contactsPage = async (query: string, email = "owner@acme.test") =>
    call(contacts, "GET", `contacts?${query}`, { token: await tokenFor(email) });
  const uuids = (res: { body: { data: { uuid: string }[] } }) => res.body.data.map((c) => c.uuid);

  it.each([
    ["sort_by=name", "owner@acme.test"],
    ["sort_by=updated_at", "owner@acme.test"],
    ["sort_by=name", "assigned@acme.test"],
  ])("with %s, for %s, visits every contact the offset list has, once and in order", async (sort, email) => {
    const all = uuids(await contactsPage(`${sort}&limit=1000`, email));
    const seen: string[] = [];
    let cursor = "";
    do {
      const res = await contactsPage(`${sort}&limit=9&cursor=${encodeURIComponent(cursor)}`, email);
      expect(res.status).toBe(200);
      seen.push(...uuids(res));
      cursor = res.body.meta.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
  });

  it("is 422 for a cursor of the clients list", async () => {
    const cursor = (await get("limit=2&cursor=")).body.meta.next_cursor;
    expect((await contactsPage(`limit=2&cursor=${cursor}`)).status).toBe(422);
  });
});
