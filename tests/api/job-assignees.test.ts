// Who may change a job's assignees (decisions.md, Tenancy): a user whose client access is limited only on a job whose
// client they see through that access. Following a job, or being assigned to it, gives no right to add anyone, since
// an assignment feeds assigned_clients and would hand out the job's client.
import { beforeAll, describe, expect, it } from "vitest";
import * as clientByUuid from "@/app/api/v1/clients/[uuid]/route";
import * as jobByUuid from "@/app/api/v1/jobs/[uuid]/route";
import { prisma } from "@/lib/db/client";
import { call, tableCounts, tenantByName, tokenFor, userByEmail } from "../support/api";

const CONTRACTOR = "assigned@acme.test"; // Standard, client access assigned_clients
const GROUPS = "groups@acme.test"; // Standard, client access client_groups

let acme: number;
beforeAll(async () => {
  acme = (await tenantByName("Acme Accounting")).id;
});

const put = async (email: string, uuid: string, body: object) =>
  call(jobByUuid, "PUT", `jobs/${uuid}`, { token: await tokenFor(email), params: { uuid }, body });

const assigneesOf = async (jobId: number) =>
  (await (await prisma()).jobAssignee.findMany({ where: { jobId }, orderBy: { userId: "asc" } })).map((a) => a.userId);

/** A client the user cannot see at all (neither account manager, nor assignee of any of its jobs, nor in a group). */
async function hiddenClientOf(email: string) {
  const user = await userByEmail(email);
  return (await prisma()).client.findFirstOrThrow({
    where: {
      tenantId: acme,
      accountManagerId: { not: user.id },
      jobs: { none: { assignees: { some: { userId: user.id } } } },
      groups: { none: { group: { users: { some: { userId: user.id } } } } },
    },
    orderBy: { id: "asc" },
  });
}

describe("changing a job's assignees with limited client access", () => {
  it.each([CONTRACTOR, GROUPS])(
    "a follower (%s) cannot assign themselves to a job of a client they cannot see: 403, nothing changes",
    async (email) => {
      const user = await userByEmail(email);
      const hidden = await hiddenClientOf(email);
      const job = await (await prisma()).job.create({
        data: { tenantId: acme, name: "Followed", clientId: hidden.id, followers: { create: [{ userId: user.id }] } },
      });
      const before = await tableCounts();
      const res = await put(email, job.uuid, { user_id: user.id });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/assignees/);
      expect(await assigneesOf(job.id)).toEqual([]);
      expect(await tableCounts()).toEqual(before);
      // …and so the client stays out of reach.
      const client = await call(clientByUuid, "GET", `clients/${hidden.uuid}`, {
        token: await tokenFor(email),
        params: { uuid: hidden.uuid },
      });
      expect(client.status).toBe(403);
      // The follower may still change what the assignees do not touch.
      expect((await put(email, job.uuid, { name: "Renamed by a follower" })).status).toBe(200);
    },
  );

  it("an assignee whose only way to the client is this job cannot hand it to someone else, nor drop it", async () => {
    const user = await userByEmail(CONTRACTOR);
    const other = await userByEmail("standard@acme.test");
    const hidden = await hiddenClientOf(CONTRACTOR);
    const job = await (await prisma()).job.create({
      data: { tenantId: acme, name: "Assigned", clientId: hidden.id, assignees: { create: [{ userId: user.id }] } },
    });
    expect((await put(CONTRACTOR, job.uuid, { user_id: other.id })).status).toBe(403);
    expect((await put(CONTRACTOR, job.uuid, { user_id: null })).status).toBe(403);
    expect(await assigneesOf(job.id)).toEqual([user.id]);
    // Writing back the assignee the job has changes nothing, and is allowed.
    expect((await put(CONTRACTOR, job.uuid, { user_id: user.id, name: "Same assignee" })).status).toBe(200);
  });

  it("a job of a client they manage: the contractor may assign anyone", async () => {
    const user = await userByEmail(CONTRACTOR);
    const other = await userByEmail("standard@acme.test");
    const db = await prisma();
    const managed = await db.client.create({ data: { tenantId: acme, name: "Managed", accountManagerId: user.id } });
    const job = await db.job.create({ data: { tenantId: acme, name: "Managed job", clientId: managed.id } });
    const res = await put(CONTRACTOR, job.uuid, { user_id: other.id });
    expect(res.status).toBe(200);
    expect(await assigneesOf(job.id)).toEqual([other.id]);
  });

  it("a client reached through another job of theirs counts as access", async () => {
    const user = await userByEmail(CONTRACTOR);
    const hidden = await hiddenClientOf(CONTRACTOR);
    const db = await prisma();
    await db.job.create({
      data: { tenantId: acme, name: "Theirs", clientId: hidden.id, assignees: { create: [{ userId: user.id }] } },
    });
    const job = await db.job.create({ data: { tenantId: acme, name: "Sibling", clientId: hidden.id } });
    expect((await put(CONTRACTOR, job.uuid, { user_id: user.id })).status).toBe(200);
  });

  it("a user who sees every client may assign on any job", async () => {
    const hidden = await hiddenClientOf(CONTRACTOR);
    const job = await (await prisma()).job.create({ data: { tenantId: acme, name: "Any", clientId: hidden.id } });
    const standard = await userByEmail("standard@acme.test");
    expect((await put("standard@acme.test", job.uuid, { user_id: standard.id })).status).toBe(200);
  });

  it("moving the job to a client they see and assigning in one PUT is judged on the stored client: 403", async () => {
    const user = await userByEmail(CONTRACTOR);
    const hidden = await hiddenClientOf(CONTRACTOR);
    const db = await prisma();
    const managed = await db.client.create({
      data: { tenantId: acme, name: "Theirs to move to", accountManagerId: user.id },
    });
    const job = await db.job.create({
      data: { tenantId: acme, name: "Walked", clientId: hidden.id, followers: { create: [{ userId: user.id }] } },
    });
    const res = await put(CONTRACTOR, job.uuid, { client_uuid: managed.uuid, user_id: user.id });
    expect(res.status).toBe(403);
    expect(await assigneesOf(job.id)).toEqual([]);
    expect((await db.job.findUniqueOrThrow({ where: { tenantId_id: { tenantId: acme, id: job.id } } })).clientId).toBe(
      hidden.id,
    );
  });

  // A race only a server with concurrent connections has: on the embedded database one transaction runs at a time.
  it.skipIf(!process.env.DATABASE_URL)(
    "is judged with the job's row locked: a move to a hidden client committed meanwhile is seen, 403",
    async () => {
      const user = await userByEmail(CONTRACTOR);
      const other = await userByEmail("standard@acme.test");
      const hidden = await hiddenClientOf(CONTRACTOR);
      const db = await prisma();
      const managed = await db.client.create({
        data: { tenantId: acme, name: "Managed, then not", accountManagerId: user.id },
      });
      const job = await db.job.create({ data: { tenantId: acme, name: "Moved meanwhile", clientId: managed.id } });
      let answer: ReturnType<typeof put> | undefined;
      // An Owner's move of the job to a client the contractor cannot see, holding the row while the PUT comes in.
      await db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM jobs WHERE tenant_id = ${acme} AND id = ${job.id} FOR UPDATE`;
        answer = put(CONTRACTOR, job.uuid, { user_id: other.id });
        await new Promise((r) => setTimeout(r, 700));
        await tx.job.update({ where: { tenantId_id: { tenantId: acme, id: job.id } }, data: { clientId: hidden.id } });
      });
      const res = await answer!;
      expect(res.status).toBe(403);
      expect(await assigneesOf(job.id)).toEqual([]);
    },
  );
});
