// Which clients, jobs and contacts a user sees (lib/auth/visibility.ts; decisions.md, "Tenancy, roles, visibility"),
// in both forms of the rule: the Prisma filters and the SQL conditions of the reads PostgreSQL builds as JSON. Each
// person of a small firm of its own (tests/support/visibility-firm.ts) against the records they must see, so that
// removing any part of the rule, in either form, changes what someone sees. Part of the mutation run.
import { beforeAll, describe, expect, it } from "vitest";
import {
  clientsSeen,
  seesAllClients,
  visibleClients,
  visibleClientsSql,
  visibleContacts,
  visibleContactsSql,
  visibleJobs,
  visibleJobsSql,
} from "@/lib/auth/visibility";
import { type Database, database } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { CLIENTS, CONTACTS, type Firm, JOBS, makeVisibilityFirm, type Person } from "../support/visibility-firm";

let db: Database;
let firm: Firm;
beforeAll(async () => {
  db = await database();
  firm = await makeVisibilityFirm(db.prisma);
});

const everything = { clients: [...CLIENTS], jobs: [...JOBS], contacts: [...CONTACTS] };
const SEES: Record<Person, { clients: string[]; jobs: string[]; contacts: string[] }> = {
  owner: everything,
  admin: everything,
  staff: everything,
  assigned: {
    clients: ["By Job Ltd", "Managed Ltd"],
    jobs: ["By Job work", "Followed by assigned", "Managed work"],
    contacts: ["Managed contact"],
  },
  grouped: {
    clients: ["North Ltd"],
    jobs: ["Assigned to grouped", "Followed by grouped", "North work"],
    contacts: ["North contact"],
  },
  colleague: { clients: ["South Ltd"], jobs: ["Followed by grouped", "South work"], contacts: ["South contact"] },
  viewer: { clients: [], jobs: [], contacts: [] },
};
const people = Object.keys(SEES) as Person[];
const sorted = (names: string[]) => [...names].sort();

describe.each(people.map((p) => [p]))("%s", (person) => {
  const seen = () => firm.viewer(person);
  const tenantId = () => firm.tenant.id;
  const names = async (sql: Prisma.Sql) => (await db.read<{ name: string }>(sql)).map((r) => r.name).sort();

  it("sees these clients (Prisma form)", async () => {
    const rows = await db.prisma.client.findMany({
      where: { AND: [{ tenantId: tenantId() }, visibleClients(seen()) ?? {}] },
    });
    expect(rows.map((r) => r.name).sort()).toEqual(sorted(SEES[person].clients));
  });

  it("sees the same clients (SQL form)", async () => {
    const rows = await names(
      Prisma.sql`SELECT c.name FROM clients c WHERE c.tenant_id = ${tenantId()} AND ${visibleClientsSql(seen(), "c")}`,
    );
    expect(rows).toEqual(sorted(SEES[person].clients));
  });

  it("sees these jobs (Prisma form)", async () => {
    const rows = await db.prisma.job.findMany({
      where: { AND: [{ tenantId: tenantId() }, visibleJobs(seen()) ?? {}] },
    });
    expect(rows.map((r) => r.name).sort()).toEqual(sorted(SEES[person].jobs));
  });

  it("sees the same jobs (SQL form)", async () => {
    const rows = await names(
      Prisma.sql`SELECT j.name FROM jobs j WHERE j.tenant_id = ${tenantId()} AND ${visibleJobsSql(seen(), "j")}`,
    );
    expect(rows).toEqual(sorted(SEES[person].jobs));
  });

  it("sees these contacts (Prisma form)", async () => {
    const rows = await db.prisma.contact.findMany({
      where: { AND: [{ tenantId: tenantId() }, visibleContacts(seen()) ?? {}] },
    });
    expect(rows.map((r) => `${r.firstname} ${r.lastname}`).sort()).toEqual(sorted(SEES[person].contacts));
  });

  it("sees the same contacts (SQL form)", async () => {
    const rows = await names(
      Prisma.sql`SELECT k.firstname || ' ' || k.lastname AS name FROM contacts k
        WHERE k.tenant_id = ${tenantId()} AND ${visibleContactsSql(seen(), "k")}`,
    );
    expect(rows).toEqual(sorted(SEES[person].contacts));
  });
});

describe("clientsSeen: the rule both forms build on", () => {
  const user = { id: 1, firstname: "A", lastname: "B", email: "a@b.test", timezone: "UTC", isOwner: false };

  it.each([
    [
      "the Owner (is_owner), whatever the role's name",
      { ...user, isOwner: true, clientAccess: "client_groups" },
      "Standard",
      "all",
    ],
    ["a user of the role named Owner", { ...user, clientAccess: "assigned_clients" }, "Owner", "all"],
    ["an Admin with limited access", { ...user, clientAccess: "client_groups" }, "Admin", "all"],
    ["a Standard user with access all", { ...user, clientAccess: "all" }, "Standard", "all"],
    ["a Standard user of client groups", { ...user, clientAccess: "client_groups" }, "Standard", "client_groups"],
    ["a Viewer of assigned clients", { ...user, clientAccess: "assigned_clients" }, "Viewer", "assigned_clients"],
  ] as const)("%s sees all clients or as the access says", (_, u, roleName, expected) => {
    expect(clientsSeen({ user: u, roleName })).toBe(expected);
    expect(seesAllClients({ user: u, roleName })).toBe(expected === "all");
  });
});
