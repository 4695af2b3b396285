// A cursor's length is bounded whatever the records hold (decisions.md, Integrations): a sort value too long to
// carry (a name of 150 control characters is 900 characters as JSON) is carried as a reference to its row and read
// back in SQL, so that the server never makes a cursor it refuses itself (the query's cursor is at most 1,000
// characters). The walk still visits every record once, forwards and back, and a row gone since is a 422.
import { beforeAll, describe, expect, it } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import * as jobs from "@/app/api/v1/jobs/route";
import { prisma } from "@/lib/db/client";
import { call, tokenFor, userByEmail } from "../support/api";

let tenantId: number;
let clientUuid: string;
const LONG = "\u0001".repeat(149);
const names = [`${LONG}c`, `${LONG}a`, "short", `${LONG}b`];

beforeAll(async () => {
  tenantId = (await userByEmail("owner@acme.test")).tenantId;
  const db = await prisma();
  const client = await db.client.create({ data: { tenantId, name: "\u0002".repeat(100) } });
  clientUuid = client.uuid;
  for (const name of names) await db.job.create({ data: { tenantId, name, clientId: client.id } });
});

const get = async (path: string) => call(jobs, "GET", path, { token: await tokenFor("owner@acme.test") });
const page = (cursor: string) => get(`jobs?client_uuid=${clientUuid}&sort_by=name&per_page=1&cursor=${cursor}`);

describe("cursors over long sort values", () => {
  it("stay short, and walk every job once in order, forwards and back", async () => {
    const forward: string[] = [];
    const cursors: string[] = [];
    let res = await page("");
    for (;;) {
      expect(res.status).toBe(200);
      forward.push(...res.body.data.map((j: { name: string }) => j.name));
      for (const c of [res.body.meta.next_cursor, res.body.meta.prev_cursor]) if (c) cursors.push(c);
      if (!res.body.meta.next_cursor) break;
      res = await page(encodeURIComponent(res.body.meta.next_cursor));
    }
    expect(forward).toEqual([...names].sort());
    for (const c of cursors) expect(c.length).toBeLessThan(300);

    const back: string[] = [];
    while (res.body.meta.prev_cursor) {
      res = await page(encodeURIComponent(res.body.meta.prev_cursor));
      expect(res.status).toBe(200);
      back.unshift(...res.body.data.map((j: { name: string }) => j.name));
    }
    expect(back).toEqual(forward.slice(0, -1));
  });

  it("of clients too: a name of 100 control characters", async () => {
    const token = await tokenFor("owner@acme.test");
    const first = await call(clients, "GET", "clients?sort_by=name&limit=1&cursor=", { token });
    expect(first.body.data[0].uuid).toBe(clientUuid); // U+0002 sorts before every letter
    expect(first.body.meta.next_cursor.length).toBeLessThan(300);
    const next = await call(
      clients,
      "GET",
      `clients?sort_by=name&limit=1&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`,
      { token },
    );
    expect(next.status).toBe(200);
    expect(next.body.data[0].uuid).not.toBe(clientUuid);
    const prev = await call(
      clients,
      "GET",
      `clients?sort_by=name&limit=1&cursor=${encodeURIComponent(next.body.meta.prev_cursor)}`,
      { token },
    );
    expect(prev.body.data.map((c: { uuid: string }) => c.uuid)).toEqual([clientUuid]);
  });

  it("standing at a row deleted since: 422, start again", async () => {
    const db = await prisma();
    const client = await db.client.create({ data: { tenantId, name: "Gone" } });
    const job = await db.job.create({ data: { tenantId, name: `${LONG}z`, clientId: client.id } });
    await db.job.create({ data: { tenantId, name: "After it", clientId: client.id } });
    const first = await get(`jobs?client_uuid=${client.uuid}&sort_by=name&per_page=1&cursor=`);
    expect(first.body.data[0].name).toBe(`${LONG}z`);
    await db.job.delete({ where: { tenantId_id: { tenantId, id: job.id } } });
    const res = await get(
      `jobs?client_uuid=${client.uuid}&sort_by=name&per_page=1&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`,
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.cursor[0]).toMatch(/start again/);
  });
});
