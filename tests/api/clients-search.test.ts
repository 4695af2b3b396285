// GET /clients?search= pages its matches by sorting the matches alone, or above a thousand by walking the name
// index (lib/api/search-page.ts): both must give the same order, totals and pages, so every answer here is asked
// for both ways. Its own file, so that the thousand extra clients stay out of the other tests' database.
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as clientsRoute from "@/app/api/v1/clients/route";
import { prisma } from "@/lib/db/client";
import { call, tenantByName, tokenFor } from "../support/api";
import { bothWays } from "../support/search-paths";

vi.mock("@/lib/db/search-page", async () => (await import("../support/search-paths")).searchPageModule());

let owner: string;

/** The answer, the same whichever way the search pages. */
async function list(query: string, token = owner) {
  const { sorted, walked } = await bothWays(() => call(clientsRoute, "GET", `clients${query}`, { token }));
  expect(walked.body).toEqual(sorted.body);
  return sorted;
}
const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((c) => c.name);
const bulkName = (n: number) => `Zz Bulk ${String(n).padStart(4, "0")}`;

beforeAll(async () => {
  owner = await tokenFor("owner@acme.test");
  const acmeId = (await tenantByName("Acme Accounting")).id;
  // Created in reverse order, so that neither creation order nor ids follow the names.
  await (await prisma()).client.createMany({
    data: Array.from({ length: 1001 }, (_, i) => ({
      tenantId: acmeId,
      name: bulkName(1000 - i),
      createdAt: new Date(Date.UTC(2020, 0, 1) + i * 1000),
    })),
  });
});

describe("paging search results", () => {
  it("pages a thousand matches by name, with the right total", async () => {
    const res = await list("?search=zz%20bulk&limit=50&page=3");
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ current_page: 3, last_page: 21, per_page: 50, total: 1001 });
    expect(names(res)).toEqual(Array.from({ length: 50 }, (_, i) => bulkName(100 + i)));
  });

  it("pages a few matches by name and by created_at, in either direction", async () => {
    const res = await list("?search=zz%20bulk%2000&limit=5&page=2");
    expect(res.body.meta).toMatchObject({ current_page: 2, last_page: 20, total: 100 });
    expect(names(res)).toEqual([5, 6, 7, 8, 9].map(bulkName));
    const descending = await list("?search=zz%20bulk%2000&limit=3&sort_direction=desc");
    expect(names(descending)).toEqual([99, 98, 97].map(bulkName));
    // Created in reverse name order, so the newest is the lowest number.
    const newest = await list("?search=zz%20bulk%2000&limit=3&sort_by=created_at&sort_direction=desc");
    expect(names(newest)).toEqual([0, 1, 2].map(bulkName));
  });

  it("keeps the caller's other filters and visibility, and answers no match with an empty page", async () => {
    const prospects = await list("?search=zz%20bulk%2000&client_status=prospect");
    expect(prospects.body.meta.total).toBe(0);
    const hidden = await list("?search=zz%20bulk", await tokenFor("assigned@acme.test"));
    expect(hidden.body.meta.total).toBe(0);
    const none = await list("?search=no%20such%20client%20anywhere");
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ data: [], meta: { total: 0, current_page: 1 } });
  });
});
