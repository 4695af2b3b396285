// The clients each user is assigned (migration 20261122051824_assigned_clients), which client access
// `assigned_clients` reads: database triggers must keep the table equal to its definition, the clients a user is
// account manager of and those with a job assigned to the user, through every kind of write.
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/client";
import type { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { userByEmail } from "../support/api";

let db: PrismaClient;
let tenantId: number;
let casey: number;
let admin: number;

beforeAll(async () => {
  db = await prisma();
  const user = await userByEmail("assigned@acme.test");
  ({ tenantId, id: casey } = user);
  admin = (await userByEmail("admin@acme.test")).id;
});

const pair = (r: { tenantId: number; userId: number; clientId: number }) => `${r.tenantId}/${r.userId}/${r.clientId}`;

/** The (tenant, user, client) triples by definition, from the clients and jobs, and as the kept table has them. */
async function bothSets() {
  const [managed, assignments, kept] = await Promise.all([
    db.client.findMany({
      where: { accountManagerId: { not: null } },
      select: { tenantId: true, id: true, accountManagerId: true },
    }),
    db.jobAssignee.findMany({
      where: { job: { clientId: { not: null } } },
      select: { tenantId: true, userId: true, job: { select: { clientId: true } } },
    }),
    db.assignedClient.findMany(),
  ]);
  const defined = new Set([
    ...managed.map((c) => pair({ tenantId: c.tenantId, userId: c.accountManagerId!, clientId: c.id })),
    ...assignments.map((a) => pair({ tenantId: a.tenantId, userId: a.userId, clientId: a.job.clientId! })),
  ]);
  return { defined: [...defined].sort(), kept: kept.map(pair).sort() };
}

async function expectKeptAsDefined() {
  const { defined, kept } = await bothSets();
  expect(kept).toEqual(defined);
}

const keptFor = async (userId: number, clientId: number) =>
  (await db.assignedClient.count({ where: { tenantId, userId, clientId } })) === 1;

const newClient = (name: string, accountManagerId: number | null = null) =>
  db.client.create({ data: { tenantId, name, accountManagerId }, select: { id: true } });

describe("assigned clients", () => {
  it("match the seeded clients and jobs", async () => {
    const { defined, kept } = await bothSets();
    expect(defined.length).toBeGreaterThan(0);
    expect(kept).toEqual(defined);
  });

  it("follow a client's account manager as it is set, changed and cleared", async () => {
    const { id } = await newClient("Managed probe", casey);
    expect(await keptFor(casey, id)).toBe(true);

    await db.client.update({ where: { tenantId_id: { tenantId, id } }, data: { accountManagerId: admin } });
    expect([await keptFor(casey, id), await keptFor(admin, id)]).toEqual([false, true]);

    await db.client.updateMany({ where: { tenantId, id }, data: { accountManagerId: null } });
    expect(await keptFor(admin, id)).toBe(false);
    await expectKeptAsDefined();
  });

  it("follow assignments: kept while any job of the client is assigned to the user, or the user manages it", async () => {
    const { id: clientId } = await newClient("Assignment probe");
    const first = await db.job.create({
      data: { tenantId, name: "First", clientId, assignees: { create: [{ userId: casey }] } },
    });
    const second = await db.job.create({ data: { tenantId, name: "Second", clientId } });
    expect(await keptFor(casey, clientId)).toBe(true);

    await db.jobAssignee.create({ data: { tenantId, jobId: second.id, userId: casey } });
    await db.jobAssignee.delete({ where: { tenantId_jobId_userId: { tenantId, jobId: first.id, userId: casey } } });
    expect(await keptFor(casey, clientId)).toBe(true);

    // An assignment handed to someone else.
    await db.jobAssignee.updateMany({ where: { tenantId, jobId: second.id, userId: casey }, data: { userId: admin } });
    expect([await keptFor(casey, clientId), await keptFor(admin, clientId)]).toEqual([false, true]);

    // Managing the client keeps it when the last assignment goes.
    await db.client.update({ where: { tenantId_id: { tenantId, id: clientId } }, data: { accountManagerId: admin } });
    await db.jobAssignee.deleteMany({ where: { tenantId, jobId: second.id } });
    expect(await keptFor(admin, clientId)).toBe(true);
    await expectKeptAsDefined();
  });

  it("follow a job moved to another client, to no client, and deleted", async () => {
    const from = await newClient("Move from");
    const to = await newClient("Move to");
    const job = await db.job.create({
      data: {
        tenantId,
        name: "Moving",
        clientId: from.id,
        assignees: { create: [{ userId: casey }, { userId: admin }] },
      },
    });
    const where = { tenantId_id: { tenantId, id: job.id } };

    await db.job.update({ where, data: { clientId: to.id } });
    expect([await keptFor(casey, from.id), await keptFor(casey, to.id), await keptFor(admin, to.id)]).toEqual([
      false,
      true,
      true,
    ]);

    await db.job.update({ where, data: { clientId: null } });
    expect([await keptFor(casey, to.id), await keptFor(admin, to.id)]).toEqual([false, false]);

    await db.job.update({ where, data: { clientId: from.id } });
    const other = await db.job.create({
      data: { tenantId, name: "Stays", clientId: from.id, assignees: { create: [{ userId: admin }] } },
    });
    await db.job.delete({ where });
    // Casey's only job on the client is gone; the admin still has another one there.
    expect([await keptFor(casey, from.id), await keptFor(admin, from.id)]).toEqual([false, true]);
    await db.job.delete({ where: { tenantId_id: { tenantId, id: other.id } } });
    expect(await keptFor(admin, from.id)).toBe(false);
    await expectKeptAsDefined();
  });

  // Two transactions at once, on PostgreSQL (PGlite has one connection): the first makes its change and stays open
  // while the second makes another; the second must wait for the first to commit and see its change.
  async function whileOpen(first: (tx: Prisma.TransactionClient) => Promise<unknown>, second: () => Promise<unknown>) {
    let changed!: () => void;
    let commit!: () => void;
    const firstChanged = new Promise<void>((resolve) => (changed = resolve));
    const committing = new Promise<void>((resolve) => (commit = resolve));
    const firstDone = db.$transaction(async (tx) => {
      await first(tx);
      changed();
      await committing;
    });
    await firstChanged;
    let secondSettled = false;
    const secondDone = second().finally(() => (secondSettled = true));
    // Commit the first once the second has either finished (it ran ahead: the case the locks must prevent) or is
    // waiting for a lock.
    for (let polls = 0; !secondSettled && !(await someoneWaitsForALock()) && polls < 100; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    commit();
    await Promise.all([firstDone, secondDone]);
  }

  const someoneWaitsForALock = async () =>
    (
      await db.$queryRaw<{ waiting: number }[]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`
    )[0].waiting > 0;

  // Without the client row's lock in refresh_assigned_client this fails (checked).
  it.skipIf(!process.env.DATABASE_URL)(
    "keep a client while another job of it is assigned to the user at the same time",
    async () => {
      const { id: clientId } = await newClient("Concurrent probe");
      const first = await db.job.create({
        data: { tenantId, name: "First", clientId, assignees: { create: [{ userId: casey }] } },
      });
      const second = await db.job.create({ data: { tenantId, name: "Second", clientId } });
      await whileOpen(
        (tx) => tx.jobAssignee.create({ data: { tenantId, jobId: second.id, userId: casey } }),
        () => db.jobAssignee.delete({ where: { tenantId_jobId_userId: { tenantId, jobId: first.id, userId: casey } } }),
      );
      expect(await keptFor(casey, clientId)).toBe(true);
      await expectKeptAsDefined();
    },
  );

  // Without the share lock on the job in assigned_job_client this fails (checked).
  it.skipIf(!process.env.DATABASE_URL)(
    "give the new client of a job being moved to a user assigned to it at the same time",
    async () => {
      const from = await newClient("Concurrent move from");
      const to = await newClient("Concurrent move to");
      const job = await db.job.create({ data: { tenantId, name: "Moving", clientId: from.id } });
      await whileOpen(
        (tx) => tx.job.update({ where: { tenantId_id: { tenantId, id: job.id } }, data: { clientId: to.id } }),
        () => db.jobAssignee.create({ data: { tenantId, jobId: job.id, userId: casey } }),
      );
      expect([await keptFor(casey, from.id), await keptFor(casey, to.id)]).toEqual([false, true]);
      await expectKeptAsDefined();
    },
  );

  it("follow a client whose key and account manager change in one statement", async () => {
    const { id } = await newClient("Rekeyed probe", casey);
    const [{ next }] = await db.$queryRaw<{ next: number }[]>`SELECT max(id) + 1000 AS next FROM clients`;
    await db.$executeRaw`UPDATE clients SET id = ${next}, account_manager_id = ${admin} WHERE tenant_id = ${tenantId} AND id = ${id}`;
    expect([await keptFor(casey, next), await keptFor(admin, next)]).toEqual([false, true]);
    await expectKeptAsDefined();
  });

  it("go with a deleted client", async () => {
    const { id } = await newClient("Deleted probe", admin);
    await db.client.delete({ where: { tenantId_id: { tenantId, id } } });
    expect(await db.assignedClient.count({ where: { tenantId, clientId: id } })).toBe(0);
    await expectKeptAsDefined();
  });

  it("are rebuilt when the assignments are truncated", async () => {
    await db.$executeRawUnsafe("TRUNCATE job_assignees");
    const { defined, kept } = await bothSets();
    expect(kept).toEqual(defined);
    // What is left is exactly the account managers' clients.
    expect(kept.length).toBe(await db.client.count({ where: { accountManagerId: { not: null } } }));
  });
});
