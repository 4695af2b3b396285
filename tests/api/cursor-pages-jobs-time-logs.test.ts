// Cursor pages of GET /jobs and GET /time-logs (decisions.md, Integrations): every sort the list offers, nulls last
// and the status sort included, walks each record once while records are written during the walk; a tampered or
// foreign cursor is a 422; a Standard user's pages hold only what it may see.
import { beforeAll, describe, expect, it } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import * as jobs from "@/app/api/v1/jobs/route";
import * as timeLogs from "@/app/api/v1/time-logs/route";
import { prisma } from "@/lib/db/client";
import { call, type RouteModule, tokenFor, userByEmail } from "../support/api";
import { addJobSortProbes } from "../support/job-sort-probes";

let tenantId: number;
beforeAll(async () => {
  const owner = await userByEmail("owner@acme.test");
  tenantId = owner.tenantId;
  await addJobSortProbes(tenantId, "Cursor");
});

const uuids = (res: { body: { data: { uuid: string }[] } }) => res.body.data.map((r) => r.uuid);

function list(route: RouteModule, path: string) {
  const get = async (query: string, email = "owner@acme.test") =>
    call(route, "GET", `${path}?${query}`, { token: await tokenFor(email) });

  /** Every record of the offset pages, in order. */
  async function all(query: string, email?: string) {
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const res = await get(`${query}&per_page=1000&page=${page}`, email);
      expect(res.status).toBe(200);
      seen.push(...uuids(res));
      if (page >= res.body.meta.last_page) return seen;
    }
  }

  /** Every page of a cursor walk from the start; `between` runs after each page. */
  async function walk(query: string, email?: string, between?: (page: number) => Promise<void>) {
    const seen: string[] = [];
    let cursor = "";
    for (let page = 0; page < 1000; page++) {
      const res = await get(`${query}&cursor=${encodeURIComponent(cursor)}`, email);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.meta).not.toHaveProperty("total");
      seen.push(...uuids(res));
      if (res.body.meta.next_cursor === null) return seen;
      cursor = res.body.meta.next_cursor;
      await between?.(page);
    }
    throw new Error("The walk did not end");
  }

  /** The 422s of cursors that this list with `query` must refuse: tampered, forged, of other filters or sorts. */
  async function expectRefused(query: string, otherQuery: string, foreign: string) {
    const cursor: string = (await get(`${query}&cursor=`)).body.meta.next_cursor;
    const [payload, signature] = cursor.split(".");
    const forged = Buffer.from(JSON.stringify(["x", "00000000-0000-4000-8000-000000000000"])).toString("base64url");
    for (const bad of [
      `${query}&cursor=${payload}.${signature.slice(0, -2)}xx`,
      `${query}&cursor=${forged}.${signature}`,
      `${query}&cursor=garbage`,
      `${query}&cursor=${foreign}`,
      `${otherQuery}&cursor=${cursor}`,
    ]) {
      const res = await get(bad);
      expect(res.status, bad).toBe(422);
      expect(Object.keys(res.body.errors), bad).toEqual(["cursor"]);
    }
    expect((await get(`${query}&cursor=${cursor}`)).status).toBe(200);
  }

  return { get, all, walk, expectRefused };
}

const clientsCursor = async () =>
  (await call(clients, "GET", "clients?limit=2&cursor=", { token: await tokenFor("owner@acme.test") })).body.meta
    .next_cursor as string;

describe("GET /jobs?cursor=", () => {
  const jobList = list(jobs, "jobs");

  it("answers the cursor envelope (cursor= is no longer ignored)", async () => {
    const res = await jobList.get("per_page=2&cursor=");
    expect(res.status).toBe(200);
    expect(res.body.links).toEqual({ first: null, last: null, prev: null, next: expect.stringContaining("cursor=") });
    expect(res.body.meta).toEqual({
      path: "http://localhost/api/v1/jobs",
      per_page: 2,
      next_cursor: expect.any(String),
      prev_cursor: null,
    });
  });

  it.each(
    ["name", "start_date", "due_date", "created_at", "updated_at", "status", "estimated_hours"].flatMap((sort) =>
      ["asc", "desc"].map((direction) => `sort_by=${sort}&sort_direction=${direction}`),
    ),
  )("with %s, visits every job once, in the order of the offset pages", async (sort) => {
    const query = `${sort}&include_completed=true`;
    const expected = await jobList.all(query);
    expect(expected.length).toBeGreaterThan(200);
    expect(await jobList.walk(`${query}&per_page=13`)).toEqual(expected);
  });

  it.each(["sort_by=updated_at", "sort_by=due_date", "sort_by=status&sort_direction=desc"])(
    "with %s, visits every job that existed and did not change once, while jobs are created and changed during the walk",
    async (sort) => {
      const db = await prisma();
      const before = await db.job.findMany({ where: { tenantId }, select: { id: true, uuid: true } });
      const changed = new Set<string>();
      const seen = await jobList.walk(`${sort}&include_completed=true&per_page=17`, undefined, async (page) => {
        await db.job.create({
          data: { tenantId, name: `Walk insert ${sort} ${page}`, dueDate: new Date("2026-01-01") },
        });
        const target = before[(page * 11) % before.length];
        changed.add(target.uuid);
        await db.job.update({
          where: { tenantId_id: { tenantId, id: target.id } },
          data: { name: `Walk change ${page}`, dueDate: null, statusId: null },
        });
      });
      const times = (uuid: string) => seen.filter((seenUuid) => seenUuid === uuid).length;
      for (const { uuid } of before) if (!changed.has(uuid)) expect(times(uuid), uuid).toBe(1);
      for (const uuid of changed) expect(times(uuid)).toBeLessThanOrEqual(2);
      expect(new Set(seen).size).toBe(seen.length - [...changed].filter((uuid) => times(uuid) === 2).length);
    },
  );

  it("keeps a Standard user's pages within what it may see, and refuses a cursor made for another user", async () => {
    const email = "assigned@acme.test";
    const visible = await jobList.all("include_completed=true", email);
    expect(visible.length).toBeLessThan((await jobList.all("include_completed=true")).length);
    expect(await jobList.walk("include_completed=true&per_page=5", email)).toEqual(visible);
    const ownersCursor = (await jobList.get("include_completed=true&per_page=5&cursor=")).body.meta.next_cursor;
    const res = await jobList.get(`include_completed=true&per_page=5&cursor=${ownersCursor}`, email);
    expect(res.status).toBe(422);
  });

  it("is 422 for a tampered, forged or foreign cursor, and for one made with other filters or sort", async () => {
    await jobList.expectRefused("per_page=3&sort_by=status", "per_page=3&sort_by=name", await clientsCursor());
    await jobList.expectRefused("per_page=3&sort_by=due_date", "per_page=3&include_completed=true", "a.b");
  });
});

describe("GET /time-logs?cursor=", () => {
  const logList = list(timeLogs, "time-logs");

  it.each(["sort_by=date", "sort_by=updated_at"])(
    "with %s, visits every time log once, in the order of the offset pages",
    async (sort) => {
      const expected = await logList.all(sort);
      expect(expected.length).toBeGreaterThan(100);
      expect(await logList.walk(`${sort}&per_page=97`)).toEqual(expected);
    },
  );

  it("visits every time log that existed and did not move once, while logs are created and changed during the walk", async () => {
    const db = await prisma();
    const owner = await userByEmail("owner@acme.test");
    const before = await db.timeLog.findMany({ where: { tenantId }, select: { id: true, uuid: true } });
    const changed = new Set<string>();
    const seen = await logList.walk("sort_by=date&per_page=101", undefined, async (page) => {
      // New logs on the newest date (behind the walk) and on an old one (ahead of it).
      for (const date of ["2099-01-01", "2000-01-01"])
        await db.timeLog.create({ data: { tenantId, userId: owner.id, minutes: 30, date: new Date(date) } });
      const target = before[(page * 37) % before.length];
      changed.add(target.uuid);
      // A new note moves nothing in a date sort: the log must still be seen exactly once.
      await db.timeLog.update({ where: { tenantId_id: { tenantId, id: target.id } }, data: { note: `Walk ${page}` } });
    });
    const times = (uuid: string) => seen.filter((seenUuid) => seenUuid === uuid).length;
    for (const { uuid } of before) expect(times(uuid), uuid).toBe(1);
    const inserted = await db.timeLog.findMany({ where: { tenantId, date: new Date("2000-01-01") } });
    for (const { uuid } of inserted) expect(times(uuid)).toBe(1);
  });

  it("gives a user without time_logs.view_all only their own time logs", async () => {
    const email = "standard@acme.test";
    const own = await logList.all("sort_by=date", email);
    expect(own.length).toBeGreaterThan(0);
    expect(own.length).toBeLessThan((await logList.all("sort_by=date")).length);
    expect(await logList.walk("sort_by=date&per_page=7", email)).toEqual(own);
  });

  it("is 422 for a tampered, forged or foreign cursor, and for one made with other filters or sort", async () => {
    const jobsCursor = (await list(jobs, "jobs").get("per_page=2&cursor=")).body.meta.next_cursor;
    await logList.expectRefused("per_page=3", "per_page=3&sort_by=updated_at", jobsCursor);
    await logList.expectRefused("per_page=3&sort_by=updated_at", "per_page=3&range=this_year", await clientsCursor());
  });
});
