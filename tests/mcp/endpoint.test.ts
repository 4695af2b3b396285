// /api/mcp as an HTTP endpoint (issue 53, decisions.md "Apps and assistants"): who may call it (personal tokens, an
// app's token issued for it, the firm's policy), the 401 challenge and the RFC 9728 metadata it points to, the 403s
// (a foreign Origin, a token with no access), the protocol-version header, and the revisions it answers.
import { afterAll, describe, expect, it } from "vitest";
import * as mcpMetadata from "@/app/.well-known/oauth-protected-resource/api/mcp/route";
import * as rootMetadata from "@/app/.well-known/oauth-protected-resource/route";
import { cliActor } from "@/lib/audit/mutations";
import { prisma } from "@/lib/db/client";
import { firmPolicy, setFirmPolicy } from "@/lib/oauth/policy";
import { SCOPES } from "@/lib/oauth/scopes";
import { issuer, resourceUrl } from "@/lib/oauth/settings";
import { NO_ACCESS } from "@/lib/tokens/access";
import { consent, exchange, firmApp } from "../oauth/support";
import { userByEmail } from "../support/api";
import { connect, mcpUrl, post, tokenWith } from "./support";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const TOOLS_LIST = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
const METADATA_URL = () => `${issuer()}/.well-known/oauth-protected-resource/api/mcp`;

describe("without a valid token", () => {
  it("answers 401 with a challenge naming the protected resource metadata", async () => {
    const none = await post(null, INITIALIZE);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${METADATA_URL()}"`);
    expect((await none.json()).message).toMatch(/Unauthenticated/);

    const invalid = await post("cjt_not_a_real_token_0000000000000000000000", INITIALIZE);
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get("www-authenticate")).toBe(
      `Bearer error="invalid_token", resource_metadata="${METADATA_URL()}"`,
    );
  });

  it("publishes the RFC 9728 metadata at the resource's path and at the root", async () => {
    for (const route of [mcpMetadata, rootMetadata]) {
      const response = await route.GET();
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        resource: resourceUrl("mcp"),
        authorization_servers: [issuer()],
        scopes_supported: SCOPES,
        bearer_methods_supported: ["header"],
      });
    }
    expect(resourceUrl("mcp")).toBe(mcpUrl());
  });
});

describe("Origin", () => {
  it("refuses a browser's foreign Origin with a JSON 403, and lets the same origin and no Origin through", async () => {
    const token = await tokenWith("owner@acme.test");
    const foreign = await post(token, INITIALIZE, { Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ message: "Origin https://evil.example may not call this endpoint." });
    // Refused before the token is looked at: a foreign page learns nothing about it.
    expect((await post(null, INITIALIZE, { Origin: "https://evil.example" })).status).toBe(403);

    expect((await post(token, INITIALIZE, { Origin: issuer() })).status).toBe(200);
    const ok = await post(token, INITIALIZE);
    expect(ok.status).toBe(200);
    // Stateless: one JSON answer, no event stream and no session.
    expect(ok.headers.get("content-type")).toMatch(/^application\/json/);
    expect(ok.headers.get("mcp-session-id")).toBeNull();
    expect((await ok.json()).result.protocolVersion).toBe("2025-06-18");
  });
});

describe("protocol revisions", () => {
  it("refuses an envelope past the API's 1 MB body limit with a JSON 413, having read no more of it", async () => {
    const token = await tokenWith("owner@acme.test");
    const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_me", arguments: {} } };
    const response = await post(token, { ...call, padding: "a".repeat(1024 * 1024) });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ message: "The request body is larger than 1 MB." });
    expect((await post(token, call)).status).toBe(200);
  });

  it("refuses an envelope nested past an endpoint body's depth (and the envelope's levels) with a JSON 422", async () => {
    const token = await tokenWith("owner@acme.test");
    const nested = (depth: number) =>
      `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_me","arguments":{"x":` +
      `${"[".repeat(depth)}${"]".repeat(depth)}}}}`;
    // 200,000 levels in 400 kB: within the size limit, refused by its depth before the SDK parses it.
    const deep = await post(token, nested(200_000));
    expect(deep.status).toBe(422);
    expect(await deep.json()).toMatchObject({ errors: { body: [expect.stringMatching(/nest deeper than 36/)] } });
    // An endpoint body's own limit of nesting, inside the envelope, is read.
    expect((await post(token, JSON.parse(nested(30)))).status).toBe(200);
  });

  it("refuses an unsupported MCP-Protocol-Version header with a 400", async () => {
    const token = await tokenWith("owner@acme.test");
    const response = await post(token, TOOLS_LIST, { "MCP-Protocol-Version": "1999-01-01" });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toMatch(/Unsupported protocol version: 1999-01-01/);
    const supported = await post(token, TOOLS_LIST, { "MCP-Protocol-Version": "2025-06-18" });
    expect(supported.status).toBe(200);
    expect(supported.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it.each(["2025-06-18", "2025-11-25"])("answers a client that speaks %s", async (version) => {
    const client = await connect(await tokenWith("owner@acme.test"), { versions: [version] });
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it("answers the 2026-07-28 revision (server/discover, no initialize)", async () => {
    const types: (string | null)[] = [];
    const client = await connect(await tokenWith("owner@acme.test"), { pin: "2026-07-28" }, (response) =>
      types.push(response.headers.get("content-type")),
    );
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const result = await client.callTool({ name: "get_me", arguments: {} });
    expect(result.structuredContent).toMatchObject({ email: "owner@acme.test" });
    await client.close();
    // Every answer one JSON body, as for the 2025 revisions.
    expect(types.length).toBeGreaterThan(0);
    for (const type of types) expect(type).toMatch(/^application\/json/);
  });

  it("keeps no session: a GET stream is refused", async () => {
    const { routeFetch } = await import("./support");
    const response = await routeFetch(mcpUrl(), {
      method: "GET",
      headers: { Authorization: `Bearer ${await tokenWith("owner@acme.test")}`, Accept: "text/event-stream" },
    });
    expect(response.status).toBe(405);
  });
});

describe("a token with no access to any record", () => {
  it("is refused with 403 insufficient_scope, naming the scopes that would do", async () => {
    const response = await post(await tokenWith("owner@acme.test", NO_ACCESS), INITIALIZE);
    expect(response.status).toBe(403);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer error="insufficient_scope", scope="clients:read [^"]*audit:read"/);
    expect(challenge).toContain(`resource_metadata="${METADATA_URL()}"`);
  });
});

describe("apps (OAuth)", () => {
  it("takes an access token issued for /api/mcp, and refuses one issued for the REST API", async () => {
    const { app } = await firmApp("owner@acme.test", { name: "Assistant" });
    const forMcp = await exchange(await consent("owner@acme.test", app, { audience: "mcp" }), {
      resource: resourceUrl("mcp"),
    });
    expect(forMcp.status).toBe(200);
    const client = await connect(forMcp.body.access_token);
    const me = await client.callTool({ name: "get_me", arguments: {} });
    expect(me.structuredContent).toMatchObject({ email: "owner@acme.test" });
    await client.close();

    const forApi = await exchange(await consent("owner@acme.test", app, { audience: "api" }));
    expect(forApi.status).toBe(200);
    const refused = await post(forApi.body.access_token, INITIALIZE);
    expect(refused.status).toBe(401);
    expect((await refused.json()).message).toMatch(/issued for the REST API/);
  });
});

describe("the firm's policy on personal tokens", () => {
  const restore: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const undo of restore) await undo();
  });

  it("refuses personal tokens at /api/mcp once the firm switches them off, and only there", async () => {
    const token = await tokenWith("owner@birch.test");
    expect((await post(token, INITIALIZE)).status).toBe(200);
    const user = await userByEmail("owner@birch.test");
    const client = await prisma();
    const { policy } = await firmPolicy(client, user.tenantId);
    restore.push(() => setFirmPolicy(client, cliActor(user.tenantId), policy));
    await setFirmPolicy(client, cliActor(user.tenantId), { ...policy, personalTokensAtMcp: false });

    const refused = await post(token, INITIALIZE);
    expect(refused.status).toBe(401);
    expect((await refused.json()).message).toMatch(/does not allow personal tokens here/);
    expect(refused.headers.get("www-authenticate")).toContain(`resource_metadata="${METADATA_URL()}"`);
  });
});
