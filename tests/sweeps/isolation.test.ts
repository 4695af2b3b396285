// Isolation sweep over every operation of the OpenAPI document: a token of tenant A naming tenant B's records
// (in the path, in list filters, in bodies) gets a 403 for records, a 422 for references in writes, and lists
// that leave B's rows out; and no answer ever carries B's data. The same for a Standard user's client visibility.
// New endpoints are covered by being in the document: the test names parameters, not endpoints.
import { beforeAll, describe, expect, it } from "vitest";
import { recordAudit } from "@/lib/audit/mutations";
import { prisma } from "@/lib/db/client";
import { call, tenantByName, tokenFor, userByEmail } from "../support/api";
import { type Operation, operations, pathOf, recordKind, recordParams, routeModule } from "../support/routes";

const MARKER = "Birch-only marker";

interface Outsider {
  /** Identifiers of records the caller must not reach, by what names them in requests. */
  client: string;
  job: string;
  contactEmail: string;
  userIds: number[];
  tagIds: number[];
  groupIds: number[];
  /** Strings that must never appear in an answer to the caller. */
  secrets: string[];
}

let acmeId: number;
let birch: Outsider;

beforeAll(async () => {
  const client = await prisma();
  acmeId = (await tenantByName("Acme Accounting")).id;
  const birchId = (await tenantByName("Birch Bookkeeping")).id;
  const owner = await userByEmail("owner@birch.test");
  const markerClient = await client.client.create({ data: { tenantId: birchId, name: `${MARKER} client` } });
  const markerContact = await client.contact.create({
    data: {
      tenantId: birchId,
      firstname: MARKER,
      lastname: "Contact",
      preferredName: MARKER,
      email: "marker@birch-only.test",
    },
  });
  await client.clientContact.create({
    data: { tenantId: birchId, clientId: markerClient.id, contactId: markerContact.id },
  });
  const markerJob = await client.job.create({
    data: { tenantId: birchId, name: `${MARKER} job`, clientId: markerClient.id },
  });
  await client.timeLog.create({
    data: {
      tenantId: birchId,
      userId: owner.id,
      jobId: markerJob.id,
      clientId: markerClient.id,
      minutes: 60,
      note: `${MARKER} note`,
      date: new Date(),
    },
  });

  // An audit entry of B's about the marker client, by B's Owner: neither may show in A's log.
  await recordAudit(
    client,
    { actor: { tenantId: birchId, via: "web", userId: owner.id, tokenId: null, tokenName: null, address: null } },
    { action: "client.updated", target: { type: "client", uuid: markerClient.uuid, name: markerClient.name } },
  );

  const where = { where: { tenantId: birchId } };
  const [clients, contacts, jobs, logs, users, tags, groups] = await Promise.all([
    client.client.findMany(where),
    client.contact.findMany(where),
    client.job.findMany(where),
    client.timeLog.findMany(where),
    client.user.findMany(where),
    client.tag.findMany(where),
    client.clientGroup.findMany(where),
  ]);
  birch = {
    client: markerClient.uuid,
    job: markerJob.uuid,
    contactEmail: markerContact.email,
    userIds: users.map((u) => u.id),
    tagIds: tags.map((t) => t.id),
    groupIds: groups.map((g) => g.id),
    secrets: [MARKER, ...users.map((u) => u.email), ...[...clients, ...contacts, ...jobs, ...logs].map((r) => r.uuid)],
  };
});

const FILTER_PARAMS = [
  "client_uuid",
  "target_uuid",
  "actor_id",
  "tasks",
  "users",
  "tags",
  "contact_email",
  "email",
  "search",
  "q",
];
const REFERENCE_FIELDS = ["client_uuid", "user_id", "tags", "client_groups"];

/** Query values that name the outsider's records, by parameter name. */
function outsiderQuery(op: Operation, o: Outsider): URLSearchParams[] {
  const values: Record<string, string[]> = {
    client_uuid: [o.client],
    target_uuid: [o.client],
    actor_id: o.userIds.slice(0, 1).map(String),
    tasks: [o.job],
    users: o.userIds.map(String),
    tags: o.tagIds.map(String),
    contact_email: [o.contactEmail],
    email: [o.contactEmail],
    search: [MARKER],
    q: [MARKER],
  };
  return Object.keys(op.query?.shape ?? {})
    .filter((name) => values[name]?.length)
    .map((name) => {
      const params = new URLSearchParams();
      const list = values[name];
      if (list.length > 1 || ["tasks", "users", "tags"].includes(name))
        for (const v of list) params.append(`${name}[]`, v);
      else params.set(name, list[0]);
      return params;
    });
}

/** Body fields that refer to other records, set to the outsider's; each must be refused on that field. */
function outsiderReferences(op: Operation, o: Outsider): Record<string, unknown> {
  const fields = Object.keys((op.body as { shape?: object } | undefined)?.shape ?? {});
  const values: Record<string, unknown> = {
    client_uuid: o.client,
    user_id: o.userIds[0],
    tags: [o.tagIds[0]],
    client_groups: [o.groupIds[0]],
  };
  const known = (v: unknown) => v !== undefined && !(Array.isArray(v) && v[0] === undefined);
  return Object.fromEntries(fields.filter((f) => known(values[f])).map((f) => [f, values[f]]));
}

/** A body that is valid apart from its references, so that only they can be the reason for a 422. */
const validBodies: Record<string, object> = {
  "post /clients": { name: "Isolation probe" },
  "put /clients/{uuid}": {},
  "post /contacts": { firstname: "Iso", lastname: "Probe", email: "iso.probe@example.test" },
  "put /contacts/{uuid}": {},
  "post /jobs": { name: "Isolation probe job" },
};

/** Checks an answer for the outsider's data; a list's links only echo the caller's own query, so they are skipped. */
function expectNoSecrets(body: unknown, secrets: string[]) {
  const text = JSON.stringify(body, (key, value) => (key === "links" ? undefined : value));
  for (const secret of secrets) expect(text, `the answer carries "${secret}"`).not.toContain(secret);
}

function sweep(
  callerEmail: string,
  outsider: () => Promise<Outsider>,
  recordWhere: () => Promise<Record<string, object>>,
  /** Lists the caller's role may not read at all (a 403 whatever the filters). */
  forbiddenLists: string[] = [],
) {
  let token: string;
  let o: Outsider;
  let hidden: Record<string, object>;
  beforeAll(async () => {
    token = await tokenFor(callerEmail);
    o = await outsider();
    hidden = await recordWhere();
  });

  describe.each(operations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))("%s", (_, op) => {
    const kind = recordKind(op);
    const referenceFields = Object.keys((op.body as { shape?: object } | undefined)?.shape ?? {}).filter((f) =>
      REFERENCE_FIELDS.includes(f),
    );
    const filterParams = Object.keys(op.query?.shape ?? {}).filter((name) => FILTER_PARAMS.includes(name));

    it.runIf(kind && op.params)("refuses the outsider's records in the path", async () => {
      const where = hidden[kind!] as { tenantId: number } | undefined;
      if (!where) return; // this caller may see every record of this kind (users, for a Standard user)
      const params = await recordParams(op, where.tenantId, where);
      const body = op.body ? validBodies[`${op.method} ${op.path}`] : undefined;
      const res = await call(await routeModule(op.path), op.method.toUpperCase(), pathOf(op, params), {
        token,
        params,
        body,
      });
      if (op.errors.includes(403)) expect(res.status).toBe(403);
      else expect(res.body).toEqual({ data: null });
      expectNoSecrets(res.body, o.secrets);
    });

    it.runIf(op.method === "get" && filterParams.length > 0)(
      "leaves the outsider's rows out of lists filtered by their identifiers",
      async () => {
        const route = await routeModule(op.path);
        for (const query of outsiderQuery(op, o)) {
          const res = await call(route, "GET", `${op.path.slice(1)}?${query}`, { token });
          expect(res.status, `${op.path}?${query}`).toBe(forbiddenLists.includes(op.path) ? 403 : 200);
          expectNoSecrets(res.body, o.secrets);
        }
      },
    );

    it.runIf(referenceFields.length > 0)("refuses references to the outsider's records in bodies", async () => {
      const references = outsiderReferences(op, o);
      const params = await recordParams(op, acmeId);
      for (const [field, value] of Object.entries(references)) {
        const body = { ...validBodies[`${op.method} ${op.path}`], [field]: value };
        const res = await call(await routeModule(op.path), op.method.toUpperCase(), pathOf(op, params), {
          token,
          params,
          body,
        });
        expect(res.status, `${field} → ${res.status} ${JSON.stringify(res.body)}`).toBe(422);
        expect(Object.keys(res.body.errors).some((key) => key === field || key.startsWith(`${field}.`))).toBe(true);
        expectNoSecrets(res.body, o.secrets);
      }
    });
  });
}

describe("tenant A's token against tenant B's data", () => {
  sweep(
    "owner@acme.test",
    async () => birch,
    async () => {
      const birchId = (await tenantByName("Birch Bookkeeping")).id;
      const scope = { tenantId: birchId };
      return { client: scope, contact: scope, job: scope, user: scope, webhook: scope };
    },
  );
});

describe("a Standard user with assigned_clients against clients outside their visibility", () => {
  sweep(
    "assigned@acme.test",
    async () => {
      const client = await prisma();
      const casey = await userByEmail("assigned@acme.test");
      const outside = {
        tenantId: acmeId,
        NOT: { accountManagerId: casey.id },
        jobs: { none: { assignees: { some: { userId: casey.id } } } },
      };
      const clients = await client.client.findMany({ where: outside });
      const ids = clients.map((c) => c.id);
      const jobs = await client.job.findMany({
        where: {
          tenantId: acmeId,
          clientId: { in: ids },
          assignees: { none: { userId: casey.id } },
          followers: { none: { userId: casey.id } },
        },
      });
      const contacts = await client.contact.findMany({
        where: {
          tenantId: acmeId,
          clients: { some: { clientId: { in: ids } } },
          NOT: { clients: { some: { clientId: { notIn: ids } } } },
        },
      });
      return {
        client: clients[0].uuid,
        job: jobs[0].uuid,
        contactEmail: contacts[0].email,
        // Users, tags and groups of the own tenant are not secret to a Standard user.
        userIds: [],
        tagIds: [],
        groupIds: [],
        secrets: [...clients, ...jobs, ...contacts].map((r) => r.uuid),
      };
    },
    async () => {
      const casey = await userByEmail("assigned@acme.test");
      const outsideClient = {
        NOT: { accountManagerId: casey.id },
        jobs: { none: { assignees: { some: { userId: casey.id } } } },
      };
      return {
        client: { tenantId: acmeId, ...outsideClient },
        contact: {
          tenantId: acmeId,
          clients: { some: { client: outsideClient } },
          NOT: { clients: { some: { client: { NOT: outsideClient } } } },
        },
        job: {
          tenantId: acmeId,
          client: outsideClient,
          assignees: { none: { userId: casey.id } },
          followers: { none: { userId: casey.id } },
        },
      };
    },
    ["/audit-events"],
  );
});
