// `npm run bench:seed`: migrates DATABASE_URL, seeds the small demo tenants, then one large tenant (100k clients,
// 300k contacts, 200k jobs, 1M time logs) with set-based INSERT ... SELECT generate_series statements, run in
// chunks so that a progress bar can follow, then 16 firms a fiftieth of its size each (the noisy-neighbour part's
// many firms, issue 54: 2,000 clients and 20,000 time logs, so that each firm's 1,000-row pages are full ones).
// Writes tokens for the large tenant's owner, for one of its `assigned_clients` users and for each firm's owner to
// bench/out/tokens.json (tokens-smoke.json with BENCH_SMOKE=1).
// BENCH_CLIENTS sets the large tenant's size (default 100,000 clients; the other tables follow, per client, and the
// firms' size with it): the CI smoke run seeds 1,000 (and 20 a firm) in seconds. BENCH_FIRM_CLIENTS sets a firm's.
import "@/scripts/env";
import { mkdir, writeFile } from "node:fs/promises";
import bcrypt from "bcryptjs";
import pg from "pg";
import { BUILT_IN_ROLES } from "@/lib/auth/permissions";
import { closeDatabase, prisma } from "@/lib/db/client";
import { directDatabaseUrl } from "@/lib/db/describe";
import { tenantDb } from "@/lib/db/tenant";
import { seedDemo } from "@/lib/demo/seed";
import { createApiToken } from "@/lib/tokens";
import { announceDatabase } from "@/scripts/env";
import { migrate } from "@/scripts/migrate";
import { BENCH_OUT, type BenchTokens, TOKENS_FILE } from "./config";

const SCALE = {
  clients: Number(process.env.BENCH_CLIENTS ?? 100_000),
  contactsPerClient: 3,
  jobsPerClient: 2,
  timeLogsPerJob: 5,
};
const CHUNK_ROWS = 50_000;
const STAFF = 40; // users of the large tenant
/** The noisy-neighbour part's other firms (bench/noisy.ts): 8 busy ones, and 16 syncing at once. */
const FIRMS = 16;
const FIRM_CLIENTS = Number(process.env.BENCH_FIRM_CLIENTS ?? Math.max(20, Math.round(SCALE.clients / 50)));
const FIRM_STAFF = 8;

const url = process.env.DATABASE_URL;
if (!url)
  throw new Error(
    "Set DATABASE_URL to the PostgreSQL database to fill (e.g. postgresql://postgres@127.0.0.1:5432/cjt_bench).",
  );
process.env.DEMO_SEED = "off";

/** A one-line progress bar on stderr: `label [#####.....] 40%`. */
function progress(label: string, done: number, total: number) {
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(
    `\r${label.padEnd(22)} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${Math.round((done / total) * 100)}%`,
  );
  if (done === total) process.stderr.write("\n");
}

/**
 * Runs `statement(from, to)` over 1..total in chunks (each a generate_series or id range), showing progress unless
 * `quiet` (the small firms: one line each instead of a bar per table).
 */
async function inChunks(
  session: pg.Client,
  label: string,
  total: number,
  statement: (from: number, to: number) => string,
  quiet = false,
) {
  const started = Date.now();
  for (let from = 1; from <= total; from += CHUNK_ROWS) {
    const to = Math.min(total, from + CHUNK_ROWS - 1);
    await session.query(statement(from, to));
    if (!quiet) progress(label, to, total);
  }
  if (!quiet) console.error(`  ${total.toLocaleString("en")} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const sqlArray = (items: string[]) => `ARRAY[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(",")}]`;
/** The (1-based) element of a SQL array literal picked by an integer expression. */
const pick = (items: string[], index: string) => `(${sqlArray(items)})[1 + ((${index}) % ${items.length})]`;

const FIRST = [
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
  "Victor",
  "Wen",
  "Yusuf",
  "Zara",
];
const LAST = [
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
  "OBrien",
  "Patel",
  "Reid",
  "Singh",
  "Turner",
  "Walsh",
  "Young",
  "Zhang",
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
  "Willow",
  "Falcon",
  "Ember",
  "Kestrel",
  "Orchard",
  "Beacon",
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
  "Plumbing",
  "Vets",
  "Joinery",
  "Florists",
];
const SUFFIXES = ["Ltd", "LLP", "& Co", "Group", "Partners"];
const CITIES = ["London", "Leeds", "Glasgow", "Dublin", "Cork", "Boston", "Berlin", "Manchester", "Bristol", "Cardiff"];
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
const NOTES = [
  "Reconciled bank statements",
  "Call with client",
  "Prepared working papers",
  "Reviewed payroll",
  "Chased missing receipts",
  "Filed return",
];

/** A tenant as the bench seeds it: its name, its people's e-mail domain, its size and whether its tables show bars. */
interface TenantShape {
  name: string;
  domain: string;
  clients: number;
  staff: number;
  quiet?: boolean;
}

/** Seeds one tenant of `shape` (clients, contacts, jobs and time logs per client as SCALE says); its users. */
async function seedTenant(session: pg.Client, shape: TenantShape) {
  const client = await prisma();
  const tenant = await client.tenant.create({ data: { name: shape.name, timezone: "Europe/London" } });
  const tenantId = tenant.id;
  const db = tenantDb(client, tenantId);
  const roles = Object.fromEntries(
    (
      await db.role.createManyAndReturn({
        data: Object.entries(BUILT_IN_ROLES).map(([name, permissions]) => ({
          tenantId,
          name,
          permissions: [...permissions],
        })),
      })
    ).map((r) => [r.name, r.id]),
  );
  const passwordHash = await bcrypt.hash("bench-password", 10);
  const users = await db.user.createManyAndReturn({
    data: Array.from({ length: shape.staff }, (_, i) => ({
      tenantId,
      firstname: FIRST[i % FIRST.length],
      lastname: LAST[(i * 7) % LAST.length],
      email: i === 0 ? `owner@${shape.domain}` : `staff${i}@${shape.domain}`,
      passwordHash,
      roleId: i === 0 ? roles.Owner : i < 4 ? roles.Admin : roles.Standard,
      isOwner: i === 0,
      // Every fifth Standard user sees only assigned clients: the visibility rule with the costliest filter.
      clientAccess: i >= 4 && i % 5 === 0 ? ("assigned_clients" as const) : ("all" as const),
      timezone: "Europe/London",
    })),
  });
  const ids = async (table: string) =>
    (await session.query(`SELECT id FROM ${table} WHERE tenant_id = $1 ORDER BY id`, [tenantId])).rows.map(
      (r) => r.id as number,
    );
  await db.clientGroup.createMany({
    data: ["North", "South", "East", "West", "Payroll", "Charities"].map((name) => ({ tenantId, name })),
  });
  await db.tag.createMany({
    data: ["VAT", "Payroll", "Year-end", "Priority", "Bookkeeping", "Audit", "Charity", "Startup"].map((name) => ({
      tenantId,
      name,
    })),
  });
  await db.customField.createMany({
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
    ],
  });
  await db.jobStatus.createMany({
    data: [
      { tenantId, slug: "not-started", name: "Not started", position: 0 },
      { tenantId, slug: "in-progress", name: "In progress", position: 1 },
      { tenantId, slug: "awaiting-client", name: "Awaiting client", position: 2 },
      { tenantId, slug: "in-review", name: "In review", position: 3 },
      { tenantId, slug: "completed", name: "Completed", isCompleted: true, position: 4 },
    ],
  });
  const userIds = await ids("users");
  const groupIds = await ids("client_groups");
  const tagIds = await ids("tags");
  const fieldIds = await ids("custom_fields");
  const statusIds = await ids("job_statuses");
  const countryIds = (await session.query("SELECT id FROM countries ORDER BY id LIMIT 20")).rows.map(
    (r) => r.id as number,
  );
  const userAt = (index: string) => `(ARRAY[${userIds}])[1 + ((${index}) % ${userIds.length})]`;
  const idAt = (list: number[], index: string) => `(ARRAY[${list}])[1 + ((${index}) % ${list.length})]`;
  await session.query("SET synchronous_commit = off");

  // Row i of each table gets id base+i: the tenant's sequences are shared, so read where they stand first.
  const nextId = async (table: string) =>
    Number((await session.query(`SELECT coalesce(max(id), 0) AS id FROM ${table}`)).rows[0].id);
  const clientBase = await nextId("clients");
  const { contactsPerClient, jobsPerClient, timeLogsPerJob } = SCALE;
  const { clients, quiet } = shape;
  // Who is assigned which client (a trigger on clients and one on job_assignees) is rebuilt once after the jobs.
  await session.query("ALTER TABLE clients DISABLE TRIGGER clients_assigned");
  await session.query("ALTER TABLE job_assignees DISABLE TRIGGER job_assignees_assigned");
  await inChunks(
    session,
    "clients",
    clients,
    (from, to) => `
    INSERT INTO clients (tenant_id, id, name, client_ref, reg_number, website, country_id, state, city, street_address,
                         postal_code, year_end, is_archived, client_status, account_manager_id, created_at, updated_at)
    SELECT ${tenantId}, ${clientBase} + i,
           ${pick(NAME_PARTS, "i * 7")} || ' ' || ${pick(NAME_KINDS, "i / 18")} || ' ' || ${pick(SUFFIXES, "i / 3")},
           'BL-' || lpad(i::text, 6, '0'),
           CASE WHEN i % 3 = 0 THEN NULL ELSE 'RN' || (1000000 + i) END,
           CASE WHEN i % 2 = 0 THEN 'https://client' || i || '.example' END,
           ${idAt(countryIds, "i")},
           NULL, ${pick(CITIES, "i / 5")}, (1 + i % 200) || ' High Street', 'AB' || (1 + i % 9) || ' ' || (1 + i % 7) || 'XY',
           ${pick(["12-31", "03-31", "06-30", "09-30", "04-05"], "i")},
           i % 12 = 11, CASE WHEN i % 5 = 4 THEN 'prospect' ELSE 'active' END::"ClientStatus",
           ${userAt("i")}, now() - (i % 1825) * interval '1 day' - (i % 86400) * interval '1 second', now()
    FROM generate_series(${from}, ${to}) AS i`,
    quiet,
  );
  await inChunks(
    session,
    "client groups and tags",
    clients,
    (from, to) => `
    WITH g AS (INSERT INTO client_group_members (tenant_id, client_id, group_id)
               SELECT ${tenantId}, ${clientBase} + i, ${idAt(groupIds, "i")} FROM generate_series(${from}, ${to}) AS i)
    INSERT INTO client_tags (tenant_id, client_id, tag_id)
    SELECT ${tenantId}, ${clientBase} + i, ${idAt(tagIds, "i + k")}
    FROM generate_series(${from}, ${to}) AS i, generate_series(0, 1) AS k WHERE k = 0 OR i % 3 = 0`,
    quiet,
  );
  const [industry, employees, onboarded, aml] = fieldIds;
  await inChunks(
    session,
    "custom field values",
    clients,
    (from, to) => `
    INSERT INTO custom_field_values (tenant_id, client_id, field_id, value)
    SELECT ${tenantId}, ${clientBase} + i, f.id, f.value
    FROM generate_series(${from}, ${to}) AS i,
         LATERAL (VALUES (${industry}, to_jsonb(${pick(["Retail", "Hospitality", "Construction", "Technology", "Charity"], "i")})),
                         (${employees}, to_jsonb(1 + i % 250)),
                         (${onboarded}, to_jsonb(to_char(current_date - (i % 900), 'YYYY-MM-DD'))),
                         (${aml}, to_jsonb(i % 4 <> 0))) AS f(id, value)
    WHERE f.id <> ${onboarded} OR i % 2 = 0`,
    quiet,
  );

  const contactBase = await nextId("contacts");
  const contacts = clients * contactsPerClient;
  // Linking a contact makes a trigger recompute its client's search text; in bulk, that is done once per client below.
  await session.query("ALTER TABLE client_contacts DISABLE TRIGGER client_contacts_search_text");
  await inChunks(
    session,
    "contacts",
    contacts,
    (from, to) => `
    WITH c AS (
      INSERT INTO contacts (tenant_id, id, firstname, lastname, preferred_name, email, phone_number, portal_enabled, created_at, updated_at)
      SELECT ${tenantId}, ${contactBase} + i, ${pick(FIRST, "i")}, ${pick(LAST, "i / 24")}, ${pick(FIRST, "i")},
             lower(${pick(FIRST, "i")} || '.' || ${pick(LAST, "i / 24")} || '.' || i || '@bench-clients.test'),
             CASE WHEN i % 2 = 0 THEN '+44 20 7946 ' || lpad((i % 10000)::text, 4, '0') END, i % 3 <> 0, now(), now()
      FROM generate_series(${from}, ${to}) AS i
      RETURNING id)
    INSERT INTO client_contacts (tenant_id, client_id, contact_id, title, include_for_client_requests, is_primary)
    SELECT ${tenantId}, ${clientBase} + 1 + (id - ${contactBase} - 1) / ${contactsPerClient}, id,
           CASE WHEN (id - ${contactBase} - 1) % ${contactsPerClient} = 0 THEN 'Director' ELSE 'Finance manager' END,
           (id - ${contactBase} - 1) % ${contactsPerClient} = 0, (id - ${contactBase} - 1) % ${contactsPerClient} = 0
    FROM c`,
    quiet,
  );
  await session.query("ALTER TABLE client_contacts ENABLE TRIGGER client_contacts_search_text");
  await inChunks(
    session,
    "client search text",
    clients,
    (from, to) => `
    UPDATE clients SET search_text = DEFAULT WHERE tenant_id = ${tenantId} AND id BETWEEN ${clientBase} + ${from} AND ${clientBase} + ${to}`,
    quiet,
  );

  const jobBase = await nextId("jobs");
  const jobs = clients * jobsPerClient;
  const completed = statusIds[4];
  await inChunks(
    session,
    "jobs",
    jobs,
    (from, to) => `
    INSERT INTO jobs (tenant_id, id, name, description, status_id, client_id, start_date, due_date, internal_due_date,
                      estimated_hours, is_completed, completed_date, is_client_request, created_at, updated_at)
    SELECT ${tenantId}, ${jobBase} + i, ${pick(JOB_KINDS, "i")} || ' ' || (2024 + i % 3), 'Prepare and file.',
           s.id, ${clientBase} + 1 + (i - 1) / ${jobsPerClient},
           current_date + (i % 730 - 400) - 14, current_date + (i % 730 - 400), current_date + (i % 730 - 400) - 3,
           1 + i % 40, s.id = ${completed}, CASE WHEN s.id = ${completed} THEN current_date + (i % 730 - 400) - 1 END,
           i % 9 = 0, now() - (i % 1000) * interval '1 day', now()
    FROM generate_series(${from}, ${to}) AS i, LATERAL (SELECT ${idAt(statusIds, "i")} AS id) AS s`,
    quiet,
  );
  await inChunks(
    session,
    "job people and tags",
    jobs,
    (from, to) => `
    WITH a AS (INSERT INTO job_assignees (tenant_id, job_id, user_id)
               SELECT ${tenantId}, ${jobBase} + i, ${userAt("i")} FROM generate_series(${from}, ${to}) AS i),
         f AS (INSERT INTO job_followers (tenant_id, job_id, user_id)
               SELECT ${tenantId}, ${jobBase} + i, ${userAt("i + 1")} FROM generate_series(${from}, ${to}) AS i WHERE i % 5 = 0)
    INSERT INTO job_tags (tenant_id, job_id, tag_id)
    SELECT ${tenantId}, ${jobBase} + i, ${idAt(tagIds, "i")} FROM generate_series(${from}, ${to}) AS i WHERE i % 2 = 0`,
    quiet,
  );

  await session.query("ALTER TABLE clients ENABLE TRIGGER clients_assigned");
  await session.query("ALTER TABLE job_assignees ENABLE TRIGGER job_assignees_assigned");
  await session.query("SELECT rebuild_assigned_clients()");

  const timeLogBase = await nextId("time_logs");
  // Each time log moves its user's count for its day (a trigger); in bulk, the counts are made once below.
  await session.query("ALTER TABLE time_logs DISABLE TRIGGER time_logs_day_counts");
  await inChunks(
    session,
    "time logs",
    jobs * timeLogsPerJob,
    (from, to) => `
    INSERT INTO time_logs (tenant_id, id, user_id, job_id, client_id, note, minutes, date, created_at, updated_at)
    SELECT ${tenantId}, ${timeLogBase} + i, ${userAt("i / 3")}, ${jobBase} + j, ${clientBase} + 1 + (j - 1) / ${jobsPerClient},
           ${pick(NOTES, "i")}, 15 * (1 + i % 16), d, d + interval '17 hours', d + interval '17 hours'
    FROM generate_series(${from}, ${to}) AS i,
         LATERAL (SELECT 1 + (i - 1) / ${timeLogsPerJob} AS j, current_date - (i % 730) AS d) AS x`,
    quiet,
  );
  await session.query("ALTER TABLE time_logs ENABLE TRIGGER time_logs_day_counts");
  await session.query(`
    INSERT INTO time_log_day_counts (tenant_id, user_id, date, count)
    SELECT tenant_id, user_id, date, count(*) FROM time_logs WHERE tenant_id = ${tenantId} GROUP BY tenant_id, user_id, date`);

  // Rows were inserted with explicit ids: move the sequences past them.
  for (const table of ["clients", "contacts", "jobs", "time_logs"]) {
    await session.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
  }
  return users;
}

const mint = async (user: { tenantId: number; id: number }) =>
  (await createApiToken(await prisma(), { tenantId: user.tenantId, userId: user.id }, "Benchmark")).token;

/** The large tenant, then the firms; each firm's owner's token in `firms`. */
async function seedTenants(session: pg.Client): Promise<BenchTokens> {
  const users = await seedTenant(session, {
    name: "Bench Large Firm",
    domain: "bench.test",
    clients: SCALE.clients,
    staff: STAFF,
  });
  const firms: string[] = [];
  for (let n = 1; n <= FIRMS; n++) {
    const started = Date.now();
    const [owner] = await seedTenant(session, {
      name: `Bench Firm ${n}`,
      domain: `firm${n}.bench.test`,
      clients: FIRM_CLIENTS,
      staff: FIRM_STAFF,
      quiet: true,
    });
    firms.push(await mint(owner));
    console.error(
      `Bench Firm ${n}: ${FIRM_CLIENTS.toLocaleString("en")} clients in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  console.error("analyzing ...");
  // Setting the search texts rewrote every client row: compact the table as a long-lived one would be.
  await session.query("VACUUM FULL clients");
  await session.query("VACUUM ANALYZE");
  const assigned = users.find((u) => u.clientAccess === "assigned_clients")!;
  return { owner: await mint(users[0]), assigned: await mint(assigned), firms };
}

// Session settings and trigger switches need one real connection: the direct URL when a pooler is in front.
const session = new pg.Client({ connectionString: directDatabaseUrl() });
try {
  announceDatabase();
  await migrate();
  const client = await prisma();
  if ((await client.tenant.count()) > 0)
    throw new Error("The database is not empty: drop and recreate it first (the bench seed fills an empty one).");
  await seedDemo(client);
  await session.connect();
  const tokens = await seedTenants(session);
  await mkdir(BENCH_OUT, { recursive: true });
  await writeFile(TOKENS_FILE, JSON.stringify(tokens, null, 2) + "\n");
  // The tokens themselves are never printed: CI's log is checked for token values (.ci/log-check).
  console.log(`Bench tokens written to ${TOKENS_FILE}.`);
} finally {
  await session.end();
  await closeDatabase();
}
