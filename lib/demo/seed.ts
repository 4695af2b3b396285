// Deterministic demo data: the same rows on every run (dates are relative to the day of seeding). Two tenants,
// so that tenant isolation can be seen; users of every role and client visibility; clients, contacts, jobs with
// subtasks and time logs. Used by `npm run db:seed`, by a start that asked for it (lib/demo/startup.ts), and by
// the tests as their fixture. The one thing that is not deterministic is the demo token: a fixed one would be a
// credential anyone could compute.

import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import bcrypt from "bcryptjs";
import { BUILT_IN_ROLES } from "@/lib/auth/permissions";
import { printedBaseUrl } from "@/lib/base-url";
import { type TenantDb, tenantDb } from "@/lib/db/tenant";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { ClientAccess } from "@/lib/generated/prisma/enums";
import { createApiToken } from "@/lib/tokens";

export const DEMO_PASSWORD = "demo-password";

export interface DemoSummary {
  tenants: { name: string; users: { email: string; role: string; access: ClientAccess; archived: boolean }[] }[];
  /** Known only to the seed that made it (the database keeps its hash), which keeps it in demoTokenFile(). */
  token?: string;
  tokenOwner: string;
}

/** A small deterministic random source (mulberry32), so every seed produces the same data. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}

const DAY = 86_400_000;
const today = () => new Date(new Date().toISOString().slice(0, 10) + "T00:00:00Z");
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY);

const FIRST_NAMES = [
  "Alice",
  "Ben",
  "Chloe",
  "Dev",
  "Emma",
  "Farid",
  "Grace",
  "Hugo",
  "Isla",
  "Jack",
  "Kiran",
  "Lena",
  "Mo",
  "Nina",
  "Oscar",
  "Priya",
  "Quinn",
  "Rosa",
  "Tom",
  "Uma",
];
const LAST_NAMES = [
  "Archer",
  "Baker",
  "Clarke",
  "Doyle",
  "Evans",
  "Fischer",
  "Gupta",
  "Hughes",
  "Iqbal",
  "Jones",
  "Kelly",
  "Lopez",
  "Murphy",
  "Novak",
  "O'Brien",
  "Patel",
  "Reid",
  "Singh",
  "Turner",
  "Walsh",
];
const NAME_PARTS = [
  "Harbour",
  "Oak",
  "Summit",
  "Riverside",
  "Copper",
  "Lantern",
  "Meadow",
  "Granite",
  "Bluebell",
  "Northwind",
  "Saffron",
  "Atlas",
];
const NAME_KINDS = [
  "Bakery",
  "Builders",
  "Consulting",
  "Dental",
  "Design",
  "Foods",
  "Garage",
  "Logistics",
  "Media",
  "Pharmacy",
  "Studios",
  "Trust",
];
const SUFFIXES = ["Ltd", "LLP", "& Co", "Group", "Partners"];
const CITIES: [string, string, string][] = [
  ["GB", "London", "England"],
  ["GB", "Leeds", "England"],
  ["GB", "Glasgow", "Scotland"],
  ["IE", "Dublin", "Leinster"],
  ["IE", "Cork", "Munster"],
  ["US", "Boston", "Massachusetts"],
  ["DE", "Berlin", "Berlin"],
];
const JOB_KINDS = [
  "VAT return",
  "Year-end accounts",
  "Payroll run",
  "Bookkeeping",
  "Corporation tax return",
  "Management accounts",
  "Self assessment",
  "Audit preparation",
];

async function hash(password: string) {
  return bcrypt.hash(password, 10);
}

async function createRoles(db: TenantDb, tenantId: number) {
  const roles = await db.role.createManyAndReturn({
    data: [
      ...Object.entries(BUILT_IN_ROLES).map(([name, permissions]) => ({
        tenantId,
        name,
        permissions: [...permissions],
      })),
      // A custom role that may read but change nothing: what a tenant-defined role looks like.
      { tenantId, name: "Viewer", permissions: [] },
    ],
  });
  return Object.fromEntries(roles.map((r) => [r.name, r.id])) as Record<
    "Owner" | "Admin" | "Standard" | "Viewer",
    number
  >;
}

interface SeedUser {
  firstname: string;
  lastname: string;
  email: string;
  role: "Owner" | "Admin" | "Standard" | "Viewer";
  access?: ClientAccess;
  archived?: boolean;
  timezone?: string;
}

async function createUsers(
  db: TenantDb,
  tenantId: number,
  roles: Record<string, number>,
  people: SeedUser[],
  passwordHash: string,
) {
  const users = await db.user.createManyAndReturn({
    data: people.map((p) => ({
      tenantId,
      firstname: p.firstname,
      lastname: p.lastname,
      email: p.email,
      passwordHash,
      roleId: roles[p.role],
      isOwner: p.role === "Owner",
      clientAccess: p.access ?? "all",
      timezone: p.timezone ?? "Europe/London",
      archivedDate: p.archived ? addDays(today(), -30) : null,
      avatarUrl: null,
    })),
  });
  return Object.fromEntries(users.map((u) => [u.email, u]));
}

interface TenantPlan {
  name: string;
  timezone: string;
  seed: number;
  people: SeedUser[];
  clients: number;
  jobs: number;
  emailDomain: string;
  clientRefPrefix: string;
}

async function seedTenant(client: PrismaClient, plan: TenantPlan, passwordHash: string) {
  const rand = random(plan.seed);
  const tenant = await client.tenant.create({ data: { name: plan.name, timezone: plan.timezone } });
  const db = tenantDb(client, tenant.id);
  const tenantId = tenant.id;
  const roles = await createRoles(db, tenantId);
  const users = await createUsers(db, tenantId, roles, plan.people, passwordHash);
  const activeUsers = Object.values(users).filter((u) => !u.archivedDate);
  const staff = activeUsers.filter((u) => u.clientAccess === "all");

  const groups = await db.clientGroup.createManyAndReturn({
    data: ["North", "South", "Payroll"].map((name) => ({ tenantId, name })),
  });
  const groupUser = Object.values(users).find((u) => u.clientAccess === "client_groups");
  if (groupUser) await db.userClientGroup.create({ data: { tenantId, userId: groupUser.id, groupId: groups[0].id } });
  const tags = await db.tag.createManyAndReturn({
    data: ["VAT", "Payroll", "Year-end", "Priority", "Bookkeeping"].map((name) => ({ tenantId, name })),
  });
  const fields = await db.customField.createManyAndReturn({
    data: [
      {
        tenantId,
        name: "industry",
        type: "select",
        options: ["Retail", "Hospitality", "Construction", "Technology", "Charity"],
        position: 0,
      },
      { tenantId, name: "employees", type: "number", options: [], position: 1 },
      { tenantId, name: "onboarded_on", type: "date", options: [], position: 2 },
      { tenantId, name: "aml_checked", type: "boolean", options: [], position: 3 },
      { tenantId, name: "notes", type: "text", options: [], position: 4 },
    ],
  });
  const statuses = await db.jobStatus.createManyAndReturn({
    data: [
      { tenantId, slug: "not-started", name: "Not started", isCompleted: false, position: 0 },
      { tenantId, slug: "in-progress", name: "In progress", isCompleted: false, position: 1 },
      { tenantId, slug: "awaiting-client", name: "Awaiting client", isCompleted: false, position: 2 },
      { tenantId, slug: "in-review", name: "In review", isCompleted: false, position: 3 },
      { tenantId, slug: "completed", name: "Completed", isCompleted: true, position: 4 },
    ],
  });
  const countries = Object.fromEntries(
    (await client.country.findMany({ where: { code: { in: ["GB", "IE", "US", "DE"] } } })).map((c) => [c.code, c.id]),
  );
  const assignedUser = Object.values(users).find((u) => u.clientAccess === "assigned_clients");

  // Clients, with deterministic names that never repeat within a tenant.
  const clientRows = Array.from({ length: plan.clients }, (_, i) => {
    const [country, city, state] = CITIES[i % CITIES.length];
    const name = `${NAME_PARTS[i % NAME_PARTS.length]} ${NAME_KINDS[(i * 5 + plan.seed) % NAME_KINDS.length]} ${SUFFIXES[i % SUFFIXES.length]}`;
    return {
      tenantId,
      name,
      clientRef: `${plan.clientRefPrefix}-${String(i + 1).padStart(3, "0")}`,
      regNumber: i % 3 === 0 ? null : `RN${String(100000 + i * 7919).slice(0, 6)}`,
      website: i % 2 === 0 ? `https://www.${name.split(" ")[0].toLowerCase()}${i}.example` : null,
      countryId: countries[country] ?? null,
      city,
      state,
      streetAddress: `${rand.int(1, 200)} ${rand.pick(["High Street", "Mill Lane", "Station Road", "Church Street"])}`,
      postalCode: `${rand.pick(["AB", "CD", "EF"])}${rand.int(1, 9)} ${rand.int(1, 9)}XY`,
      yearEnd: rand.pick(["12-31", "03-31", "06-30", "09-30", "04-05"]),
      isArchived: i % 12 === 11,
      clientStatus: i % 5 === 4 ? ("prospect" as const) : ("active" as const),
      accountManagerId: assignedUser && i % 4 === 0 ? assignedUser.id : rand.pick(staff).id,
      createdAt: addDays(today(), -400 + i * 7),
    };
  });
  const clients = await db.client.createManyAndReturn({ data: clientRows });

  await db.clientGroupMember.createMany({
    data: clients.map((c, i) => ({ tenantId, clientId: c.id, groupId: groups[i % groups.length].id })),
  });
  await db.clientTag.createMany({
    data: clients.flatMap((c, i) => [
      { tenantId, clientId: c.id, tagId: tags[i % tags.length].id },
      ...(i % 3 === 0 ? [{ tenantId, clientId: c.id, tagId: tags[(i + 2) % tags.length].id }] : []),
    ]),
  });
  await db.customFieldValue.createMany({
    data: clients.flatMap((c, i) => [
      { tenantId, clientId: c.id, fieldId: fields[0].id, value: fields[0].options[i % fields[0].options.length] },
      { tenantId, clientId: c.id, fieldId: fields[1].id, value: rand.int(1, 250) },
      ...(i % 2 === 0
        ? [
            {
              tenantId,
              clientId: c.id,
              fieldId: fields[2].id,
              value: addDays(today(), -rand.int(30, 900)).toISOString().slice(0, 10),
            },
          ]
        : []),
      { tenantId, clientId: c.id, fieldId: fields[3].id, value: i % 4 !== 0 },
    ]),
  });

  // Contacts: one or two per client, the first the primary one.
  const contactRows = clients.flatMap((c, i) =>
    Array.from({ length: i % 3 === 0 ? 2 : 1 }, (_, k) => {
      const firstname = FIRST_NAMES[(i + k * 7) % FIRST_NAMES.length];
      const lastname = LAST_NAMES[(i * 3 + k) % LAST_NAMES.length];
      return {
        clientId: c.id,
        isPrimary: k === 0,
        firstname,
        lastname,
        email: `${firstname}.${lastname}.${i + 1}${k ? "b" : ""}@${plan.emailDomain}`.toLowerCase().replace("'", ""),
      };
    }),
  );
  const contacts = await db.contact.createManyAndReturn({
    data: contactRows.map(({ firstname, lastname, email }, i) => ({
      tenantId,
      firstname,
      lastname,
      preferredName: i % 4 === 0 ? firstname.slice(0, 3) : firstname,
      email,
      phoneNumber: i % 2 === 0 ? `+44 20 7946 ${String(1000 + i).slice(-4)}` : null,
      portalEnabled: i % 3 !== 0,
    })),
  });
  await db.clientContact.createMany({
    data: contactRows.map((row, i) => ({
      tenantId,
      clientId: row.clientId,
      contactId: contacts[i].id,
      isPrimary: row.isPrimary,
      title: row.isPrimary ? "Director" : "Finance manager",
      includeForClientRequests: row.isPrimary,
    })),
  });
  // A contact linked to no client: visible only to users who see all clients.
  await db.contact.create({
    data: {
      tenantId,
      firstname: "Lee",
      lastname: "Loose",
      preferredName: "Lee",
      email: `lee.loose@${plan.emailDomain}`,
    },
  });

  // Jobs: a tenth of them get two subtasks each, counted in the total.
  const parentsCount = Math.round(plan.jobs / 1.2);
  const jobRows = Array.from({ length: parentsCount }, (_, i) => {
    const status = statuses[i % statuses.length];
    const due = addDays(today(), rand.int(-60, 90));
    return {
      tenantId,
      name: `${JOB_KINDS[i % JOB_KINDS.length]} ${2025 + (i % 2)}${i >= JOB_KINDS.length * 2 ? ` #${Math.floor(i / (JOB_KINDS.length * 2)) + 1}` : ""}`,
      description: `Prepare and file the ${JOB_KINDS[i % JOB_KINDS.length].toLowerCase()}.`,
      statusId: status.id,
      clientId: i % 15 === 14 ? null : clients[i % clients.length].id,
      startDate: addDays(due, -rand.int(5, 30)),
      dueDate: due,
      internalDueDate: addDays(due, -3),
      extendedDueDate: i % 7 === 0 ? addDays(due, 14) : null,
      estimatedHours: String(rand.int(1, 40) + rand.pick([0, 0.25, 0.5, 0.75])),
      isCompleted: status.isCompleted,
      completedDate: status.isCompleted ? addDays(due, -1) : null,
      isClientRequest: i % 9 === 0,
      repeatSettings: i % 6 === 0 ? { frequency: "monthly", interval: 1 } : undefined,
      createdAt: addDays(today(), -200 + i),
    };
  });
  const jobs = await db.job.createManyAndReturn({ data: jobRows });
  const parents = jobs.filter((_, i) => i % 10 === 0);
  const subtasks = await db.job.createManyAndReturn({
    data: parents.flatMap((p) =>
      ["Collect records", "Review and sign off"].map((name, k) => ({
        tenantId,
        name: `${name}: ${p.name}`,
        parentId: p.id,
        clientId: p.clientId,
        statusId: statuses[k].id,
        startDate: p.startDate,
        dueDate: p.dueDate,
        estimatedHours: "2",
        createdAt: p.createdAt,
      })),
    ),
  });
  const allJobs = [...jobs, ...subtasks];
  const assignees = allJobs.flatMap((j, i) => {
    const first = activeUsers[i % activeUsers.length];
    const second = activeUsers[(i + 1) % activeUsers.length];
    return i % 4 === 0 && second.id !== first.id
      ? [
          { tenantId, jobId: j.id, userId: first.id },
          { tenantId, jobId: j.id, userId: second.id },
        ]
      : [{ tenantId, jobId: j.id, userId: first.id }];
  });
  await db.jobAssignee.createMany({ data: assignees });
  await db.jobFollower.createMany({
    data: allJobs.filter((_, i) => i % 5 === 0).map((j) => ({ tenantId, jobId: j.id, userId: staff[0].id })),
  });
  await db.jobTag.createMany({
    data: allJobs
      .filter((_, i) => i % 2 === 0)
      .map((j, i) => ({ tenantId, jobId: j.id, tagId: tags[i % tags.length].id })),
  });

  // Time logs on the weekdays of the last 90 days, by every active user, on jobs they are assigned to.
  const jobsById = new Map(jobs.map((j) => [j.id, j]));
  const assignedJobs = (userId: number) =>
    assignees.filter((a) => a.userId === userId && jobsById.has(a.jobId)).map((a) => jobsById.get(a.jobId)!);
  const logs = [];
  for (let d = 90; d >= 1; d--) {
    const date = addDays(today(), -d);
    if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
    for (const user of activeUsers) {
      const ownJobs = assignedJobs(user.id);
      for (let k = 0, n = ownJobs.length ? rand.int(0, 2) : 0; k < n; k++) {
        const job = rand.pick(ownJobs);
        logs.push({
          tenantId,
          userId: user.id,
          jobId: job.id,
          clientId: job.clientId,
          minutes: rand.pick([15, 30, 45, 60, 90, 120, 150, 240]),
          note: rand.pick([
            "Reconciled bank statements",
            "Call with client",
            "Prepared working papers",
            "Reviewed payroll",
            "Chased missing receipts",
          ]),
          date,
          createdAt: addDays(date, 0.7),
        });
      }
    }
  }
  await db.timeLog.createMany({ data: logs });
  return { tenant, users };
}

export const DEMO_TENANTS: TenantPlan[] = [
  {
    name: "Acme Accounting",
    timezone: "Europe/London",
    seed: 1,
    clients: 50,
    jobs: 200,
    emailDomain: "clients.acme.test",
    clientRefPrefix: "AC",
    people: [
      { firstname: "Olivia", lastname: "Owner", email: "owner@acme.test", role: "Owner" },
      { firstname: "Adam", lastname: "Admin", email: "admin@acme.test", role: "Admin", timezone: "America/New_York" },
      {
        firstname: "Casey",
        lastname: "Assigned",
        email: "assigned@acme.test",
        role: "Standard",
        access: "assigned_clients",
      },
      { firstname: "Gina", lastname: "Groups", email: "groups@acme.test", role: "Standard", access: "client_groups" },
      { firstname: "Sam", lastname: "Standard", email: "standard@acme.test", role: "Standard" },
      { firstname: "Val", lastname: "Viewer", email: "viewer@acme.test", role: "Viewer" },
      { firstname: "Arne", lastname: "Archived", email: "archived@acme.test", role: "Standard", archived: true },
    ],
  },
  {
    name: "Birch Bookkeeping",
    timezone: "Europe/Dublin",
    seed: 2,
    clients: 8,
    jobs: 24,
    // The same contact email domain as Acme: emails are unique per tenant, not across tenants.
    emailDomain: "clients.acme.test",
    clientRefPrefix: "AC",
    people: [
      { firstname: "Bea", lastname: "Birch", email: "owner@birch.test", role: "Owner", timezone: "Europe/Dublin" },
      {
        firstname: "Bo",
        lastname: "Branch",
        email: "standard@birch.test",
        role: "Standard",
        timezone: "Europe/Dublin",
      },
    ],
  },
];

/** Seeds the demo tenants into an empty database. */
export async function seedDemo(client: PrismaClient): Promise<DemoSummary> {
  if ((await client.tenant.count()) > 0)
    throw new Error("The database already has data: the demo seed only fills an empty one.");
  const passwordHash = await hash(DEMO_PASSWORD);
  const seeded = [];
  for (const plan of DEMO_TENANTS) seeded.push(await seedTenant(client, plan, passwordHash));
  const owner = seeded[0].users[DEMO_TOKEN_OWNER];
  const { token } = await createApiToken(client, { tenantId: owner.tenantId, userId: owner.id }, "Demo token");
  return demoSummary(token);
}

const DEMO_TOKEN_OWNER = "owner@acme.test";

export function demoSummary(token?: string): DemoSummary {
  return {
    tenants: DEMO_TENANTS.map((plan) => ({
      name: plan.name,
      users: plan.people.map((p) => ({
        email: p.email,
        role: p.role,
        access: p.access ?? "all",
        archived: !!p.archived,
      })),
    })),
    token,
    tokenOwner: DEMO_TOKEN_OWNER,
  };
}

/**
 * Where the seed keeps the demo token (DEMO_TOKEN_FILE, or .data/demo-token: git-ignored, readable only by its owner).
 * The token is never printed: what a seed prints ends up in logs (CI's, a host's), and a log is no place for a
 * credential. The printed call reads the file instead.
 */
export const demoTokenFile = () =>
  process.env.DEMO_TOKEN_FILE || path.join(/*turbopackIgnore: true*/ process.cwd(), ".data", "demo-token");

/** Keeps a new seed's token in its file (for the person who asked for the demo), then prints how to use the demo. */
export function announceDemo(summary: DemoSummary, baseUrl = printedBaseUrl()) {
  const file = demoTokenFile();
  if (summary.token) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${summary.token}\n`, { mode: 0o600 });
    chmodSync(file, 0o600); // the mode above applies only to a new file
  }
  // As the person would type it: relative to the folder they run the demo in.
  const shown = path.relative(process.cwd(), file);
  const lines = [
    "",
    `Demo data is in place. Sign in at ${baseUrl}/signin with any of these (the password is in README.md, Quick start):`,
  ];
  for (const tenant of summary.tenants) {
    lines.push(`  ${tenant.name}`);
    for (const u of tenant.users)
      lines.push(
        `    ${u.email.padEnd(22)} ${u.role}${u.access !== "all" ? `, sees ${u.access}` : ""}${u.archived ? " (archived: cannot sign in)" : ""}`,
      );
  }
  if (existsSync(file)) {
    lines.push(
      "",
      `The demo API token of ${summary.tokenOwner} (made when the data was seeded) is in ${shown}. Try:`,
      `  curl -H "Authorization: Bearer $(cat ${shown})" -H "Accept: application/json" ${baseUrl}/api/v1/me`,
      "",
    );
  } else {
    lines.push(
      "",
      `For an API token, sign in and open ${baseUrl}/settings/api-tokens.`,
      "(npm run token:create works only while the demo is stopped: one process at a time opens the embedded database.)",
      "",
    );
  }
  console.log(lines.join("\n"));
}
