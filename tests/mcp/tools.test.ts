// The MCP tools as the official client sees them (issue 53): listed per token access and role in a fixed order,
// with the annotations decided; every tool called with good input (its result validated by the client against the
// tool's outputSchema) and with bad input (a tool error carrying the REST message and field errors); each call in the
// token's request log with its own request id; writes audited as via "mcp" with the tool; the resources.
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/client";
import { flushTokenRequests } from "@/lib/request-log/buffer";
import { FULL_ACCESS, NO_ACCESS, READ_ONLY } from "@/lib/tokens/access";
import { userByEmail } from "../support/api";
import { acmeRecords, connect, tokenWith } from "./support";

const ALL_TOOLS = [
  "get_me",
  "list_clients",
  "create_client",
  "search_clients",
  "get_client",
  "update_client",
  "list_contacts",
  "create_contact",
  "get_contact",
  "update_contact",
  "list_jobs",
  "create_job",
  "get_job",
  "update_job",
  "list_users",
  "get_user",
  "list_time_logs",
  "list_audit_events",
];
const WRITES = new Set(ALL_TOOLS.filter((name) => /^(create|update)_/.test(name)));

type ToolResult = Awaited<ReturnType<Client["callTool"]>>;
const errorBody = (result: ToolResult) => JSON.parse((result.content as { text: string }[])[0].text);

async function names(token: string) {
  const client = await connect(token);
  const { tools } = await client.listTools();
  await client.close();
  return tools.map((tool) => tool.name);
}

describe("tools/list", () => {
  it("lists every tool for a full token of an Owner, in the fixed order, and no webhook or token tool", async () => {
    expect(await names(await tokenWith("owner@acme.test", FULL_ACCESS))).toEqual(ALL_TOOLS);
  });

  it("lists only reads for a read-only token", async () => {
    expect(await names(await tokenWith("owner@acme.test", READ_ONLY))).toEqual(
      ALL_TOOLS.filter((name) => !WRITES.has(name)),
    );
  });

  it("lists only the job reads (and the caller's own profile) for a jobs:read token", async () => {
    expect(await names(await tokenWith("owner@acme.test", { ...NO_ACCESS, jobs: "read" }))).toEqual([
      "get_me",
      "list_jobs",
      "get_job",
    ]);
  });

  it("leaves out what the role may not do: a Viewer's full token lists no writes", async () => {
    const listed = await names(await tokenWith("viewer@acme.test", FULL_ACCESS));
    expect(listed.filter((name) => WRITES.has(name))).toEqual([]);
    expect(listed).toEqual(expect.arrayContaining(["get_me", "list_clients", "get_client", "list_jobs"]));
  });

  it("describes each tool from its endpoint, with the annotations of its kind", async () => {
    const client = await connect(await tokenWith("owner@acme.test"));
    const { tools } = await client.listTools();
    await client.close();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const tool of tools) {
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      if (tool.name.startsWith("create_"))
        expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      else if (tool.name.startsWith("update_"))
        expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
      else expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    }
    const listClients = byName.get("list_clients")!;
    expect(listClients.description).toContain("Token access: read on clients.");
    // The REST filters, with the query's types as documented (a number, not its text).
    expect(listClients.inputSchema.properties).toMatchObject({
      search: { type: "string" },
      limit: { type: "integer", maximum: 1000 },
      include_archived: { type: "boolean" },
      cursor: { type: "string" },
    });
    expect(byName.get("update_client")!.inputSchema.required).toEqual(["uuid"]);
    expect(byName.get("create_client")!.inputSchema.required).toEqual(["name"]);
  });
});

describe("tools/call", () => {
  let client: Client;
  let token: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    token = await tokenWith("owner@acme.test");
    client = await connect(token);
    // The client validates structured results only against the output schemas it has listed.
    await client.listTools();
    const records = await acmeRecords();
    Object.assign(ids, { client: records.clients, contact: records.contacts, job: records.jobs, user: records.user });
  });
  afterAll(() => client.close());

  const good: Record<string, () => Record<string, unknown>> = {
    get_me: () => ({}),
    list_clients: () => ({ limit: 2, include_archived: true, sort_by: "created_at" }),
    create_client: () => ({ name: `MCP Created ${Date.now()}`, city: "Bath" }),
    search_clients: () => ({ q: "B" }),
    get_client: () => ({ uuid: ids.client }),
    update_client: () => ({ uuid: ids.client, city: "York" }),
    list_contacts: () => ({ limit: 2 }),
    create_contact: () => ({ firstname: "Ada", lastname: "Byron", email: `ada${Date.now()}@mcp.test` }),
    get_contact: () => ({ uuid: ids.contact }),
    update_contact: () => ({ uuid: ids.contact, title: "Director" }),
    list_jobs: () => ({ limit: 2 }),
    create_job: () => ({ name: "MCP job", client_uuid: ids.client }),
    get_job: () => ({ uuid: ids.job }),
    update_job: () => ({ uuid: ids.job, estimated_hours: 3 }),
    list_users: () => ({ search: "a" }),
    get_user: () => ({ id: ids.user }),
    list_time_logs: () => ({ limit: 2 }),
    list_audit_events: () => ({ limit: 2 }),
  };
  /** Bad input, and the status and field (if any) of the REST answer it gets. */
  const bad: Record<string, () => [Record<string, unknown>, number, string?]> = {
    get_me: () => [{ anything: 1 }, 200],
    list_clients: () => [{ limit: 0 }, 422, "limit"],
    create_client: () => [{ name: "" }, 422, "name"],
    search_clients: () => [{}, 422, "q"],
    get_client: () => [{ uuid: "not-a-uuid" }, 404],
    update_client: () => [{ uuid: ids.client, website: "ftp://x" }, 422, "website"],
    list_contacts: () => [{ limit: 5000 }, 422, "limit"],
    create_contact: () => [{ firstname: "Ada" }, 422, "lastname"],
    get_contact: () => [{ uuid: "00000000-0000-4000-8000-000000000000" }, 404],
    update_contact: () => [{ uuid: ids.contact, email: "no" }, 422, "email"],
    list_jobs: () => [{ sort_by: "nonsense" }, 422, "sort_by"],
    create_job: () => [{ name: "" }, 422, "name"],
    get_job: () => [{ uuid: "00000000-0000-4000-8000-000000000000" }, 404],
    update_job: () => [{ uuid: ids.job, estimated_hours: -1 }, 422, "estimated_hours"],
    list_users: () => [{ sort_by: "age" }, 422, "sort_by"],
    get_user: () => [{ id: "999999" }, 404],
    list_time_logs: () => [{ limit: -1 }, 422, "limit"],
    list_audit_events: () => [{ action: "no.such" }, 422, "action"],
  };

  it.each(ALL_TOOLS)("%s: good input answers the endpoint's record, valid for its outputSchema", async (name) => {
    const result = await client.callTool({ name, arguments: good[name]() });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(result.structuredContent).toBeTypeOf("object");
    // The same JSON as text, for clients that do not read structured content.
    expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual(result.structuredContent);
  });

  it.each(ALL_TOOLS)("%s: bad input is a tool error with the REST message and field errors", async (name) => {
    const [args, status, field] = bad[name]();
    const result = await client.callTool({ name, arguments: args });
    expect(result._meta?.["cjt/status"]).toBe(status);
    if (status === 200) return;
    expect(result.isError).toBe(true);
    const body = errorBody(result);
    expect(body.message).toBeTypeOf("string");
    expect(body.request_id).toBe(result._meta?.["cjt/request_id"]);
    if (field) expect(Object.keys(body.errors)).toContain(field);
  });

  it("refuses what the token may not do with the REST 403, even for a tool it was not shown", async () => {
    const jobsOnly = await connect(await tokenWith("owner@acme.test", { ...NO_ACCESS, jobs: "read" }));
    const result = await jobsOnly.callTool({ name: "create_client", arguments: { name: "Nope Ltd" } });
    await jobsOnly.close();
    expect(result.isError).toBe(true);
    expect(result._meta?.["cjt/status"]).toBe(403);
    expect(errorBody(result).message).toMatch(/This token has no access to clients|write access to clients/);
  });

  it("answers an unknown tool with the protocol's invalid-params error", async () => {
    await expect(client.callTool({ name: "delete_everything", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("audits a write as made through MCP, naming the tool", async () => {
    const name = `MCP Audited ${Date.now()}`;
    const created = await client.callTool({ name: "create_client", arguments: { name } });
    const uuid = (created.structuredContent as { uuid: string }).uuid;
    const audit = await client.callTool({ name: "list_audit_events", arguments: { limit: 10 } });
    const entry = (
      audit.structuredContent as { data: { via: string; tool?: string; target: { uuid?: string } }[] }
    ).data.find((event) => event.target.uuid === uuid);
    expect(entry).toMatchObject({ via: "mcp", tool: "create_client", token: { name: "mcp" } });
  });

  it("shows each call in the token's request log with its own request id", async () => {
    const first = await client.callTool({ name: "get_client", arguments: { uuid: ids.client } });
    const second = await client.callTool({ name: "list_clients", arguments: { limit: 0 } });
    await flushTokenRequests();
    const ids_ = [first, second].map((result) => result._meta?.["cjt/request_id"] as string);
    expect(new Set(ids_).size).toBe(2);
    const rows = await (await prisma()).tokenRequest.findMany({ where: { requestId: { in: ids_ } } });
    expect(rows.map((row) => [row.requestId, row.method, row.path, row.status]).sort()).toEqual(
      [
        [ids_[0], "GET", `/api/v1/clients/${ids.client}`, 200],
        [ids_[1], "GET", "/api/v1/clients", 422],
      ].sort(),
    );
  });
});

describe("resources", () => {
  it("offers the OpenAPI document, the firm's custom fields and job statuses", async () => {
    const client = await connect(await tokenWith("owner@acme.test"));
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      "cjt://openapi.json",
      "cjt://firm/custom-fields",
      "cjt://firm/job-statuses",
    ]);
    const read = async (uri: string) =>
      JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text);
    expect((await read("cjt://openapi.json")).openapi).toMatch(/^3\.1/);
    const db = await prisma();
    const { tenantId } = await userByEmail("owner@acme.test");
    const fields = await db.customField.findMany({
      where: { tenantId },
      orderBy: [{ position: "asc" }, { id: "asc" }],
    });
    expect((await read("cjt://firm/custom-fields")).map((field: { name: string }) => field.name)).toEqual(
      fields.map((field) => field.name),
    );
    const statuses = await db.jobStatus.findMany({
      where: { tenantId },
      orderBy: [{ position: "asc" }, { id: "asc" }],
    });
    expect(await read("cjt://firm/job-statuses")).toEqual(
      statuses.map((status) => ({ slug: status.slug, name: status.name, is_completed: status.isCompleted })),
    );
    await client.close();
  });

  it("offers the firm's vocabulary only to a token that can read it", async () => {
    const client = await connect(await tokenWith("owner@acme.test", { ...NO_ACCESS, jobs: "read" }));
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(["cjt://openapi.json", "cjt://firm/job-statuses"]);
    await expect(client.readResource({ uri: "cjt://firm/custom-fields" })).rejects.toThrow();
    await client.close();
  });
});
