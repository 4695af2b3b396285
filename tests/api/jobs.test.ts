// GET /jobs, GET /jobs/{uuid} and POST /jobs, checked against the stored data read directly (an oracle in plain
// JavaScript), for every filter, sort, validation rule, visibility and tenant boundary.
import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as jobByUuid from "@/app/api/v1/jobs/[uuid]/route";
import * as jobs from "@/app/api/v1/jobs/route";
import { MAX_BODY_BYTES } from "@/lib/api/request";
import { todayIn } from "@/lib/core/dates";
import { prisma } from "@/lib/db/client";
import { call, tokenFor, userByEmail } from "../support/api";

const LIST_KEYS = [
  "client_uuid",
  "due_date",
  "estimated_hours",
  "is_completed",
  "is_overdue",
  "is_repeating",
  "name",
  "start_date",
  "status",
  "updated_at",
  "uuid",
];

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

async function list(query = "", email = "owner@acme.test") {
  return call(jobs, "GET", `jobs${query ? `?${query}` : ""}`, { token: await tokenFor(email) });
}

/** Uuids of every job a list returns (one page of up to 1000). */
async function listUuids(query: string, email = "owner@acme.test") {
  const res = await list(`limit=1000&${query}`, email);
  expect(res.status).toBe(200);
  return res.body.data.map((j: any) => j.uuid);
}

async function get(uuid: string, email = "owner@acme.test") {
  return call(jobByUuid, "GET", `jobs/${uuid}`, { token: await tokenFor(email), params: { uuid } });
}

async function post(body: unknown, email = "owner@acme.test") {
  return call(jobs, "POST", "jobs", { token: await tokenFor(email), body });
}

/** Every job of a tenant with what the filters look at, straight from the database. */
async function storedJobs(tenantId: number) {
  const client = await prisma();
  return client.job.findMany({
    where: { tenantId },
    include: {
      status: true,
      client: { include: { groups: true, jobs: { include: { assignees: true } } } },
      assignees: true,
      followers: true,
      tags: true,
    },
  });
}

type StoredJob = Awaited<ReturnType<typeof storedJobs>>[number];

const uuidsOf = (rows: { uuid: string }[]) => rows.map((r) => r.uuid).sort();

/** Counts of everything a job create writes, to prove that a refused request wrote nothing. */
async function writtenRows() {
  const client = await prisma();
  return {
    jobs: await client.job.count(),
    assignees: await client.jobAssignee.count(),
    tags: await client.jobTag.count(),
  };
}

let acme: number;
let birch: number;
let acmeTag: { id: number; name: string };
let birchTag: number;
let birchClient: string;

beforeAll(async () => {
  const client = await prisma();
  acme = (await userByEmail("owner@acme.test")).tenantId;
  birch = (await userByEmail("owner@birch.test")).tenantId;
  acmeTag = await client.tag.findFirstOrThrow({ where: { tenantId: acme, name: "VAT" } });
  birchTag = (await client.tag.findFirstOrThrow({ where: { tenantId: birch } })).id;
  birchClient = (await client.client.findFirstOrThrow({ where: { tenantId: birch } })).uuid;
});

afterEach(() => {
  vi.useRealTimers();
});

describe("GET /jobs: shape and defaults", () => {
  it("answers the list shape of the spec, in the pagination envelope", async () => {
    const res = await list("limit=5");
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ current_page: 1, per_page: 5 });
    expect(res.body.links.first).toMatch(/^http:\/\/localhost\/api\/v1\/jobs\?limit=5&page=1$/);
    for (const job of res.body.data) expect(Object.keys(job).sort()).toEqual(LIST_KEYS);

    const first = res.body.data[0];
    const stored = (await storedJobs(acme)).find((j) => j.uuid === first.uuid)!;
    expect(first).toEqual({
      uuid: stored.uuid,
      name: stored.name,
      status: stored.status?.slug ?? null,
      client_uuid: stored.client?.uuid ?? null,
      estimated_hours: stored.estimatedHours === null ? null : Number(stored.estimatedHours),
      start_date: day(stored.startDate),
      due_date: day(stored.dueDate),
      is_overdue: expect.any(Boolean),
      is_completed: stored.isCompleted,
      is_repeating: stored.repeatSettings !== null,
      updated_at: stored.updatedAt.toISOString(),
    });
  });

  it("leaves completed jobs out unless include_completed=true, and pages by 100 by default", async () => {
    const stored = await storedJobs(acme);
    const open = stored.filter((j) => !j.isCompleted);
    expect(open.length).toBeLessThan(stored.length);

    const res = await list();
    expect(res.body.meta).toEqual({
      current_page: 1,
      last_page: Math.ceil(open.length / 100),
      per_page: 100,
      total: open.length,
    });
    expect(res.body.data).toHaveLength(100);
    expect(res.body.data.every((j: any) => !j.is_completed)).toBe(true);

    expect((await list("include_completed=true&per_page=1")).body.meta.total).toBe(stored.length);
    expect((await list("include_completed=false&per_page=1")).body.meta.total).toBe(open.length);
  });

  it("marks as overdue exactly the open jobs due before today", async () => {
    const today = todayIn("Europe/London"); // the tenant's time zone
    const res = await list("limit=1000&include_completed=true");
    for (const job of res.body.data)
      expect(job.is_overdue).toBe(!job.is_completed && job.due_date !== null && job.due_date < today);
    expect(res.body.data.some((j: any) => j.is_overdue)).toBe(true);
    expect(res.body.data.some((j: any) => j.is_repeating)).toBe(true);
  });
});

describe("GET /jobs: filters", () => {
  const cases: [string, (all: StoredJob[]) => { query: string; expected: (j: StoredJob) => boolean }][] = [
    [
      "search: a case-insensitive part of the name",
      () => ({ query: "search=vAt RET", expected: (j) => j.name.toLowerCase().includes("vat ret") }),
    ],
    [
      "client_uuid",
      (all) => {
        const uuid = all.find((j) => j.client)!.client!.uuid;
        return { query: `client_uuid=${uuid.toUpperCase()}`, expected: (j) => j.client?.uuid === uuid };
      },
    ],
    [
      "users[]: any of the assignees",
      (all) => {
        const ids = [...new Set(all.flatMap((j) => j.assignees.map((a) => a.userId)))].slice(0, 2);
        return {
          query: ids.map((id) => `users[]=${id}`).join("&"),
          expected: (j) => j.assignees.some((a) => ids.includes(a.userId)),
        };
      },
    ],
    ["tags[]", () => ({ query: `tags[]=${acmeTag.id}`, expected: (j) => j.tags.some((t) => t.tagId === acmeTag.id) })],
    [
      "statuses[]",
      () => ({
        query: "statuses[]=in-progress&statuses[]=awaiting-client",
        expected: (j) => ["in-progress", "awaiting-client"].includes(j.status?.slug ?? ""),
      }),
    ],
    [
      "start_date_range FROM,TO (inclusive)",
      (all) => {
        const dates = all.map((j) => day(j.startDate)!).sort();
        const [from, to] = [dates[20], dates[60]];
        return {
          query: `start_date_range=${from},${to}`,
          expected: (j) => day(j.startDate)! >= from && day(j.startDate)! <= to,
        };
      },
    ],
    [
      "due_date_range open at the start",
      (all) => {
        const to = all.map((j) => day(j.dueDate)!).sort()[30];
        return { query: `due_date_range=,${to}`, expected: (j) => day(j.dueDate)! <= to };
      },
    ],
    [
      "due_date_range open at the end",
      (all) => {
        const from = all.map((j) => day(j.dueDate)!).sort()[150];
        return { query: `due_date_range=${from},`, expected: (j) => day(j.dueDate)! >= from };
      },
    ],
    ["exclude_subtasks", () => ({ query: "exclude_subtasks=true", expected: (j) => j.parentId === null })],
    ["exclude_client_requests", () => ({ query: "exclude_client_requests=true", expected: (j) => !j.isClientRequest })],
    [
      "several filters together",
      () => ({
        query: `statuses[]=not-started&tags[]=${acmeTag.id}&exclude_subtasks=true`,
        expected: (j) =>
          j.status?.slug === "not-started" && j.tags.some((t) => t.tagId === acmeTag.id) && j.parentId === null,
      }),
    ],
  ];

  it.each(cases)("%s", async (_, build) => {
    const all = await storedJobs(acme);
    const { query, expected } = build(all);
    const matching = all.filter(expected);
    expect(matching.length).toBeGreaterThan(0);
    expect(matching.length).toBeLessThan(all.length);
    expect((await listUuids(`include_completed=true&${query}`)).sort()).toEqual(uuidsOf(matching));
  });

  it("combines with the default that leaves completed jobs out", async () => {
    const all = await storedJobs(acme);
    const expected = all.filter((j) => j.tags.some((t) => t.tagId === acmeTag.id) && !j.isCompleted);
    expect((await listUuids(`tags[]=${acmeTag.id}`)).sort()).toEqual(uuidsOf(expected));
  });

  it.each([
    ["a tag id of another tenant", () => `tags[]=${birchTag}`],
    ["a client uuid of another tenant", () => `client_uuid=${birchClient}`],
    ["a status slug nobody has", () => "statuses[]=nope"],
    ["a user id nobody has", () => "users[]=999999"],
    ["a search nothing contains", () => `search=${encodeURIComponent("%_' OR 1=1 --")}`],
  ])("matches nothing for %s", async (_, query) => {
    const res = await list(`include_completed=true&${query()}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.total).toBe(0);
  });

  describe("named date ranges, in the caller's time zone", () => {
    // 03:00 UTC on Monday 23 November 2026: Monday in London (the owner), still Sunday evening in New York (the admin).
    const NOW = new Date("2026-11-23T03:00:00Z");
    let sunday: string;
    let monday: string;

    beforeAll(async () => {
      sunday = (await post({ name: "RangeProbe sunday", start_date: "2026-11-01", due_date: "2026-11-22" })).body.uuid;
      monday = (await post({ name: "RangeProbe monday", start_date: "2026-11-01", due_date: "2026-11-23" })).body.uuid;
    });

    const probe = async (range: string, email: string) => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(NOW);
      return listUuids(`search=RangeProbe&due_date_range=${range}`, email);
    };

    it.each([
      ["today", "owner@acme.test", () => [monday]],
      ["today", "admin@acme.test", () => [sunday]],
      ["yesterday", "owner@acme.test", () => [sunday]],
      ["this_week", "owner@acme.test", () => [monday]],
      ["this_week", "admin@acme.test", () => [sunday]],
      ["last_week", "owner@acme.test", () => [sunday]],
      ["last_week", "admin@acme.test", () => []],
      ["this_month", "owner@acme.test", () => [sunday, monday]],
      ["last_month", "owner@acme.test", () => []],
      ["this_quarter", "admin@acme.test", () => [sunday, monday]],
      ["last_quarter", "owner@acme.test", () => []],
      ["this_year", "owner@acme.test", () => [sunday, monday]],
      ["last_year", "owner@acme.test", () => []],
    ])("due_date_range=%s for %s", async (range, email, expected) => {
      expect((await probe(range, email)).sort()).toEqual(expected().sort());
    });

    it("applies to start_date_range too", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(NOW);
      expect((await listUuids("search=RangeProbe&start_date_range=this_month")).sort()).toEqual(
        [sunday, monday].sort(),
      );
      expect(await listUuids("search=RangeProbe&start_date_range=this_week")).toEqual([]);
    });
  });
});

describe("GET /jobs: sorting and paging", () => {
  beforeAll(async () => {
    // Jobs with nothing optional set, so that nulls have to sort last; and equal values, so that ties need the uuid.
    for (const name of ["sortprobe delta", "sortprobe alpha", "sortprobe alpha", "sortprobe charlie"]) {
      expect((await post({ name })).status).toBe(201);
    }
    expect(
      (await post({ name: "sortprobe bravo", estimated_hours: 2, status: "not-started", due_date: "2026-01-01" }))
        .status,
    ).toBe(201);
  });

  type Key = (j: StoredJob) => string | number | null;
  const KEYS: Record<string, Key> = {
    start_date: (j) => day(j.startDate),
    due_date: (j) => day(j.dueDate),
    created_at: (j) => j.createdAt.getTime(),
    status: (j) => j.status?.position ?? null,
    estimated_hours: (j) => (j.estimatedHours === null ? null : Number(j.estimatedHours)),
  };

  /** The order the spec asks for: by the key in the direction, nulls last either way, then by uuid. */
  function expectedOrder(rows: StoredJob[], key: Key, direction: "asc" | "desc") {
    const sign = direction === "asc" ? 1 : -1;
    return [...rows]
      .sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        if (x !== y) {
          if (x === null) return 1;
          if (y === null) return -1;
          return (x < y ? -1 : 1) * sign;
        }
        return a.uuid < b.uuid ? -1 : 1;
      })
      .map((j) => j.uuid);
  }

  it.each(
    Object.keys(KEYS).flatMap(
      (sort) =>
        [
          [sort, "asc"],
          [sort, "desc"],
        ] as const,
    ),
  )("sort_by=%s sort_direction=%s", async (sort, direction) => {
    const all = await storedJobs(acme);
    expect(all.some((j) => KEYS[sort](j) === null) || sort === "created_at").toBe(true);
    const uuids = await listUuids(`include_completed=true&sort_by=${sort}&sort_direction=${direction}`);
    expect(uuids).toEqual(expectedOrder(all, KEYS[sort], direction));
  });

  it("sorts by due date ascending by default", async () => {
    const all = await storedJobs(acme);
    expect(await listUuids("include_completed=true")).toEqual(expectedOrder(all, KEYS.due_date, "asc"));
  });

  it("sorts by name in both directions, ties by uuid", async () => {
    const probes = (await storedJobs(acme)).filter((j) => j.name.startsWith("sortprobe"));
    const alphas = probes
      .filter((j) => j.name === "sortprobe alpha")
      .map((j) => j.uuid)
      .sort();
    expect(await listUuids("search=sortprobe&sort_by=name")).toEqual([
      ...alphas,
      ...["bravo", "charlie", "delta"].map((n) => probes.find((j) => j.name === `sortprobe ${n}`)!.uuid),
    ]);
    expect(await listUuids("search=sortprobe&sort_by=name&sort_direction=desc")).toEqual([
      ...["delta", "charlie", "bravo"].map((n) => probes.find((j) => j.name === `sortprobe ${n}`)!.uuid),
      ...alphas,
    ]);
  });

  it.each(["name", "start_date", "due_date", "created_at", "status", "estimated_hours"])(
    "pages sorted by %s never overlap and add up to the whole list",
    async (sort) => {
      for (const direction of ["asc", "desc"]) {
        const query = `include_completed=true&sort_by=${sort}&sort_direction=${direction}`;
        const whole = await listUuids(query);
        const pages: string[] = [];
        const first = await list(`${query}&per_page=23`);
        for (let page = 1; page <= first.body.meta.last_page; page++) {
          const res = await list(`${query}&per_page=23&page=${page}`);
          expect(res.body.meta).toMatchObject({ current_page: page, per_page: 23, total: whole.length });
          pages.push(...res.body.data.map((j: any) => j.uuid));
        }
        expect(pages).toEqual(whole);
      }
    },
  );

  it("links keep the caller's query and point at neighbouring pages", async () => {
    const res = await list("sort_by=name&per_page=10&page=2&search=a");
    const next = new URL(res.body.links.next);
    expect(Object.fromEntries(next.searchParams)).toEqual({ sort_by: "name", per_page: "10", page: "3", search: "a" });
    expect(new URL(res.body.links.prev).searchParams.get("page")).toBe("1");
  });

  it("answers a page past the last with no data and the right meta", async () => {
    const res = await list("per_page=50&page=99");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({
      current_page: 99,
      per_page: 50,
      last_page: Math.ceil(res.body.meta.total / 50),
    });
    expect(res.body.links.next).toBeNull();
  });

  it("accepts limit and per_page up to 1000", async () => {
    expect((await list("limit=1000")).body.meta.per_page).toBe(1000);
    expect((await list("per_page=1")).body.data).toHaveLength(1);
  });
});

describe("GET /jobs: bad query values", () => {
  it.each([
    ["sort_by", "sort_by=priority"],
    ["sort_direction", "sort_direction=up"],
    ["users.0", "users[]=abc"],
    ["users.1", "users[]=1&users[]=2.5"],
    ["tags.0", "tags[]=-1"],
    ["start_date_range", "start_date_range=last_decade"],
    ["due_date_range", "due_date_range=2026-13-01,2026-12-31"],
    ["due_date_range", "due_date_range=2026-12-31,2026-01-01"],
    ["include_completed", "include_completed=yes"],
    ["exclude_subtasks", "exclude_subtasks="],
    ["client_uuid", "client_uuid=not-a-uuid"],
    ["search", "search=a&search=b"],
    ["page", "page=0"],
    ["limit", "limit=1001"],
    ["per_page", "per_page=0"],
    ["limit", "limit=ten"],
  ])("is 422 naming %s for %s", async (field, query) => {
    const res = await list(query);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(res.body.message).toMatch(/invalid/i);
  });

  it("ignores unknown parameters", async () => {
    const res = await list("colour=blue&per_page=3");
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(3);
  });
});

describe("GET /jobs/{uuid}", () => {
  it("answers every field of the spec's job object, for a job with subtasks", async () => {
    const client = await prisma();
    const parent = await client.job.findFirstOrThrow({
      where: { tenantId: acme, subTasks: { some: {} }, followers: { some: {} }, tags: { some: {} } },
      include: {
        status: true,
        client: true,
        assignees: { include: { user: true } },
        followers: { include: { user: true } },
        tags: { include: { tag: true } },
        subTasks: true,
      },
    });
    const res = await get(parent.uuid);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(Object.keys(body).sort()).toEqual(
      [
        ...LIST_KEYS,
        "description",
        "status_name",
        "client",
        "users",
        "followers",
        "tags",
        "internal_due_date",
        "extended_due_date",
        "completed_date",
        "is_subtask",
        "parent_uuid",
        "parent",
        "sub_tasks",
      ].sort(),
    );
    expect(body).toMatchObject({
      uuid: parent.uuid,
      name: parent.name,
      description: parent.description,
      status: parent.status!.slug,
      status_name: parent.status!.name,
      client_uuid: parent.client!.uuid,
      client: { uuid: parent.client!.uuid, name: parent.client!.name },
      internal_due_date: day(parent.internalDueDate),
      extended_due_date: day(parent.extendedDueDate),
      completed_date: day(parent.completedDate),
      is_subtask: false,
      parent_uuid: null,
      parent: null,
    });
    expect(body.users.map((u: any) => u.id).sort()).toEqual(parent.assignees.map((a) => a.userId).sort());
    expect(body.users[0]).toEqual({
      id: expect.any(Number),
      fullname: expect.any(String),
      email: expect.stringContaining("@acme.test"),
      initials: expect.stringMatching(/^[A-Z]{2}$/),
      avatar_url: expect.any(String),
    });
    expect(body.followers.map((u: any) => u.fullname)).toEqual(
      parent.followers.map((f) => `${f.user.firstname} ${f.user.lastname}`),
    );
    expect(body.tags).toEqual(parent.tags.map((t) => ({ id: t.tag.id, name: t.tag.name })));
    expect(body.sub_tasks.map((s: any) => s.uuid).sort()).toEqual(uuidsOf(parent.subTasks));
    for (const sub of body.sub_tasks) expect(Object.keys(sub).sort()).toEqual(LIST_KEYS);
  });

  it("shows a subtask's parent", async () => {
    const client = await prisma();
    const sub = await client.job.findFirstOrThrow({
      where: { tenantId: acme, parentId: { not: null } },
      include: { parent: true },
    });
    const res = await get(sub.uuid);
    expect(res.body).toMatchObject({
      is_subtask: true,
      parent_uuid: sub.parent!.uuid,
      parent: { uuid: sub.parent!.uuid, name: sub.parent!.name },
      sub_tasks: [],
    });
  });

  it("accepts the uuid in upper case", async () => {
    const any = (await storedJobs(acme))[0];
    expect((await get(any.uuid.toUpperCase())).body.uuid).toBe(any.uuid);
  });

  it("is 403 for a job of another tenant, 404 for a uuid nobody has or a malformed one", async () => {
    const birchJob = (await storedJobs(birch))[0];
    expect((await get(birchJob.uuid)).status).toBe(403);
    expect((await get(birchJob.uuid, "owner@birch.test")).status).toBe(200);
    expect((await get(randomUUID())).body).toEqual({ message: "Job not found." });
    for (const bad of ["123", "not-a-uuid", "' OR 1=1 --", `${randomUUID()}x`])
      expect((await get(bad)).status).toBe(404);
  });
});

describe("visibility", () => {
  /** The rule of decisions.md, written out in JavaScript over the stored rows. */
  async function visibleTo(email: string) {
    const user = await userByEmail(email);
    const client = await prisma();
    const all = await storedJobs(acme);
    const role = await client.role.findFirstOrThrow({ where: { tenantId: acme, id: user.roleId } });
    if (user.clientAccess === "all" || role.name === "Owner" || role.name === "Admin") return all;
    const groupIds = (await client.userClientGroup.findMany({ where: { tenantId: acme, userId: user.id } })).map(
      (g) => g.groupId,
    );
    const clientVisible = (c: StoredJob["client"]) => {
      if (!c) return false;
      if (user.clientAccess === "client_groups") return c.groups.some((g) => groupIds.includes(g.groupId));
      return c.accountManagerId === user.id || c.jobs.some((j) => j.assignees.some((a) => a.userId === user.id));
    };
    return all.filter(
      (j) =>
        clientVisible(j.client) ||
        j.assignees.some((a) => a.userId === user.id) ||
        j.followers.some((f) => f.userId === user.id),
    );
  }

  it.each(["assigned@acme.test", "groups@acme.test", "standard@acme.test", "viewer@acme.test", "admin@acme.test"])(
    "lists exactly the jobs %s may see",
    async (email) => {
      const all = await storedJobs(acme);
      const visible = await visibleTo(email);
      const limited = email === "assigned@acme.test" || email === "groups@acme.test";
      expect(visible.length < all.length).toBe(limited);
      expect((await listUuids("include_completed=true", email)).sort()).toEqual(uuidsOf(visible));
    },
  );

  it.each(["assigned@acme.test", "groups@acme.test"])(
    "is 403 on a job %s may not see, 200 on one they may",
    async (email) => {
      const visible = new Set((await visibleTo(email)).map((j) => j.uuid));
      const all = await storedJobs(acme);
      const hidden = all.find((j) => !visible.has(j.uuid))!;
      const res = await get(hidden.uuid, email);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "You do not have access to this record." });
      expect((await get(all.find((j) => visible.has(j.uuid))!.uuid, email)).status).toBe(200);
    },
  );

  it("leaves subtasks the caller may not see out of a visible job", async () => {
    const email = "assigned@acme.test";
    const user = await userByEmail(email);
    const client = await prisma();
    // A visible job (the user is its assignee) with a subtask the user has no way to see.
    const hiddenClient = await client.client.findFirstOrThrow({
      where: {
        tenantId: acme,
        accountManagerId: { not: user.id },
        jobs: { none: { assignees: { some: { userId: user.id } } } },
      },
    });
    const parent = await client.job.create({
      data: { tenantId: acme, name: "Visible parent", assignees: { create: [{ userId: user.id }] } },
    });
    await client.job.create({
      data: { tenantId: acme, name: "Hidden subtask", parentId: parent.id, clientId: hiddenClient.id },
    });
    expect((await get(parent.uuid, email)).body.sub_tasks).toEqual([]);
    expect((await get(parent.uuid)).body.sub_tasks.map((s: any) => s.name)).toEqual(["Hidden subtask"]);
  });

  it("does not name the parent of a visible subtask when the parent itself is hidden", async () => {
    const email = "assigned@acme.test";
    const user = await userByEmail(email);
    const client = await prisma();
    const hiddenClient = await client.client.findFirstOrThrow({
      where: {
        tenantId: acme,
        accountManagerId: { not: user.id },
        jobs: { none: { assignees: { some: { userId: user.id } } } },
      },
    });
    const parent = await client.job.create({
      data: { tenantId: acme, name: "Hidden parent", clientId: hiddenClient.id },
    });
    const subtask = await client.job.create({
      data: {
        tenantId: acme,
        name: "Assigned subtask",
        parentId: parent.id,
        assignees: { create: [{ userId: user.id }] },
      },
    });
    const res = await get(subtask.uuid, email);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ is_subtask: true, parent: null, parent_uuid: null });
    expect(JSON.stringify(res.body)).not.toContain("Hidden parent");
    expect((await get(subtask.uuid)).body.parent).toEqual({ uuid: parent.uuid, name: "Hidden parent" });
  });

  it("never lists another tenant's jobs", async () => {
    const birchUuids = new Set(uuidsOf(await storedJobs(birch)));
    const acmeList = await listUuids("include_completed=true");
    expect(acmeList.some((u: string) => birchUuids.has(u))).toBe(false);
    expect((await listUuids("include_completed=true", "owner@birch.test")).sort()).toEqual([...birchUuids].sort());
  });
});

describe("POST /jobs", () => {
  it("creates a job with every field of the body and answers 201 with the GET shape", async () => {
    const client = await prisma();
    const standard = await userByEmail("standard@acme.test");
    const acmeClient = await client.client.findFirstOrThrow({ where: { tenantId: acme } });
    const tags = await client.tag.findMany({ where: { tenantId: acme }, take: 2, orderBy: { id: "asc" } });
    const body = {
      name: "Quarterly VAT — Zoë & Co 名前",
      description: "Line one\nLine two; DROP TABLE jobs; --",
      client_uuid: acmeClient.uuid.toUpperCase(),
      user_id: standard.id,
      status: "in-progress",
      tags: tags.map((t) => t.id),
      start_date: "2026-12-01",
      due_date: "2027-01-31",
      internal_due_date: "2027-01-24",
      extended_due_date: "2027-02-28",
      estimated_hours: 12.75,
    };
    const res = await post(body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: body.name,
      description: body.description,
      client_uuid: acmeClient.uuid,
      client: { uuid: acmeClient.uuid, name: acmeClient.name },
      users: [expect.objectContaining({ id: standard.id, fullname: "Sam Standard" })],
      followers: [],
      status: "in-progress",
      status_name: "In progress",
      tags: tags.map((t) => ({ id: t.id, name: t.name })),
      start_date: "2026-12-01",
      due_date: "2027-01-31",
      internal_due_date: "2027-01-24",
      extended_due_date: "2027-02-28",
      estimated_hours: 12.75,
      is_overdue: false,
      is_completed: false,
      completed_date: null,
      is_repeating: false,
      is_subtask: false,
      parent_uuid: null,
      parent: null,
      sub_tasks: [],
    });
    expect((await get(res.body.uuid)).body).toEqual(res.body);

    const stored = await client.job.findFirstOrThrow({
      where: { tenantId: acme, uuid: res.body.uuid },
      include: { assignees: true, tags: true },
    });
    expect(stored).toMatchObject({
      name: body.name,
      clientId: acmeClient.id,
      dueDate: new Date("2027-01-31T00:00:00Z"),
    });
    expect(stored.estimatedHours!.toString()).toBe("12.75");
    expect(stored.assignees.map((a) => a.userId)).toEqual([standard.id]);
    expect(stored.tags.map((t) => t.tagId).sort()).toEqual(tags.map((t) => t.id).sort());
  });

  it("needs only a name", async () => {
    const res = await post({ name: "  Just a name  " });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Just a name",
      description: "",
      status: null,
      status_name: null,
      client_uuid: null,
      client: null,
      users: [],
      tags: [],
      start_date: null,
      due_date: null,
      estimated_hours: null,
      is_completed: false,
    });
  });

  it("accepts the boundaries: 150-character name, 30,000-character description, 0 and 1000 hours, start on the due date", async () => {
    for (const body of [
      { name: "n".repeat(150), description: "d".repeat(30_000), estimated_hours: 0 },
      { name: "max hours", estimated_hours: 1000, start_date: "2026-05-05", due_date: "2026-05-05" },
      { name: "leap day", due_date: "2028-02-29", tags: [acmeTag.id, acmeTag.id], description: null },
    ]) {
      const res = await post(body);
      expect(res.status).toBe(201);
    }
  });

  it("with a completed status, is completed today in the caller's time zone", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T03:00:00Z")); // Monday in London, Sunday in New York
    const byOwner = await post({ name: "Done in London", status: "completed" });
    const byAdmin = await post({ name: "Done in New York", status: "completed" }, "admin@acme.test");
    expect(byOwner.body).toMatchObject({
      status: "completed",
      status_name: "Completed",
      is_completed: true,
      completed_date: "2026-11-23",
      is_overdue: false,
    });
    expect(byAdmin.body).toMatchObject({ is_completed: true, completed_date: "2026-11-22" });
    vi.useRealTimers();
    // Completed jobs are left out of the default list.
    expect(await listUuids("search=Done in")).toEqual([]);
  });

  describe("refuses invalid input with a 422 on the field, and writes nothing", () => {
    const cases: [string, () => Promise<Record<string, unknown>>, string][] = [
      ["no name", async () => ({ description: "x" }), "name"],
      ["a blank name", async () => ({ name: "   " }), "name"],
      ["a null name", async () => ({ name: null }), "name"],
      ["a 151-character name", async () => ({ name: "n".repeat(151) }), "name"],
      ["a name that is a number", async () => ({ name: 42 }), "name"],
      ["a name that is an object", async () => ({ name: { first: "x" } }), "name"],
      ["a 30,001-character description", async () => ({ name: "x", description: "d".repeat(30_001) }), "description"],
      ["negative hours", async () => ({ name: "x", estimated_hours: -1 }), "estimated_hours"],
      ["over 1000 hours", async () => ({ name: "x", estimated_hours: 1000.01 }), "estimated_hours"],
      ["hours with three decimals", async () => ({ name: "x", estimated_hours: 1.125 }), "estimated_hours"],
      ["hours as text", async () => ({ name: "x", estimated_hours: "5" }), "estimated_hours"],
      ["a date that does not exist", async () => ({ name: "x", due_date: "2026-02-30" }), "due_date"],
      ["a date in another format", async () => ({ name: "x", start_date: "01/12/2026" }), "start_date"],
      [
        "a timestamp for a date",
        async () => ({ name: "x", internal_due_date: "2026-12-01T00:00:00Z" }),
        "internal_due_date",
      ],
      ["a date that is a number", async () => ({ name: "x", extended_due_date: 20261201 }), "extended_due_date"],
      [
        "start_date after due_date",
        async () => ({ name: "x", start_date: "2026-12-02", due_date: "2026-12-01" }),
        "start_date",
      ],
      ["a status slug the tenant does not have", async () => ({ name: "x", status: "archived" }), "status"],
      ["a status that is a list", async () => ({ name: "x", status: ["completed"] }), "status"],
      ["a tag of another tenant", async () => ({ name: "x", tags: [acmeTag.id, birchTag] }), "tags.1"],
      ["a tag id as text", async () => ({ name: "x", tags: ["1"] }), "tags.0"],
      ["tags as an object", async () => ({ name: "x", tags: { id: 1 } }), "tags"],
      [
        "a user of another tenant",
        async () => ({ name: "x", user_id: (await userByEmail("owner@birch.test")).id }),
        "user_id",
      ],
      [
        "an archived user",
        async () => ({ name: "x", user_id: (await userByEmail("archived@acme.test")).id }),
        "user_id",
      ],
      ["a user id as text", async () => ({ name: "x", user_id: "1" }), "user_id"],
      ["a client of another tenant", async () => ({ name: "x", client_uuid: birchClient }), "client_uuid"],
      ["a client uuid nobody has", async () => ({ name: "x", client_uuid: randomUUID() }), "client_uuid"],
      ["a malformed client uuid", async () => ({ name: "x", client_uuid: "' OR 1=1 --" }), "client_uuid"],
    ];

    it.each(cases)("%s", async (_, build, field) => {
      const before = await writtenRows();
      const res = await post(await build());
      expect(res.status).toBe(422);
      expect(res.body.errors).toHaveProperty([field]);
      expect(res.body.errors[field][0]).toEqual(expect.any(String));
      expect(await writtenRows()).toEqual(before);
    });

    it("names every offending field at once", async () => {
      const res = await post({ name: "x", status: "nope", user_id: 999999, tags: [999999], client_uuid: randomUUID() });
      expect(Object.keys(res.body.errors).sort()).toEqual(["client_uuid", "status", "tags.0", "user_id"]);
    });

    it("a client the caller may not see", async () => {
      const email = "assigned@acme.test";
      const visible = new Set(await listUuids("include_completed=true", email));
      const hidden = (await storedJobs(acme)).find(
        (j) => j.client && !visible.has(j.uuid) && j.client.accountManagerId !== null,
      )!;
      const before = await writtenRows();
      const res = await post({ name: "x", client_uuid: hidden.client!.uuid }, email);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(["client_uuid"]);
      expect(await writtenRows()).toEqual(before);
    });
  });

  it.each([
    ["a body over the size limit", { name: "x", description: "d".repeat(MAX_BODY_BYTES) }, 413],
    ["a 10 MB name", { name: "n".repeat(10 * 1024 * 1024) }, 413],
  ])("is %s → %i, writing nothing", async (_, body, status) => {
    const before = await writtenRows();
    expect((await post(body)).status).toBe(status);
    expect(await writtenRows()).toEqual(before);
  });

  it.each([
    ["an array", '[{"name":"x"}]'],
    ["not JSON", "{name: x}"],
  ])("is 400 when the body is %s, writing nothing", async (_, rawBody) => {
    const before = await writtenRows();
    const res = await call(jobs, "POST", "jobs", {
      token: await tokenFor("owner@acme.test"),
      rawBody,
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(await writtenRows()).toEqual(before);
  });

  it("is 403 for a role without jobs.create, before any validation, and writes nothing", async () => {
    const before = await writtenRows();
    for (const body of [{ name: "Viewer's job" }, { name: "" }]) {
      const res = await post(body, "viewer@acme.test");
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "Your role does not allow this action." });
    }
    expect(await writtenRows()).toEqual(before);
  });

  it("creates the job in the caller's tenant", async () => {
    const res = await post({ name: "Birch job" }, "owner@birch.test");
    expect(res.status).toBe(201);
    const client = await prisma();
    expect((await client.job.findFirstOrThrow({ where: { uuid: res.body.uuid } })).tenantId).toBe(birch);
    expect((await get(res.body.uuid)).status).toBe(403);
  });

  it("is 401 without a token", async () => {
    expect((await call(jobs, "POST", "jobs", { body: { name: "x" } })).status).toBe(401);
  });
});

describe("PUT /jobs/{uuid}", () => {
  async function put(uuid: string, body: unknown, email = "owner@acme.test") {
    return call(jobByUuid, "PUT", `jobs/${uuid}`, { token: await tokenFor(email), params: { uuid }, body });
  }

  /** A fresh open job of Acme with an assignee, a tag and both dates, to change. */
  async function freshJob() {
    const owner = await userByEmail("owner@acme.test");
    const res = await post({
      name: "To update",
      description: "Before",
      user_id: owner.id,
      tags: [acmeTag.id],
      start_date: "2026-12-01",
      due_date: "2026-12-10",
      estimated_hours: 3,
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  it("changes only the fields sent and answers the GET shape", async () => {
    const job = await freshJob();
    const res = await put(job.uuid, { name: "Renamed", estimated_hours: 4.5 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...job, name: "Renamed", estimated_hours: 4.5, updated_at: expect.any(String) });
    expect(res.body.updated_at > job.updated_at).toBe(true);
    expect((await get(job.uuid)).body).toEqual(res.body);
  });

  it("clears optional fields sent as null, and replaces assignees and tags", async () => {
    const job = await freshJob();
    const standard = await userByEmail("assigned@acme.test");
    const res = await put(job.uuid, {
      description: null,
      start_date: null,
      estimated_hours: null,
      user_id: standard.id,
      tags: [],
      client_uuid: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      description: "",
      start_date: null,
      due_date: "2026-12-10",
      estimated_hours: null,
      client: null,
      tags: [],
    });
    expect(res.body.users.map((u: any) => u.id)).toEqual([standard.id]);
    expect((await put(job.uuid, { user_id: null })).body.users).toEqual([]);
  });

  it("completes the job on a move to a completed status, keeps the day between completed statuses, reopens it", async () => {
    const job = await freshJob();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T12:00:00Z"));
    const done = await put(job.uuid, { status: "completed" });
    expect(done.body).toMatchObject({ status: "completed", is_completed: true, completed_date: "2026-11-23" });
    vi.setSystemTime(new Date("2026-11-25T12:00:00Z"));
    expect((await put(job.uuid, { status: "completed" })).body.completed_date).toBe("2026-11-23");
    const reopened = await put(job.uuid, { status: "in-progress" });
    expect(reopened.body).toMatchObject({ status: "in-progress", is_completed: false, completed_date: null });
    await put(job.uuid, { status: "completed" });
    expect((await put(job.uuid, { status: null })).body).toMatchObject({
      status: null,
      is_completed: false,
      completed_date: null,
    });
  });

  // Bodies are built when the test runs: the other tenant's ids are read in beforeAll.
  it.each<[string, () => object, string]>([
    ["start_date after the stored due_date", () => ({ start_date: "2026-12-11" }), "start_date"],
    ["due_date before the stored start_date", () => ({ due_date: "2026-11-30" }), "due_date"],
    ["both sent, start after due", () => ({ start_date: "2026-12-05", due_date: "2026-12-04" }), "start_date"],
    ["a blank name", () => ({ name: " " }), "name"],
    ["a null name", () => ({ name: null }), "name"],
    ["a status the tenant does not have", () => ({ status: "archived" }), "status"],
    ["a tag of another tenant", () => ({ tags: [birchTag] }), "tags.0"],
    ["a client of another tenant", () => ({ client_uuid: birchClient }), "client_uuid"],
  ])("refuses %s with a 422 on the field, changing nothing", async (_, body, field) => {
    const job = await freshJob();
    const res = await put(job.uuid, body());
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect((await get(job.uuid)).body).toEqual(job);
  });

  it("accepts moving both dates past the stored ones together", async () => {
    const job = await freshJob();
    const res = await put(job.uuid, { start_date: "2027-01-05", due_date: "2027-01-06" });
    expect(res.body).toMatchObject({ start_date: "2027-01-05", due_date: "2027-01-06" });
  });

  it("is 403 for a Viewer (no jobs.update), before validation, changing nothing", async () => {
    const job = await freshJob();
    const res = await put(job.uuid, { name: 42 }, "viewer@acme.test");
    expect(res.status).toBe(403);
    expect((await get(job.uuid)).body).toEqual(job);
  });

  it("lets a Standard user update a job it can see, and is 403 for one it cannot", async () => {
    const email = "assigned@acme.test";
    const visible = await listUuids("include_completed=true", email);
    expect((await put(visible[0], { description: "By the assignee" }, email)).status).toBe(200);
    const hidden = (await storedJobs(acme)).find((j) => !visible.includes(j.uuid))!;
    expect((await put(hidden.uuid, { description: "Not mine" }, email)).status).toBe(403);
  });

  it("is 403 for another tenant's job and 404 for an unknown uuid", async () => {
    const birchJob = (await storedJobs(birch))[0];
    expect((await put(birchJob.uuid, { name: "x" })).status).toBe(403);
    expect((await put(randomUUID(), { name: "x" })).status).toBe(404);
  });
});
