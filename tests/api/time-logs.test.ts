// GET /time-logs: the spec's time log object, filters, order and paging, and who sees whose time.
import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as timeLogs from "@/app/api/v1/time-logs/route";
import { prisma } from "@/lib/db/client";
import { call, tokenFor, userByEmail } from "../support/api";

async function list(query = "", email = "owner@acme.test") {
  return call(timeLogs, "GET", `time-logs${query ? `?${query}` : ""}`, { token: await tokenFor(email) });
}

async function listUuids(query: string, email = "owner@acme.test") {
  const res = await list(`per_page=1000&${query}`, email);
  expect(res.status).toBe(200);
  expect(res.body.meta.total).toBe(res.body.data.length);
  return res.body.data.map((l: any) => l.uuid);
}

async function storedLogs(tenantId: number) {
  return (await prisma()).timeLog.findMany({ where: { tenantId }, include: { job: true, client: true } });
}

type StoredLog = Awaited<ReturnType<typeof storedLogs>>[number];

const day = (date: Date) => date.toISOString().slice(0, 10);
const sortedUuids = (rows: { uuid: string }[]) => rows.map((r) => r.uuid).sort();

/** The order of the spec: newest date first, then newest created first, then uuid. */
const newestFirst = (a: StoredLog, b: StoredLog) =>
  b.date.getTime() - a.date.getTime() || b.createdAt.getTime() - a.createdAt.getTime() || (a.uuid < b.uuid ? -1 : 1);

let acme: number;
let owner: Awaited<ReturnType<typeof userByEmail>>;

beforeAll(async () => {
  owner = await userByEmail("owner@acme.test");
  acme = owner.tenantId;
  const client = await prisma();
  // Probes for the arithmetic of hours, for a log with neither job nor client, and for ranges on a fixed clock.
  await client.timeLog.createMany({
    data: [
      { minutes: 20, note: "HoursProbe twenty" },
      { minutes: 100, note: "HoursProbe hundred" },
      { minutes: 125, note: "HoursProbe odd" },
      { minutes: 1500, note: "HoursProbe long day" },
      { minutes: 1, note: "HoursProbe one minute" },
    ].map((log) => ({ ...log, tenantId: acme, userId: owner.id, date: new Date("2026-09-05T00:00:00Z") })),
  });
  await client.timeLog.createMany({
    data: ["2026-11-22", "2026-11-23", "2026-10-31", "2026-12-31"].map((date) => ({
      tenantId: acme,
      userId: owner.id,
      minutes: 30,
      note: `RangeProbe ${date}`,
      date: new Date(`${date}T00:00:00Z`),
    })),
  });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("the time log object", () => {
  it("carries exactly the spec's fields", async () => {
    const res = await list("per_page=1");
    expect(res.status).toBe(200);
    const [log] = res.body.data;
    const stored = (await storedLogs(acme)).find((l) => l.uuid === log.uuid)!;
    const user = await (await prisma()).user.findFirstOrThrow({ where: { tenantId: acme, id: stored.userId } });
    expect(log).toEqual({
      uuid: stored.uuid,
      client: stored.client ? { uuid: stored.client.uuid, name: stored.client.name } : null,
      task: stored.job ? { uuid: stored.job.uuid, name: stored.job.name } : null,
      user: { id: user.id, fullname: `${user.firstname} ${user.lastname}` },
      note: stored.note,
      hours: expect.any(Number),
      hours_time: expect.stringMatching(/^\d{2,}:\d{2}$/),
      date: day(stored.date),
      formatted_date: expect.any(String),
      created_at: stored.createdAt.toISOString(),
      updated_at: stored.updatedAt.toISOString(),
    });
  });

  it("shows hours as a number rounded to two decimals and as HH:MM, the date for people, and null job and client", async () => {
    const res = await list("search=HoursProbe");
    const byNote = Object.fromEntries(res.body.data.map((l: any) => [l.note, l]));
    expect(byNote["HoursProbe twenty"]).toMatchObject({ hours: 0.33, hours_time: "00:20" });
    expect(byNote["HoursProbe hundred"]).toMatchObject({ hours: 1.67, hours_time: "01:40" });
    expect(byNote["HoursProbe odd"]).toMatchObject({ hours: 2.08, hours_time: "02:05" });
    expect(byNote["HoursProbe long day"]).toMatchObject({ hours: 25, hours_time: "25:00" });
    expect(byNote["HoursProbe one minute"]).toMatchObject({ hours: 0.02, hours_time: "00:01" });
    expect(byNote["HoursProbe twenty"]).toMatchObject({
      date: "2026-09-05",
      formatted_date: "5 Sep 2026",
      client: null,
      task: null,
    });
  });
});

describe("order and paging", () => {
  it("lists newest date first, then newest created, then by uuid", async () => {
    const all = await storedLogs(acme);
    expect(await listUuids("")).toEqual([...all].sort(newestFirst).map((l) => l.uuid));
  });

  it("pages by 100 by default, and pages add up to the whole list without overlap", async () => {
    const whole = await listUuids("");
    const first = await list();
    expect(first.body.meta).toEqual({
      current_page: 1,
      last_page: Math.ceil(whole.length / 100),
      per_page: 100,
      total: whole.length,
    });
    const pages: string[] = [];
    for (let page = 1; page <= Math.ceil(whole.length / 37); page++) {
      pages.push(...(await list(`per_page=37&page=${page}`)).body.data.map((l: any) => l.uuid));
    }
    expect(pages).toEqual(whole);
  });

  it("accepts limit as well as per_page", async () => {
    expect((await list("limit=7")).body.data).toHaveLength(7);
  });

  it("answers a page past the last with no data", async () => {
    const res = await list("per_page=1000&page=5");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.links.next).toBeNull();
  });
});

describe("filters", () => {
  const cases: [string, (all: StoredLog[]) => { query: string; expected: (l: StoredLog) => boolean }][] = [
    [
      "range FROM,TO (inclusive)",
      (all) => {
        const dates = [...new Set(all.map((l) => day(l.date)))].sort();
        const [from, to] = [dates[5], dates[12]];
        return { query: `range=${from},${to}`, expected: (l) => day(l.date) >= from && day(l.date) <= to };
      },
    ],
    ["range open at the end", () => ({ query: "range=2026-11-01,", expected: (l) => day(l.date) >= "2026-11-01" })],
    [
      "client_uuid",
      (all) => {
        const uuid = all.find((l) => l.client)!.client!.uuid;
        return { query: `client_uuid=${uuid}`, expected: (l) => l.client?.uuid === uuid };
      },
    ],
    [
      "tasks[]: any of the jobs",
      (all) => {
        const jobs = [...new Set(all.filter((l) => l.job).map((l) => l.job!.uuid))].slice(0, 2);
        return { query: jobs.map((u) => `tasks[]=${u}`).join("&"), expected: (l) => jobs.includes(l.job?.uuid ?? "") };
      },
    ],
    [
      "users[]",
      (all) => {
        const users = [...new Set(all.map((l) => l.userId))].slice(0, 2);
        return { query: users.map((u) => `users[]=${u}`).join("&"), expected: (l) => users.includes(l.userId) };
      },
    ],
    [
      "search: a case-insensitive part of the note",
      () => ({ query: "search=CALL WITH", expected: (l) => l.note.toLowerCase().includes("call with") }),
    ],
  ];

  it.each(cases)("%s", async (_, build) => {
    const all = await storedLogs(acme);
    const { query, expected } = build(all);
    const matching = all.filter(expected);
    expect(matching.length).toBeGreaterThan(0);
    expect(matching.length).toBeLessThan(all.length);
    expect((await listUuids(query)).sort()).toEqual(sortedUuids(matching));
  });

  it.each([
    [
      "a job of another tenant",
      async () =>
        `tasks[]=${(await (await prisma()).job.findFirstOrThrow({ where: { tenantId: { not: acme } } })).uuid}`,
    ],
    [
      "a client of another tenant",
      async () =>
        `client_uuid=${(await (await prisma()).client.findFirstOrThrow({ where: { tenantId: { not: acme } } })).uuid}`,
    ],
    ["a job uuid nobody has", async () => `tasks[]=${randomUUID()}`],
    ["a search with LIKE wildcards", async () => "search=%25_"],
  ])("matches nothing for %s", async (_, query) => {
    const res = await list(await query());
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(0);
  });

  it.each([
    ["today", "owner@acme.test", ["2026-11-23"]],
    ["today", "admin@acme.test", ["2026-11-22"]],
    ["this_week", "owner@acme.test", ["2026-11-23"]],
    ["last_week", "owner@acme.test", ["2026-11-22"]],
    ["this_month", "owner@acme.test", ["2026-11-22", "2026-11-23"]],
    ["last_month", "owner@acme.test", ["2026-10-31"]],
    ["this_quarter", "owner@acme.test", ["2026-10-31", "2026-11-22", "2026-11-23", "2026-12-31"]],
    ["this_year", "admin@acme.test", ["2026-10-31", "2026-11-22", "2026-11-23", "2026-12-31"]],
    ["last_year", "owner@acme.test", []],
  ])("range=%s for %s, in their time zone", async (range, email, dates) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T03:00:00Z")); // Monday in London (owner), Sunday in New York (admin)
    const res = await list(`per_page=1000&search=RangeProbe&range=${range}`, email);
    expect(res.body.data.map((l: any) => l.date).sort()).toEqual(dates);
  });
});

describe("who sees whose time", () => {
  it.each([
    ["owner@acme.test", true],
    ["admin@acme.test", true],
    ["standard@acme.test", false],
    ["assigned@acme.test", false],
    ["groups@acme.test", false],
    ["viewer@acme.test", false],
  ])("%s sees everyone's time: %s", async (email, everyone) => {
    const user = await userByEmail(email);
    const all = await storedLogs(acme);
    const expected = everyone ? all : all.filter((l) => l.userId === user.id);
    expect(expected.length).toBeGreaterThan(0);
    expect((await listUuids("", email)).sort()).toEqual(sortedUuids(expected));
  });

  it("a user who sees only their own time gets nothing for other users", async () => {
    const standard = await userByEmail("standard@acme.test");
    expect(await listUuids(`users[]=${owner.id}`, "standard@acme.test")).toEqual([]);
    expect(
      (await listUuids(`users[]=${owner.id}&users[]=${standard.id}`, "standard@acme.test")).length,
    ).toBeGreaterThan(0);
  });

  it("another tenant sees only its own time logs", async () => {
    const birchOwner = await userByEmail("owner@birch.test");
    const birchLogs = await storedLogs(birchOwner.tenantId);
    expect((await listUuids("", "owner@birch.test")).sort()).toEqual(sortedUuids(birchLogs));
    expect(await listUuids(`users[]=${owner.id}`, "owner@birch.test")).toEqual([]);
  });
});

describe("bad input", () => {
  it.each([
    ["range", "range=someday"],
    ["range", "range=2026-02-29,"],
    ["range", "range=2026-12-01,2026-11-01"],
    ["tasks.0", "tasks[]=abc"],
    ["tasks.1", `tasks[]=${randomUUID()}&tasks[]=1`],
    ["users.0", "users[]=x"],
    ["client_uuid", "client_uuid=1"],
    ["per_page", "per_page=1001"],
    ["limit", "limit=0"],
    ["page", "page=0"],
    ["page", "page=-3"],
    ["search", "search=a&search=b"],
  ])("is 422 naming %s for %s", async (field, query) => {
    const res = await list(query);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it("is read-only (405) and needs a token (401)", async () => {
    const client = await prisma();
    const before = await client.timeLog.count();
    const res = await call(timeLogs, "POST", "time-logs", {
      token: await tokenFor("owner@acme.test"),
      body: { minutes: 30 },
    });
    expect(res.status).toBe(405);
    expect(await client.timeLog.count()).toBe(before);
    expect((await call(timeLogs, "GET", "time-logs")).status).toBe(401);
  });
});
