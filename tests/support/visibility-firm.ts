// A small firm of its own, made inside the tests that need it (not the shared demo seed, whose rows other tests
// count): one person per way of seeing clients, two client groups each with its own member, and jobs followed or
// assigned outside a person's clients. A fresh firm on every call, so a test can run again on the same database.
import { randomUUID } from "node:crypto";
import type { Caller } from "@/lib/auth/caller";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { ClientAccess } from "@/lib/generated/prisma/enums";
import { NEW_TENANT_ROLES } from "@/lib/tenants/create";

const PEOPLE = {
  /** The firm's Owner, with a limited client access: Owners see every client whatever it says. */
  owner: { role: "Owner", access: "assigned_clients" },
  /** An Admin with a limited client access: Admins too see every client. */
  admin: { role: "Admin", access: "assigned_clients" },
  staff: { role: "Standard", access: "all" },
  /** Account manager of "Managed Ltd", assignee of a job of "By Job Ltd", follower of a job of "Unseen Ltd". */
  assigned: { role: "Standard", access: "assigned_clients" },
  /** In the North group; assignee of a job of "Unseen Ltd" and follower of one of "South Ltd". */
  grouped: { role: "Standard", access: "client_groups" },
  /** In the South group, so "groups of anyone" is not "my groups". */
  colleague: { role: "Standard", access: "client_groups" },
  /** Reads only, and is given no client. */
  viewer: { role: "Viewer", access: "assigned_clients" },
} as const satisfies Record<string, { role: string; access: ClientAccess }>;
export type Person = keyof typeof PEOPLE;

export const CLIENTS = ["Managed Ltd", "By Job Ltd", "North Ltd", "South Ltd", "Unseen Ltd"] as const;
export const JOBS = [
  "Managed work",
  "By Job work",
  "North work",
  "South work",
  "Unseen work",
  "Followed by assigned",
  "Assigned to grouped",
  "Followed by grouped",
  "Work of no client",
] as const;
export const CONTACTS = ["Managed contact", "North contact", "South contact", "Contact of no client"] as const;

export type Firm = Awaited<ReturnType<typeof makeVisibilityFirm>>;

export async function makeVisibilityFirm(db: PrismaClient) {
  const tenant = await db.tenant.create({
    data: {
      name: `Visibility ${randomUUID()}`,
      roles: {
        create: Object.entries(NEW_TENANT_ROLES).map(([name, permissions]) => ({
          name,
          permissions: [...permissions],
        })),
      },
    },
    include: { roles: true },
  });
  const tenantId = tenant.id;
  const roleId = (name: string) => tenant.roles.find((r) => r.name === name)!.id;
  const people = {} as Record<Person, Awaited<ReturnType<typeof db.user.create>>>;
  for (const [key, { role, access }] of Object.entries(PEOPLE) as [Person, (typeof PEOPLE)[Person]][]) {
    people[key] = await db.user.create({
      data: {
        tenantId,
        firstname: key,
        lastname: "Tester",
        email: `${key}@visibility.test`,
        roleId: roleId(role),
        clientAccess: access,
        isOwner: role === "Owner",
      },
    });
  }
  const [north, south] = await db.clientGroup.createManyAndReturn({
    data: [
      { tenantId, name: "North" },
      { tenantId, name: "South" },
    ],
  });
  await db.userClientGroup.createMany({
    data: [
      { tenantId, userId: people.grouped.id, groupId: north.id },
      { tenantId, userId: people.colleague.id, groupId: south.id },
    ],
  });
  const clients = Object.fromEntries(
    await Promise.all(
      CLIENTS.map(async (name) => [
        name,
        await db.client.create({
          data: {
            tenantId,
            name,
            accountManagerId: name === "Managed Ltd" ? people.assigned.id : null,
          },
        }),
      ]),
    ),
  ) as Record<(typeof CLIENTS)[number], { id: number; uuid: string }>;
  await db.clientGroupMember.createMany({
    data: [
      { tenantId, groupId: north.id, clientId: clients["North Ltd"].id },
      { tenantId, groupId: south.id, clientId: clients["South Ltd"].id },
    ],
  });
  const jobOf: Record<
    (typeof JOBS)[number],
    { client: (typeof CLIENTS)[number] | null; assignee?: Person; follower?: Person }
  > = {
    "Managed work": { client: "Managed Ltd" },
    "By Job work": { client: "By Job Ltd", assignee: "assigned" },
    "North work": { client: "North Ltd" },
    "South work": { client: "South Ltd" },
    "Unseen work": { client: "Unseen Ltd" },
    "Followed by assigned": { client: "Unseen Ltd", follower: "assigned" },
    "Assigned to grouped": { client: "Unseen Ltd", assignee: "grouped" },
    "Followed by grouped": { client: "South Ltd", follower: "grouped" },
    "Work of no client": { client: null },
  };
  const jobs = {} as Record<(typeof JOBS)[number], { id: number; uuid: string }>;
  for (const name of JOBS) {
    const { client, assignee, follower } = jobOf[name];
    const job = await db.job.create({ data: { tenantId, name, clientId: client && clients[client].id } });
    if (assignee) await db.jobAssignee.create({ data: { tenantId, jobId: job.id, userId: people[assignee].id } });
    if (follower) await db.jobFollower.create({ data: { tenantId, jobId: job.id, userId: people[follower].id } });
    jobs[name] = job;
  }
  const contactOf: Record<(typeof CONTACTS)[number], (typeof CLIENTS)[number] | null> = {
    "Managed contact": "Managed Ltd",
    "North contact": "North Ltd",
    "South contact": "South Ltd",
    "Contact of no client": null,
  };
  const contacts = {} as Record<(typeof CONTACTS)[number], { id: number; uuid: string }>;
  for (const name of CONTACTS) {
    const [firstname, ...rest] = name.split(" ");
    const lastname = rest.join(" ");
    const client = contactOf[name];
    const contact = await db.contact.create({
      data: {
        tenantId,
        firstname,
        lastname,
        preferredName: firstname,
        email: `${name.replaceAll(" ", ".").toLowerCase()}@visibility.test`,
      },
    });
    if (client)
      await db.clientContact.create({ data: { tenantId, clientId: clients[client].id, contactId: contact.id } });
    contacts[name] = contact;
  }

  /** A person as the visibility rules see a caller. */
  const viewer = (person: Person): Pick<Caller, "user" | "roleName"> => ({
    user: people[person],
    roleName: PEOPLE[person].role,
  });
  return { tenant, people, clients, jobs, contacts, viewer };
}
