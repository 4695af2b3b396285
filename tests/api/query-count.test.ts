// Lists fetch a page with a fixed number of queries, however many rows it holds (no N+1).
import { afterAll, describe, expect, it } from "vitest";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { authenticate } from "@/lib/api/caller";
import { database } from "@/lib/db/client";
import { DEMO_TOKEN } from "@/lib/demo/seed";
import { listClients } from "@/lib/clients/queries";
import { listContacts } from "@/lib/contacts/queries";
import { listClientsQuery } from "@/lib/clients/schemas";
import { listContactsQuery as contactsQuery } from "@/lib/contacts/schemas";

let counted: PrismaClient | undefined;
let queries = 0;

async function countingClient() {
  if (counted) return counted;
  const db = await database();
  // A second client on the same database that reports each SQL statement it sends.
  const adapter = db.pglite ? (new PrismaPGlite(db.pglite) as never) : new PrismaPg({ connectionString: process.env.DATABASE_URL! });
  counted = new PrismaClient({ adapter, log: [{ emit: "event", level: "query" }] });
  counted.$on("query" as never, () => queries++);
  return counted;
}

afterAll(async () => {
  if (counted && !(await database()).pglite) await counted.$disconnect();
});

async function queriesFor(run: () => Promise<unknown>) {
  queries = 0;
  await run();
  return queries;
}

describe("query count of a page", () => {
  it("is the same for 1 client and for 50 with their contacts and custom fields", async () => {
    const caller = await authenticate(await countingClient(), DEMO_TOKEN);
    const url = new URL("http://localhost/api/v1/clients");
    const one = await queriesFor(() => listClients(caller, listClientsQuery.parse({ limit: "1", include_archived: "true" }), url));
    const many = await queriesFor(() => listClients(caller, listClientsQuery.parse({ limit: "1000", include_archived: "true" }), url));
    expect(one).toBeGreaterThan(0);
    expect(many).toBe(one);
  });

  it("is the same for 1 contact and for all of them", async () => {
    const caller = await authenticate(await countingClient(), DEMO_TOKEN);
    const url = new URL("http://localhost/api/v1/contacts");
    const one = await queriesFor(() => listContacts(caller, contactsQuery.parse({ limit: "1" }), url));
    const many = await queriesFor(() => listContacts(caller, contactsQuery.parse({ limit: "1000" }), url));
    expect(many).toBe(one);
  });
});
