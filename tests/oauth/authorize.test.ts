// The authorization endpoint's checks before anyone signs in (RFC 6749 §4.1.2.1: an unknown client or redirect is an
// error page, never a redirect; every other error goes back with state and iss), the server metadata, client
// metadata documents fetched through the public-address guard, and dynamic registration.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "@/lib/db/client";
import { findClient, registerDynamicClient } from "@/lib/oauth/clients";
import { authorizeGet, metadataEndpoint, registerPost } from "@/lib/oauth/http";
import { resourceUrl } from "@/lib/oauth/settings";
import { firmApp, pkce, REDIRECT_URI } from "./support";

// Outside a request there is no session: the endpoint sees a signed-out visitor (the browser tests sign in).
vi.mock("@/lib/auth/session", () => ({ signedInUser: async () => null }));

const authorize = async (query: Record<string, string>) => {
  const response = await authorizeGet(new Request(`http://localhost/oauth/authorize?${new URLSearchParams(query)}`));
  return { status: response.status, location: response.headers.get("location"), text: await response.text() };
};

async function validQuery() {
  const { app } = await firmApp("owner@acme.test");
  return {
    client_id: app.id,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    state: "xyz",
    code_challenge: pkce().challenge,
    code_challenge_method: "S256",
    resource: resourceUrl("api"),
  };
}

describe("GET /oauth/authorize", () => {
  it("sends a valid request's signed-out person to sign in, and back", async () => {
    const answer = await authorize(await validQuery());
    expect(answer.status).toBe(302);
    expect(answer.location).toMatch(/\/signin\?callbackUrl=%2Foauth%2Fauthorize%3F/);
  });

  it("shows an error page, never a redirect, for an unknown client or an unregistered redirect URI", async () => {
    const query = await validQuery();
    for (const changed of [
      { redirect_uri: "https://attacker.example/callback" },
      { redirect_uri: `${REDIRECT_URI}/` },
      { client_id: "cjc_unknown" },
      { client_id: "" },
    ]) {
      const answer = await authorize({ ...query, ...changed });
      expect(answer.status).toBe(400);
      expect(answer.location).toBeNull();
      expect(answer.text).toContain("This app cannot connect");
    }
  });

  it("sends every other error back to the app with state and iss", async () => {
    const query = await validQuery();
    const cases: [Record<string, string>, string][] = [
      [{ code_challenge: "" }, "invalid_request"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge: "short" }, "invalid_request"],
      [{ resource: "" }, "invalid_target"],
      [{ resource: "https://elsewhere.example/api/v1" }, "invalid_target"],
      [{ scope: "clients:read clients:delete" }, "invalid_scope"],
      [{ response_type: "token" }, "unsupported_response_type"],
    ];
    for (const [changed, error] of cases) {
      const answer = await authorize({ ...query, ...changed });
      expect(answer.status, error).toBe(302);
      const location = new URL(answer.location!);
      expect(location.origin + location.pathname).toBe(REDIRECT_URI);
      expect(location.searchParams.get("error")).toBe(error);
      expect(location.searchParams.get("state")).toBe("xyz");
      expect(location.searchParams.get("iss")).toBe("http://localhost:3000");
    }
  });
});

describe("server metadata (RFC 8414)", () => {
  it("names the configured issuer and only what the server does", async () => {
    const metadata = await (await metadataEndpoint()).json();
    expect(metadata).toMatchObject({
      issuer: "http://localhost:3000",
      authorization_endpoint: "http://localhost:3000/oauth/authorize",
      token_endpoint: "http://localhost:3000/oauth/token",
      revocation_endpoint: "http://localhost:3000/oauth/revoke",
      registration_endpoint: "http://localhost:3000/oauth/register",
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_basic"],
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
    expect(metadata.scopes_supported).toContain("offline_access");
    expect(metadata.scopes_supported).toContain("audit:read");
  });
});

describe("client metadata documents", () => {
  let server: Server;
  let origin = "";
  const documents = new Map<string, { body: string; headers?: Record<string, string>; status?: number }>();
  let fetches = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      fetches++;
      const doc = documents.get(request.url ?? "");
      response.writeHead(doc?.status ?? (doc ? 200 : 404), { "Content-Type": "application/json", ...doc?.headers });
      response.end(doc?.body ?? "");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    server.close();
  });
  const serve = (path: string, document: object | string, headers?: Record<string, string>, status?: number) =>
    documents.set(path, { body: typeof document === "string" ? document : JSON.stringify(document), headers, status });

  it("are refused on a loopback address without the development setting (the webhooks' address guard)", async () => {
    serve("/app.json", { client_id: `${origin}/app.json`, redirect_uris: [REDIRECT_URI] });
    vi.stubEnv("OAUTH_METADATA_ALLOW_PRIVATE", "false");
    expect(await findClient(await prisma(), `${origin}/app.json`)).toBeNull();
    // https on a loopback name: the guard refuses the address.
    await expect(findClient(await prisma(), "https://127.0.0.1:1/app.json")).rejects.toMatchObject({
      error: "invalid_client",
    });
  });

  it("are fetched, checked and kept as their Cache-Control says", async () => {
    vi.stubEnv("OAUTH_METADATA_ALLOW_PRIVATE", "true");
    const id = `${origin}/notes.json`;
    serve(
      "/notes.json",
      { client_id: id, client_name: "Notes", redirect_uris: [REDIRECT_URI] },
      { "Cache-Control": "max-age=600" },
    );
    const before = fetches;
    const app = await findClient(await prisma(), id);
    expect(app).toMatchObject({ id, kind: "metadata", name: "Notes", redirectUris: [REDIRECT_URI] });
    const row = await (await prisma()).oAuthClient.findUniqueOrThrow({ where: { id } });
    expect(row.staleAt!.getTime() - Date.now()).toBeGreaterThan(590_000);
    await findClient(await prisma(), id);
    expect(fetches - before).toBe(1);
    const answer = await authorize({ ...(await validQuery()), client_id: id });
    expect(answer.location).toMatch(/\/signin/);
  });

  it("are refused when their client_id is not their URL, they are too large, or not there", async () => {
    vi.stubEnv("OAUTH_METADATA_ALLOW_PRIVATE", "true");
    serve("/other.json", { client_id: "https://someone.else/app.json", redirect_uris: [REDIRECT_URI] });
    serve("/big.json", { client_id: `${origin}/big.json`, redirect_uris: [REDIRECT_URI], pad: "x".repeat(6000) });
    serve("/moved.json", "", { Location: `${origin}/notes.json` }, 302);
    for (const [path, words] of [
      ["/other.json", "not its own URL"],
      ["/big.json", "larger than 5120 bytes"],
      ["/missing.json", "answered 404"],
      ["/moved.json", "answered 302"],
    ]) {
      const answer = await authorize({ ...(await validQuery()), client_id: `${origin}${path}` });
      expect(answer.status).toBe(400);
      expect(answer.location).toBeNull();
      expect(answer.text).toContain(words);
    }
  });
});

describe("dynamic registration (RFC 7591)", () => {
  const register = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await registerPost(
      new Request("http://localhost/oauth/register", {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
    );
    return { status: response.status, body: await response.json() };
  };

  it("registers a public app, which then may start an authorization", async () => {
    const answer = await register({ redirect_uris: [REDIRECT_URI], client_name: "Desk" });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      client_id: expect.stringMatching(/^cjc_/),
      client_name: "Desk",
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: "none",
    });
    const query = await validQuery();
    expect((await authorize({ ...query, client_id: answer.body.client_id })).location).toMatch(/\/signin/);
  });

  it("refuses confidential clients, bad redirect URIs and other grant types, storing nothing", async () => {
    const count = await (await prisma()).oAuthClient.count();
    const cases: [unknown, string][] = [
      [{ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "client_secret_basic" }, "invalid_client_metadata"],
      [{ redirect_uris: ["http://app.example.com/cb"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["https://app.example.com/cb#x"] }, "invalid_redirect_uri"],
      [{ redirect_uris: [] }, "invalid_redirect_uri"],
      [{ redirect_uris: [REDIRECT_URI], grant_types: ["client_credentials"] }, "invalid_client_metadata"],
    ];
    for (const [body, error] of cases) {
      const answer = await register(body);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(error);
    }
    expect(await (await prisma()).oAuthClient.count()).toBe(count);
  });

  it("is limited per client address (20 an hour by default)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await register({ redirect_uris: [REDIRECT_URI] })).status);
    expect(statuses).toContain(429);
    const refused = await registerPost(new Request("http://localhost/oauth/register", { method: "POST", body: "{}" }));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("removes a registration no one authorized within 24 hours", async () => {
    const client = await prisma();
    const { client_id } = await registerDynamicClient(client, { redirect_uris: [REDIRECT_URI] });
    await client.oAuthClient.update({ where: { id: client_id }, data: { unusedExpiresAt: new Date(Date.now() - 1) } });
    expect(await findClient(client, client_id)).toBeNull();
    await registerDynamicClient(client, { redirect_uris: [REDIRECT_URI] });
    expect(await client.oAuthClient.findUnique({ where: { id: client_id } })).toBeNull();
  });
});
