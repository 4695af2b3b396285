// updated_since and sort_by=updated_at on every list (decisions.md, Integrations): records with updated_at at or after
// the time, oldest change first, ties by uuid (users: by id); a value that is not a date and time is a 422.
import { describe, expect, it } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import * as contacts from "@/app/api/v1/contacts/route";
import * as jobs from "@/app/api/v1/jobs/route";
import * as timeLogs from "@/app/api/v1/time-logs/route";
import * as users from "@/app/api/v1/users/route";
import { prisma } from "@/lib/db/client";
import type { RouteModule } from "../support/api";
import { call, tokenFor, userByEmail } from "../support/api";

type Row = { updated_at: string; uuid?: string; id?: number };

/** Each list, what else it needs to show every record, and how to touch one of its records directly. */
const LISTS: [string, RouteModule, string, (tenantId: number) => Promise<string | number>][] = [
  [
    "clients",
    clients,
    "include_archived=true",
    async (tenantId) => {
      const db = await prisma();
      const row = await db.client.findFirstOrThrow({ where: { tenantId }, orderBy: { id: "desc" } });
      await db.client.update({ where: { tenantId_id: { tenantId, id: row.id } }, data: { city: "Touched" } });
      return row.uuid;
    },
  ],
  [
    "contacts",
    contacts,
    "",
    async (tenantId) => {
      const db = await prisma();
      const row = await db.contact.findFirstOrThrow({ where: { tenantId }, orderBy: { id: "desc" } });
      await db.contact.update({ where: { tenantId_id: { tenantId, id: row.id } }, data: { phoneNumber: "1" } });
      return row.uuid;
    },
  ],
  [
    "jobs",
    jobs,
    "include_completed=true",
    async (tenantId) => {
      const db = await prisma();
      const row = await db.job.findFirstOrThrow({ where: { tenantId }, orderBy: { id: "desc" } });
      await db.job.update({ where: { tenantId_id: { tenantId, id: row.id } }, data: { description: "Touched" } });
      return row.uuid;
    },
  ],
  [
    "time-logs",
    timeLogs,
    "",
    async (tenantId) => {
      const db = await prisma();
      const row = await db.timeLog.findFirstOrThrow({ where: { tenantId }, orderBy: { id: "desc" } });
      await db.timeLog.update({ where: { tenantId_id: { tenantId, id: row.id } }, data: { note: "Touched" } });
      return row.uuid;
    },
  ],
  [
    "users",
    users,
    "",
    async (tenantId) => {
      const db = await prisma();
      const row = await db.user.findFirstOrThrow({ where: { tenantId }, orderBy: { id: "desc" } });
      await db.user.update({ where: { tenantId_id: { tenantId, id: row.id } }, data: { timezone: "Europe/Paris" } });
      return row.id;
    },
  ],
];

describe.each(LISTS)("GET /%s", (path, route, extra, touch) => {
  const get = async (query: string) =>
    call<{ data: Row[]; errors?: Record<string, string[]> }>(route, "GET", `${path}?limit=1000&${extra}&${query}`, {
      token: await tokenFor("owner@acme.test"),
    });
  const key = (row: Row) => row.uuid ?? row.id;

  it("with sort_by=updated_at, lists oldest change first, ties in key order", async () => {
    const res = await get("sort_by=updated_at");
    expect(res.status).toBe(200);
    const rows = res.body.data;
    expect(rows.length).toBeGreaterThan(1);
    const sorted = [...rows].sort(
      (a, b) => a.updated_at.localeCompare(b.updated_at) || (key(a)! < key(b)! ? -1 : key(a)! > key(b)! ? 1 : 0),
    );
    expect(rows.map(key)).toEqual(sorted.map(key));
  });

  it("with updated_since, includes a record changed exactly then and leaves it out a millisecond later", async () => {
    const tenantId = (await userByEmail("owner@acme.test")).tenantId;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const touched = await touch(tenantId);
    const all = (await get("sort_by=updated_at")).body.data;
    const at = all.find((row) => key(row) === touched)!.updated_at;
    expect(all.at(-1)!.updated_at).toBe(at); // the newest change

    const since = await get(`sort_by=updated_at&updated_since=${encodeURIComponent(at)}`);
    expect(since.body.data.map(key)).toEqual(all.filter((row) => row.updated_at >= at).map(key));
    expect(since.body.data.map(key)).toContain(touched);
    const later = new Date(Date.parse(at) + 1).toISOString();
    expect((await get(`updated_since=${encodeURIComponent(later)}`)).body.data).toEqual([]);
    // The same instant written with an offset.
    const offset = at.replace(
      /^(\d{4}-\d\d-\d\d)T(\d\d)/,
      (_, d, h) => `${d}T${String((+h + 1) % 24).padStart(2, "0")}`,
    );
    if (+at.slice(11, 13) < 23)
      expect(
        (await get(`updated_since=${encodeURIComponent(offset.replace("Z", "+01:00"))}`)).body.data.map(key),
      ).toContain(touched);
  });

  it.each(["yesterday", "2026-11-22", "2026-13-01T00:00:00Z", "2026-11-22T10:00:00", "1", "2026-01-01,2026-12-31"])(
    "is 422 for updated_since=%s",
    async (value) => {
      const res = await get(`updated_since=${encodeURIComponent(value)}`);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors ?? {})).toEqual(["updated_since"]);
    },
  );

  it("is 422 for an unknown sort_by", async () => {
    expect((await get("sort_by=updatedAt")).status).toBe(422);
  });
});
