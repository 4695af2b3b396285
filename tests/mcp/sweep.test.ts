// Every tool × token access × role (issue 53): a tool call is allowed exactly when the matching REST call is, and
// answers the same records or the same refusal — tenant isolation (another firm's records) and a Standard user's
// client visibility included. Writes are sent with an invalid body, so that nothing changes between the two calls:
// an allowed write is then the REST 422, a refused one its 403 or 404.
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOLS } from "@/lib/mcp/tools";
import { FULL_ACCESS, NO_ACCESS, READ_ONLY, type TokenAccess } from "@/lib/tokens/access";
import { call } from "../support/api";
import { pathOf, routeModule } from "../support/routes";
import { acmeRecords, connect, mcpUrl, tokenWith } from "./support";

const PEOPLE = [
  "owner@acme.test",
  "admin@acme.test",
  "standard@acme.test",
  "assigned@acme.test",
  "viewer@acme.test",
  // Another firm: Acme's records are not there.
  "owner@birch.test",
];

/** The access levels swept: everything, reads only, and only read access to the tool's own resource. */
function accesses(resource: string | null): [string, TokenAccess][] {
  return [
    ["full", FULL_ACCESS],
    ["read-only", READ_ONLY],
    [`${resource ?? "no"}:read only`, resource ? { ...NO_ACCESS, [resource]: "read" } : NO_ACCESS],
  ];
}

const records: Record<string, string> = {};
/** Arguments naming Acme's records; a write's body is invalid (an empty name or a bad email). */
function argumentsOf(tool: (typeof TOOLS)[number]): Record<string, unknown> {
  const { endpoint } = tool;
  const params: Record<string, unknown> = {};
  for (const name of Object.keys(endpoint.params ?? {}))
    params[name] = name === "id" ? records.user : records[endpoint.path.split("/")[1]];
  if (endpoint.method === "get") {
    const query: Record<string, unknown> = endpoint.query?.shape.limit ? { limit: 5 } : {};
    if (endpoint.query?.shape.q) query.q = "a";
    return { ...params, ...query };
  }
  return { ...params, name: "", firstname: "", email: "not-an-email" };
}

/** The same request made to the REST route, as a client of the API would send it. */
async function rest(tool: (typeof TOOLS)[number], args: Record<string, unknown>, token: string) {
  const { endpoint } = tool;
  const params = Object.fromEntries(Object.keys(endpoint.params ?? {}).map((name) => [name, String(args[name])]));
  const query = new URLSearchParams();
  let body: Record<string, unknown> | undefined;
  const sent = Object.entries(args).filter(([name]) => !(name in params));
  if (endpoint.method === "get") for (const [name, value] of sent) query.set(name, String(value));
  else body = Object.fromEntries(sent);
  const path = `${pathOf(endpoint, params).slice(1)}${query.size ? `?${query}` : ""}`;
  return call(await routeModule(endpoint.path), endpoint.method.toUpperCase(), path, { token, params, body });
}

beforeAll(async () => {
  Object.assign(records, await acmeRecords());
});

/** The statuses the sweep met, to show it reached allowed calls and each kind of refusal. */
const seen = new Set<number>();
const clients = new Map<string, Client>();
afterAll(async () => {
  for (const client of clients.values()) await client.close();
});
async function clientFor(token: string) {
  if (!clients.has(token)) {
    const client = await connect(token);
    await client.listTools();
    clients.set(token, client);
  }
  return clients.get(token)!;
}

describe.each(TOOLS.map((tool) => [tool.name, tool] as const))("%s", (_, tool) => {
  it.each(PEOPLE)("as %s, at each access, answers as the REST endpoint does", async (email) => {
    for (const [label, access] of accesses(tool.endpoint.resource)) {
      const token = await tokenWith(email, access);
      const args = argumentsOf(tool);
      const expected = await rest(tool, args, token);
      const anyAccess = Object.values(access).some((level) => level !== "none");
      if (!anyAccess) continue; // such a token cannot reach /api/mcp at all (403 insufficient_scope, endpoint.test.ts)
      const result = await (await clientFor(token)).callTool({ name: tool.name, arguments: args });
      const context = `${tool.name} as ${email} with ${label}`;
      expect(result._meta?.["cjt/status"], context).toBe(expected.status);
      seen.add(expected.status);
      if (expected.status < 400) {
        expect(result.isError, context).toBeFalsy();
        // Links name the MCP request's origin (the configured one here), the REST test call's is http://localhost.
        const links = JSON.stringify(result.structuredContent).replaceAll(new URL(mcpUrl()).origin, "http://localhost");
        expect(JSON.parse(links), context).toEqual(expected.body);
      } else {
        expect(result.isError, context).toBe(true);
        const body = JSON.parse((result.content as { text: string }[])[0].text);
        delete body.request_id; // the REST helper takes it out of its body (tests/support/api.ts)
        expect(body, context).toEqual(expected.body);
      }
    }
  });
});

it("met allowed calls, refusals (token, role, visibility, another firm's record) and invalid bodies", () => {
  expect([...seen].sort()).toEqual([200, 403, 422]);
});
