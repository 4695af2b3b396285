// Cursor pages read backwards and bound to their caller (decisions.md, Integrations; issue 28 items 11 and 19).
// Every page after the first carries meta.prev_cursor and links.prev, and following links.prev from the last page
// gives back exactly the pages of the forward walk, in every sort of every list (nulls last, ties by uuid); the
// first page has none. A cursor made by one caller is a 422 for any other, in another tenant or the same one.
import { beforeAll, describe, expect, it } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import * as contacts from "@/app/api/v1/contacts/route";
import * as jobs from "@/app/api/v1/jobs/route";
import * as timeLogs from "@/app/api/v1/time-logs/route";
import { call, type RouteModule, tokenFor, userByEmail } from "../support/api";
import { addJobSortProbes } from "../support/job-sort-probes";

beforeAll(async () => {
  await addJobSortProbes((await userByEmail("owner@acme.test")).tenantId, "Prev");
});

type Body = {
  data: { uuid: string }[];
  links: { prev: string | null; next: string | null };
  meta: { next_cursor: string | null; prev_cursor: string | null };
};

const get = async (route: RouteModule, pathAndQuery: string, email = "owner@acme.test") =>
  call<Body>(route, "GET", pathAndQuery, { token: await tokenFor(email) });

/** A link of the envelope as the path and query `call` takes. */
const relative = (link: string) => link.replace("http://localhost/api/v1/", "");
const uuids = (body: Body) => body.data.map((row) => row.uuid);

/** Walks forward from the start, then back from the last page along links.prev, comparing page with page. */
async function walkForwardAndBack(route: RouteModule, path: string, query: string, email?: string) {
  const forward: string[][] = [];
  let res = await get(route, `${path}?${query}&cursor=`, email);
  for (;;) {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    forward.push(uuids(res.body));
    const first = forward.length === 1;
    expect(res.body.meta.prev_cursor === null, `page ${forward.length}`).toBe(first);
    expect(res.body.links.prev === null).toBe(first);
    if (!first)
      expect(new URL(res.body.links.prev as string).searchParams.get("cursor")).toBe(res.body.meta.prev_cursor);
    if (res.body.links.next === null) break;
    expect(forward.length).toBeLessThan(500);
    res = await get(route, relative(res.body.links.next), email);
  }
  expect(forward.length, "the walk should span several pages").toBeGreaterThan(2);
  for (let page = forward.length - 2; page >= 0; page--) {
    res = await get(route, relative(res.body.links.prev as string), email);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(uuids(res.body), `page ${page + 1} read backwards`).toEqual(forward[page]);
    // Read backwards, a page still leads forward to the page after it.
    expect(res.body.meta.next_cursor).not.toBeNull();
    expect(res.body.meta.prev_cursor === null, `page ${page + 1}`).toBe(page === 0);
  }
  const again = await get(route, relative(res.body.links.next as string), email);
  expect(uuids(again.body)).toEqual(forward[1]);
}

const bothWays = (sorts: string[]) =>
  sorts.flatMap((sort) => [`${sort}&sort_direction=asc`, `${sort}&sort_direction=desc`]);

describe("links.prev of cursor pages leads to exactly the page before", () => {
  it.each(bothWays(["sort_by=name", "sort_by=created_at", "sort_by=updated_at"]))("clients, %s", async (sort) => {
    await walkForwardAndBack(clients, "clients", `${sort}&include_archived=true&limit=4`);
  });

  it.each(["sort_by=name", "sort_by=updated_at"])("contacts, %s", async (sort) => {
    await walkForwardAndBack(contacts, "contacts", `${sort}&limit=6`);
  });

  it.each(
    bothWays(
      ["name", "start_date", "due_date", "created_at", "updated_at", "status", "estimated_hours"].map(
        (s) => `sort_by=${s}`,
      ),
    ),
  )("jobs, %s", async (sort) => {
    await walkForwardAndBack(jobs, "jobs", `${sort}&include_completed=true&per_page=13`);
  });

  it.each(["sort_by=date", "sort_by=updated_at"])("time logs, %s", async (sort) => {
    await walkForwardAndBack(timeLogs, "time-logs", `${sort}&per_page=37`);
  });

  it.each([
    ["clients", clients, "include_archived=true&limit=2", "assigned@acme.test"],
    ["jobs", jobs, "include_completed=true&per_page=3&sort_by=status", "assigned@acme.test"],
    ["contacts", contacts, "limit=2", "groups@acme.test"],
    ["time-logs", timeLogs, "per_page=3", "standard@acme.test"],
  ] as const)("%s, within what a limited user sees", async (path, route, query, email) => {
    await walkForwardAndBack(route, path, query, email);
  });
});

describe("a cursor belongs to the caller that made it", () => {
  it.each([
    ["clients", clients, "limit=2"],
    ["contacts", contacts, "limit=2"],
    ["jobs", jobs, "per_page=2"],
    ["time-logs", timeLogs, "per_page=2"],
  ] as const)(
    "%s: 422 for another tenant's Owner and for another user of the same tenant",
    async (path, route, query) => {
      const first = await get(route, `${path}?${query}&cursor=`);
      const second = await get(route, relative(first.body.links.next as string));
      for (const cursor of [first.body.meta.next_cursor, second.body.meta.prev_cursor]) {
        for (const email of ["owner@birch.test", "admin@acme.test"]) {
          const res = await get(route, `${path}?${query}&cursor=${cursor}`, email);
          expect(res.status, email).toBe(422);
          expect(Object.keys((res.body as unknown as { errors: object }).errors)).toEqual(["cursor"]);
        }
        expect((await get(route, `${path}?${query}&cursor=${cursor}`)).status).toBe(200);
      }
    },
  );
});
