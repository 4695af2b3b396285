// The reads PostgreSQL writes as wire JSON (lib/db/json-rows.ts, issue 29) answer exactly what the serializers
// (serialize.ts, which writes and webhooks still use) give for the same records: every list item and every record
// read (users too), for every demo role of both tenants, with the sorts and filters the contract tests use, deep-equal.
import { beforeAll, describe, expect, it } from "vitest";
import * as clientRoute from "@/app/api/v1/clients/[uuid]/route";
import * as clients from "@/app/api/v1/clients/route";
import * as contactRoute from "@/app/api/v1/contacts/[uuid]/route";
import * as contacts from "@/app/api/v1/contacts/route";
import * as jobRoute from "@/app/api/v1/jobs/[uuid]/route";
import * as jobs from "@/app/api/v1/jobs/route";
import * as timeLogs from "@/app/api/v1/time-logs/route";
import * as userRoute from "@/app/api/v1/users/[id]/route";
import * as userByEmailRoute from "@/app/api/v1/users/email/[email]/route";
import * as users from "@/app/api/v1/users/route";
import { authenticate } from "@/lib/api/authenticate";
import type { Caller } from "@/lib/auth/caller";
import { loadClient } from "@/lib/clients/queries";
import { serializeClient } from "@/lib/clients/serialize";
import { loadContact } from "@/lib/contacts/queries";
import { serializeContact } from "@/lib/contacts/serialize";
import { todayIn } from "@/lib/core/dates";
import { database, prisma } from "@/lib/db/client";
import { loadJob } from "@/lib/jobs/queries";
import { jobListSelect, serializeJob, serializeJobListItem } from "@/lib/jobs/serialize";
import { loadTimeLogRelations } from "@/lib/time-logs/relations";
import { serializeTimeLog, timeLogColumns } from "@/lib/time-logs/serialize";
import { serializeUser } from "@/lib/users/serialize";
import { call, type RouteModule, tokenFor } from "../support/api";

const USERS = [
  "owner@acme.test",
  "admin@acme.test",
  "assigned@acme.test",
  "groups@acme.test",
  "standard@acme.test",
  "viewer@acme.test",
  "owner@birch.test",
  "standard@birch.test",
];

interface Resource {
  path: string;
  list: RouteModule;
  /** The route of a record by uuid, for a resource that has one. */
  record?: RouteModule;
  table: "client" | "contact" | "job" | "timeLog";
  queries: string[];
  /** The serializer's answer for a list item, as JSON would carry it. */
  old(caller: Caller, id: number): Promise<unknown>;
  /** The serializer's answer for the record read, when it differs from the list item. */
  oldRecord?(caller: Caller, id: number): Promise<unknown>;
}

const callers = new Map<string, Caller>();
async function callerFor(email: string) {
  const known = callers.get(email);
  if (known) return known;
  const caller = await authenticate(await database(), await tokenFor(email));
  callers.set(email, caller);
  return caller;
}

const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value));

async function expectEquivalent(resource: Resource, email: string) {
  const caller = await callerFor(email);
  const token = await tokenFor(email);
  const db = await prisma();
  const old = new Map<string, unknown>();
  const ids = new Map<string, number>();
  let items = 0;
  for (const query of resource.queries) {
    const res = await call(resource.list, "GET", `${resource.path}?${query}`, { token });
    expect(res.status, query).toBe(200);
    for (const item of res.body.data as { uuid: string }[]) {
      if (!old.has(item.uuid)) {
        const { id } = await (db[resource.table] as unknown as FindId).findFirstOrThrow({
          where: { tenantId: caller.tenant.id, uuid: item.uuid },
          select: { id: true },
        });
        ids.set(item.uuid, id);
        old.set(item.uuid, roundTrip(await resource.old(caller, id)));
      }
      expect(item, `${query}: ${item.uuid}`).toStrictEqual(old.get(item.uuid));
      items++;
    }
  }
  for (const [uuid, item] of resource.record ? old : []) {
    const id = ids.get(uuid) as number;
    const expected = resource.oldRecord ? roundTrip(await resource.oldRecord(caller, id)) : item;
    const res = await call(resource.record as RouteModule, "GET", `${resource.path}/${uuid}`, {
      token,
      params: { uuid },
    });
    expect(res.status).toBe(200);
    expect(res.body, uuid).toStrictEqual(expected);
  }
  return items;
}

type FindId = {
  findFirstOrThrow(args: { where: object; select: { id: true } }): Promise<{ id: number }>;
};

const RESOURCES: Resource[] = [
  {
    path: "clients",
    list: clients,
    record: clientRoute,
    table: "client",
    queries: [
      "limit=1000&include_archived=true",
      "limit=1000&sort_by=name&sort_direction=desc",
      "limit=1000&sort_by=created_at",
      "limit=1000&sort_by=updated_at&sort_direction=desc",
      "limit=7&page=2",
      "limit=5&cursor=",
      "limit=1000&client_status=active",
      "limit=1000&search=a",
      "limit=1000&updated_since=2000-01-01T00:00:00Z",
    ],
    old: async (caller, id) => serializeClient(await loadClient(caller, id)),
  },
  {
    path: "contacts",
    list: contacts,
    record: contactRoute,
    table: "contact",
    queries: [
      "limit=1000",
      "limit=1000&sort_by=updated_at",
      "limit=7&page=2",
      "limit=5&cursor=",
      "limit=1000&search=a",
      "limit=1000&email=ALICE@EXAMPLE.COM",
      "limit=1000&updated_since=2000-01-01T00:00:00Z",
    ],
    old: async (caller, id) => serializeContact(await loadContact(caller, id)),
  },
  {
    path: "jobs",
    list: jobs,
    record: jobRoute,
    table: "job",
    queries: [
      "per_page=1000&include_completed=true",
      ...["name", "start_date", "due_date", "created_at", "updated_at", "status", "estimated_hours"].flatMap((sort) => [
        `per_page=1000&include_completed=true&sort_by=${sort}`,
        `per_page=1000&include_completed=true&sort_by=${sort}&sort_direction=desc`,
      ]),
      "per_page=7&page=2",
      "per_page=5&cursor=",
      "per_page=1000&search=a",
      "per_page=1000&statuses=in-review,planned",
      "per_page=1000&due_date_range=this_year&exclude_subtasks=true",
      "per_page=1000&updated_since=2000-01-01T00:00:00Z",
    ],
    old: async (caller, id) =>
      serializeJobListItem(
        await caller.db.job.findFirstOrThrow({ where: { id }, select: jobListSelect }),
        todayIn(caller.tenant.timezone),
      ),
    oldRecord: async (caller, id) => serializeJob(await loadJob(caller, id), todayIn(caller.tenant.timezone)),
  },
  {
    path: "time-logs",
    list: timeLogs,
    table: "timeLog",
    queries: [
      "per_page=1000",
      "per_page=1000&sort_by=updated_at",
      "per_page=37&page=3",
      "per_page=5&cursor=",
      "per_page=1000&range=this_year",
      "per_page=1000&range=2026-01-01,2026-06-30",
      "per_page=1000&search=a",
      "per_page=1000&updated_since=2000-01-01T00:00:00Z",
    ],
    old: async (caller, id) => {
      const row = await caller.db.timeLog.findFirstOrThrow({ where: { id }, select: timeLogColumns });
      const [log] = await loadTimeLogRelations(caller, [row]);
      return serializeTimeLog(log);
    },
  },
];

describe.each(RESOURCES)("$path read by PostgreSQL equals the serializer's answer", (resource) => {
  it.each(USERS)("for %s", async (email) => {
    const items = await expectEquivalent(resource, email);
    if (email !== "viewer@acme.test" || resource.path !== "time-logs") expect(items).toBeGreaterThan(0);
  });
});

describe("users read by PostgreSQL equal the serializer's answer", () => {
  beforeAll(async () => {
    // Variety the demo data lacks: an avatar of its own, and initials to escape and to percent-encode.
    const db = await prisma();
    const owner = await db.user.findFirstOrThrow({ where: { email: "owner@acme.test" } });
    const base = { tenantId: owner.tenantId, roleId: owner.roleId };
    await db.user.createMany({
      data: [
        { ...base, firstname: "<ana", lastname: "élan", email: "escape@acme.test" },
        { ...base, firstname: "Pic", lastname: "Ture", email: "pic@acme.test", avatarUrl: "https://x.test/p.png" },
      ],
    });
  });

  it.each(USERS)("for %s", async (email) => {
    const caller = await callerFor(email);
    const token = await tokenFor(email);
    const db = await prisma();
    const all = await db.user.findMany({ where: { tenantId: caller.tenant.id }, include: { role: true } });
    expect(all.length).toBeGreaterThan(1);
    const old = new Map(all.map((user) => [user.id, roundTrip(serializeUser(user))]));
    for (const query of ["", "sort_by=updated_at", "search=a", "search=test e", "updated_since=2000-01-01T00:00:00Z"]) {
      const res = await call(users, "GET", `users?${query}`, { token });
      expect(res.status, query).toBe(200);
      for (const user of res.body.data as { id: number }[]) expect(user, query).toStrictEqual(old.get(user.id));
      if (query === "") expect(res.body.data).toHaveLength(all.length);
    }
    for (const user of all) {
      const byId = await call(userRoute, "GET", `users/${user.id}`, { token, params: { id: String(user.id) } });
      expect(byId.body).toStrictEqual(old.get(user.id));
      const byEmail = await call(userByEmailRoute, "GET", `users/email/${user.email.toUpperCase()}`, {
        token,
        params: { email: user.email.toUpperCase() },
      });
      expect(byEmail.body).toStrictEqual({ data: old.get(user.id) });
    }
  });
});
