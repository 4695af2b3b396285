// updated_at (decisions.md, Integrations): it moves on every write of a record and of its nested parts, whoever
// writes (the triggers of migration 20261123000001_updated_at), and answers say it in ISO 8601 UTC.
import { beforeAll, describe, expect, it } from "vitest";
import * as clientByUuid from "@/app/api/v1/clients/[uuid]/route";
import * as contactByUuid from "@/app/api/v1/contacts/[uuid]/route";
import * as jobByUuid from "@/app/api/v1/jobs/[uuid]/route";
import * as userById from "@/app/api/v1/users/[id]/route";
import { prisma } from "@/lib/db/client";
import { call, tokenFor, userByEmail } from "../support/api";

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let token: string;
let tenantId: number;

beforeAll(async () => {
  token = await tokenFor("owner@acme.test");
  tenantId = (await userByEmail("owner@acme.test")).tenantId;
});

const routes = { client: clientByUuid, contact: contactByUuid, job: jobByUuid } as const;

async function updatedAt(kind: keyof typeof routes, uuid: string): Promise<string> {
  const res = await call(routes[kind], "GET", `${kind}s/${uuid}`, { token, params: { uuid } });
  expect(res.status).toBe(200);
  expect(res.body.updated_at).toMatch(ISO_UTC);
  return res.body.updated_at;
}

/** Runs `write` and says whether the record's updated_at moved forward. */
async function moves(kind: keyof typeof routes, uuid: string, write: () => Promise<unknown>) {
  const before = await updatedAt(kind, uuid);
  await new Promise((resolve) => setTimeout(resolve, 5)); // past the millisecond updated_at keeps
  await write();
  return (await updatedAt(kind, uuid)) > before;
}

async function acmeClientWithContact() {
  const db = await prisma();
  return db.client.findFirstOrThrow({
    where: { tenantId, contacts: { some: {} } },
    include: { contacts: { include: { contact: true } } },
    orderBy: { id: "asc" },
  });
}

describe("a client", () => {
  it("moves on its own update", async () => {
    const client = await acmeClientWithContact();
    const put = () =>
      call(clientByUuid, "PUT", `clients/${client.uuid}`, {
        token,
        params: { uuid: client.uuid },
        body: { city: "York" },
      });
    expect(await moves("client", client.uuid, put)).toBe(true);
  });

  it.each([
    [
      "its tags",
      (db: any, c: any, tag: number) => db.clientTag.create({ data: { tenantId, clientId: c.id, tagId: tag } }),
    ],
    [
      "a linked contact's phone number",
      (db: any, c: any) =>
        db.contact.update({
          where: { tenantId_id: { tenantId, id: c.contacts[0].contactId } },
          data: { phoneNumber: `0${Date.now()}` },
        }),
    ],
    [
      "a contact unlinked",
      (db: any, c: any) =>
        db.clientContact.deleteMany({ where: { clientId: c.id, contactId: c.contacts[0].contactId } }),
    ],
    [
      "a custom field value",
      async (db: any, c: any) => {
        const field = await db.customField.findFirstOrThrow({ where: { tenantId, type: "text" } });
        await db.customFieldValue.upsert({
          where: { tenantId_clientId_fieldId: { tenantId, clientId: c.id, fieldId: field.id } },
          create: { tenantId, clientId: c.id, fieldId: field.id, value: "x" },
          update: { value: `v${Date.now()}` },
        });
      },
    ],
    [
      "its groups",
      async (db: any, c: any) => {
        const group = await db.clientGroup.findFirstOrThrow({ where: { tenantId } });
        await db.clientGroupMember.deleteMany({ where: { clientId: c.id } });
        await db.clientGroupMember.create({ data: { tenantId, clientId: c.id, groupId: group.id } });
      },
    ],
  ])("moves when %s change", async (_, write) => {
    const db = await prisma();
    const client = await acmeClientWithContact();
    const tag = await db.tag.create({ data: { tenantId, name: `t${Date.now()}${Math.random()}` } });
    expect(await moves("client", client.uuid, () => write(db, client, tag.id))).toBe(true);
  });

  it("does not move when another client's parts change", async () => {
    const db = await prisma();
    const [a, b] = await db.client.findMany({ where: { tenantId }, orderBy: { id: "asc" }, take: 2 });
    const tag = await db.tag.create({ data: { tenantId, name: `other${Date.now()}` } });
    expect(
      await moves("client", a.uuid, () => db.clientTag.create({ data: { tenantId, clientId: b.id, tagId: tag.id } })),
    ).toBe(false);
  });
});

describe("a contact", () => {
  it("moves when linked to a client, and when that client is renamed", async () => {
    const db = await prisma();
    const client = await acmeClientWithContact();
    const contact = client.contacts[0].contact;
    const other = await db.client.findFirstOrThrow({ where: { tenantId, NOT: { id: client.id } } });
    expect(
      await moves("contact", contact.uuid, () =>
        db.clientContact.create({ data: { tenantId, clientId: other.id, contactId: contact.id } }),
      ),
    ).toBe(true);
    expect(
      await moves("contact", contact.uuid, () =>
        db.client.update({
          where: { tenantId_id: { tenantId, id: other.id } },
          data: { name: `Renamed ${Date.now()}` },
        }),
      ),
    ).toBe(true);
  });
});

describe("a job", () => {
  async function parentWithSubtask() {
    const db = await prisma();
    return db.job.findFirstOrThrow({ where: { tenantId, subTasks: { some: {} } }, include: { subTasks: true } });
  }

  it.each([
    [
      "its assignees (through PUT)",
      async (_db: any, job: any) => {
        const user = await userByEmail("assigned@acme.test");
        await call(jobByUuid, "PUT", `jobs/${job.uuid}`, {
          token,
          params: { uuid: job.uuid },
          body: { user_id: user.id },
        });
      },
    ],
    [
      "its followers",
      async (db: any, job: any) => {
        const user = await userByEmail("viewer@acme.test");
        await db.jobFollower.deleteMany({ where: { jobId: job.id } });
        await db.jobFollower.create({ data: { tenantId, jobId: job.id, userId: user.id } });
      },
    ],
    [
      "its tags",
      async (db: any, job: any) => {
        const tag = await db.tag.create({ data: { tenantId, name: `jt${Date.now()}` } });
        await db.jobTag.create({ data: { tenantId, jobId: job.id, tagId: tag.id } });
      },
    ],
    [
      "a subtask's name",
      (db: any, job: any) =>
        db.job.update({
          where: { tenantId_id: { tenantId, id: job.subTasks[0].id } },
          data: { name: `Sub ${Date.now()}` },
        }),
    ],
    ["a new subtask", (db: any, job: any) => db.job.create({ data: { tenantId, name: "New sub", parentId: job.id } })],
  ])("moves when %s change", async (_, write) => {
    const db = await prisma();
    const job = await parentWithSubtask();
    expect(await moves("job", job.uuid, () => write(db, job))).toBe(true);
  });
});

describe("a user", () => {
  it("has updated_at, which moves on an update", async () => {
    const db = await prisma();
    const user = await userByEmail("assigned@acme.test");
    const read = async () =>
      (await call(userById, "GET", `users/${user.id}`, { token, params: { id: String(user.id) } })).body.updated_at;
    const before = await read();
    expect(before).toMatch(ISO_UTC);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await db.user.update({ where: { tenantId_id: { tenantId, id: user.id } }, data: { timezone: "Europe/Paris" } });
    expect((await read()) > before).toBe(true);
  });
});
