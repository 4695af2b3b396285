// The official MCP client over real Streamable HTTP against the built server (`next start`): the route file, the
// well-known metadata and the SDK under Next as deployed, at the 2025-11-25 revision and at 2026-07-28.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BuiltServerDatabase, built, freePort, kill, startServer } from "../support/built-server";

describe.skipIf(!built || process.env.DATABASE_URL)("/api/mcp on the built server", () => {
  let database: BuiltServerDatabase;
  let server: Awaited<ReturnType<typeof startServer>>;
  let base: string;
  beforeAll(async () => {
    database = await BuiltServerDatabase.create();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The configured public origin: the issuer, the metadata's resource and the allowed Origin.
    server = await startServer(port, database, { APP_URL: base });
  });
  afterAll(async () => {
    if (server) {
      kill(server.server, "SIGTERM");
      await server.exited;
    }
    await database?.remove();
  });

  async function connect(versionNegotiation?: { mode: { pin: string } }) {
    const client = new Client({ name: "built-server-test", version: "1.0.0" }, { versionNegotiation });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${database.token}` } },
      }),
    );
    return client;
  }

  it.each([
    ["2025-11-25", undefined],
    ["2026-07-28", { mode: { pin: "2026-07-28" } }],
  ] as const)("lists the tools and calls one at %s", async (version, negotiation) => {
    const client = await connect(negotiation);
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("list_clients");
    const page = await client.callTool({ name: "list_clients", arguments: { limit: 3 } });
    expect(page.isError).toBeFalsy();
    expect((page.structuredContent as { data: unknown[] }).data).toHaveLength(3);
    await client.close();
  });

  it("answers 401 with the challenge, and serves the metadata it names", async () => {
    const refused = await fetch(`${base}/api/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(refused.status).toBe(401);
    const metadataUrl = `${base}/.well-known/oauth-protected-resource/api/mcp`;
    expect(refused.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    for (const url of [metadataUrl, `${base}/.well-known/oauth-protected-resource`]) {
      const metadata = await fetch(url);
      expect(metadata.status).toBe(200);
      expect(await metadata.json()).toMatchObject({ resource: `${base}/api/mcp`, authorization_servers: [base] });
    }
  });
});
