// meta.total of every list is the true count, whether it comes from the totals the triggers keep (unfiltered lists)
// or from a count (filtered ones); and an offset page (lib/db/wire-list.ts) read from the end of the list, or from
// the day the per-day counts point at (time logs), holds exactly the rows of the plain OFFSET query.
import { beforeAll, describe, expect, it } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import * as contacts from "@/app/api/v1/contacts/route";
import * as jobs from "@/app/api/v1/jobs/route";
import * as timeLogs from "@/app/api/v1/time-logs/route";
import { prisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { call, type RouteModule, tokenFor, userByEmail } from "../support/api";

let db: PrismaClient;
let acme: number;
let birch: number;
let owner: number;
let standard: number;

const routes: Record<string, RouteModule> = { clients, contacts, jobs, "time-logs": timeLogs };

async function list(path: string, query: string, email = "owner@acme.test") {
  const res = await call(routes[path], "GET", `${path}?${query}`, { token: await tokenFor(email) });
  expect(res.status).toBe(200);
  return res.body as { data: { uuid: string }[]; meta: { total: number; last_page: number } };
}

/** The uuids of the plain OFFSET query: `sql` selects uuid with its filter and order, then LIMIT and OFFSET. */
async function naive(sql: string, take: number, skip: number, ...params: unknown[]) {
  const rows = await db.$queryRawUnsafe<{ uuid: string }[]>(`${sql} LIMIT ${take} OFFSET ${skip}`, ...params);
  return rows.map((r) => r.uuid);
}

const NAIVE = {
  clients: `SELECT uuid::text FROM clients WHERE tenant_id = $1 AND NOT is_archived ORDER BY name, uuid`,
  archivedToo: `SELECT uuid::text FROM clients WHERE tenant_id = $1 ORDER BY name DESC, uuid DESC`,
  contacts: `SELECT uuid::text FROM contacts WHERE tenant_id = $1 ORDER BY lastname, firstname, uuid`,
  jobs: `SELECT uuid::text FROM jobs WHERE tenant_id = $1 AND NOT is_completed ORDER BY due_date NULLS LAST, uuid`,
  timeLogs: `SELECT uuid::text FROM time_logs WHERE tenant_id = $1 ORDER BY date DESC, created_at DESC, uuid`,
  timeLogsOfUsers: `SELECT uuid::text FROM time_logs WHERE tenant_id = $1 AND user_id = ANY($2::int[])
    AND date BETWEEN DATE '2030-01-03' AND DATE '2030-01-09' ORDER BY date DESC, created_at DESC, uuid`,
};

/** Every page of `size` of the list, and the one past the last, against the plain OFFSET query. */
async function expectEveryPage(path: string, query: string, sql: string, size: number, params: unknown[]) {
  const first = await list(path, `${query}&per_page=${size}`);
  const pages = Math.ceil(first.meta.total / size);
  expect(pages).toBeGreaterThan(3);
  for (let page = 1; page <= pages + 1; page++) {
    const res = await list(path, `${query}&per_page=${size}&page=${page}`);
    expect(res.meta.total).toBe(first.meta.total);
    expect(res.data.map((r) => r.uuid)).toEqual(await naive(sql, size, (page - 1) * size, ...params));
  }
  const skipped = await list(path, `${query}&per_page=${size}&page=${pages + 50}`);
  expect(skipped.data).toEqual([]);
}

const count = async (sql: string, ...params: unknown[]) =>
  Number((await db.$queryRawUnsafe<{ n: bigint }[]>(sql, ...params))[0].n);

beforeAll(async () => {
  db = await prisma();
  ({ tenantId: acme, id: owner } = await userByEmail("owner@acme.test"));
  standard = (await userByEmail("standard@acme.test")).id;
  birch = (await userByEmail("owner@birch.test")).tenantId;
  // Many rows with equal sort keys (ties broken by uuid), some archived or completed; and the same in the other
  // tenant, which no total of this one may count.
  for (const tenantId of [acme, birch]) {
    await db.client.createMany({
      data: Array.from({ length: 90 }, (_, i) => ({ tenantId, name: `Tie ${i % 4}`, isArchived: i % 5 === 0 })),
    });
    await db.contact.createMany({
      data: Array.from({ length: 60 }, (_, i) => ({
        tenantId,
        firstname: `F${i % 2}`,
        lastname: `Same${i % 3}`,
        preferredName: "",
        email: `deep${i}@t${tenantId}.test`,
      })),
    });
    await db.job.createMany({
      data: Array.from({ length: 80 }, (_, i) => ({
        tenantId,
        name: `Deep job ${i}`,
        dueDate: i % 4 === 0 ? null : new Date(`2030-02-0${(i % 3) + 1}T00:00:00Z`),
        isCompleted: i % 6 === 0,
      })),
    });
  }
  // Time logs over ten days, 1 to 20 a day and user, created in a few statements (equal created_at within one).
  const users = [owner, standard];
  for (let batch = 0; batch < 3; batch++) {
    await db.timeLog.createMany({
      data: Array.from({ length: 90 }, (_, i) => ({
        tenantId: acme,
        userId: users[i % 2],
        minutes: 10,
        note: `deep page ${batch}`,
        date: new Date(`2030-01-${String((i % 10) + 1).padStart(2, "0")}T00:00:00Z`),
      })),
    });
  }
  const birchOwner = (await userByEmail("owner@birch.test")).id;
  await db.timeLog.createMany({
    data: Array.from({ length: 40 }, (_, i) => ({
      tenantId: birch,
      userId: birchOwner,
      minutes: 5,
      date: new Date(`2030-01-0${(i % 9) + 1}T00:00:00Z`),
    })),
  });
});

describe("meta.total", () => {
  it("is the true count of each unfiltered list, of this tenant only", async () => {
    const cases: [string, string, string][] = [
      ["clients", "", "SELECT count(*) AS n FROM clients WHERE tenant_id = $1 AND NOT is_archived"],
      ["clients", "include_archived=true", "SELECT count(*) AS n FROM clients WHERE tenant_id = $1"],
      ["contacts", "", "SELECT count(*) AS n FROM contacts WHERE tenant_id = $1"],
      ["jobs", "", "SELECT count(*) AS n FROM jobs WHERE tenant_id = $1 AND NOT is_completed"],
      ["jobs", "include_completed=true", "SELECT count(*) AS n FROM jobs WHERE tenant_id = $1"],
      ["time-logs", "", "SELECT count(*) AS n FROM time_logs WHERE tenant_id = $1"],
    ];
    for (const [path, query, sql] of cases) {
      for (const [email, tenantId] of [
        ["owner@acme.test", acme],
        ["owner@birch.test", birch],
      ] as const) {
        expect([path, query, email, (await list(path, `${query}&limit=1`, email)).meta.total]).toEqual([
          path,
          query,
          email,
          await count(sql, tenantId),
        ]);
      }
    }
  });

  it("is the true count of filtered lists and of lists narrowed by visibility", async () => {
    const cases: [string, string, string, string, unknown[]][] = [
      [
        "clients",
        "search=tie",
        "owner@acme.test",
        "SELECT count(*) AS n FROM clients WHERE tenant_id = $1 AND NOT is_archived AND search_text ILIKE '%tie%'",
        [acme],
      ],
      [
        "contacts",
        "search=same1",
        "owner@acme.test",
        `SELECT count(*) AS n FROM contacts WHERE tenant_id = $1
         AND (firstname ILIKE '%same1%' OR lastname ILIKE '%same1%' OR preferred_name ILIKE '%same1%')`,
        [acme],
      ],
      [
        "jobs",
        "search=deep",
        "owner@acme.test",
        "SELECT count(*) AS n FROM jobs WHERE tenant_id = $1 AND NOT is_completed AND name ILIKE '%deep%'",
        [acme],
      ],
      [
        "time-logs",
        "range=2030-01-03,2030-01-09",
        "owner@acme.test",
        "SELECT count(*) AS n FROM time_logs WHERE tenant_id = $1 AND date BETWEEN '2030-01-03' AND '2030-01-09'",
        [acme],
      ],
      [
        "time-logs",
        "search=deep",
        "owner@acme.test",
        "SELECT count(*) AS n FROM time_logs WHERE tenant_id = $1 AND note ILIKE '%deep%'",
        [acme],
      ],
      // No time_logs.view_all: their own time logs only.
      [
        "time-logs",
        "",
        "standard@acme.test",
        "SELECT count(*) AS n FROM time_logs WHERE tenant_id = $1 AND user_id = $2",
        [acme, standard],
      ],
    ];
    for (const [path, query, email, sql, params] of cases) {
      const { total } = (await list(path, `${query}&limit=1`, email)).meta;
      expect([path, query, total]).toEqual([path, query, await count(sql, ...params)]);
      expect(total).toBeGreaterThan(0);
    }
    // A user who sees only some clients (client groups): the total is the number of rows the list holds.
    const everything = { clients: "include_archived=true", contacts: "", jobs: "include_completed=true" };
    for (const [path, query] of Object.entries(everything)) {
      const seen = await list(path, `limit=1000&${query}`, "groups@acme.test");
      expect(seen.meta.total).toBe(seen.data.length);
      expect(seen.meta.total).toBeLessThan((await list(path, `limit=1&${query}`)).meta.total);
    }
  });
});

describe("deep offset pages hold the rows of the plain OFFSET query", () => {
  it("clients by name, with ties on the name, both ways and with archived ones", async () => {
    await expectEveryPage("clients", "", NAIVE.clients, 7, [acme]);
    await expectEveryPage("clients", "include_archived=true&sort_direction=desc", NAIVE.archivedToo, 9, [acme]);
  });

  it("contacts by last and first name", async () => {
    await expectEveryPage("contacts", "", NAIVE.contacts, 8, [acme]);
  });

  it("jobs by due date, nulls last", async () => {
    await expectEveryPage("jobs", "", NAIVE.jobs, 11, [acme]);
  });

  it("time logs newest first, pages straddling days, unfiltered and filtered by users and dates", async () => {
    await expectEveryPage("time-logs", "", NAIVE.timeLogs, 13, [acme]);
    await expectEveryPage(
      "time-logs",
      `users[]=${standard}&users[]=${owner}&range=2030-01-03,2030-01-09`,
      NAIVE.timeLogsOfUsers,
      6,
      [acme, [standard, owner]],
    );
  });

  it("time logs of a user without view_all: their own only", async () => {
    const sql = `SELECT uuid::text FROM time_logs WHERE tenant_id = $1 AND user_id = $2 ORDER BY date DESC, created_at DESC, uuid`;
    const size = 17;
    for (let page = 1; page <= 11; page++) {
      const res = await list("time-logs", `per_page=${size}&page=${page}`, "standard@acme.test");
      expect(res.data.map((r) => r.uuid)).toEqual(await naive(sql, size, (page - 1) * size, acme, standard));
    }
  });
});
