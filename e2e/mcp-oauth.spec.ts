// The official MCP client (@modelcontextprotocol/client) with its own OAuth support, end to end against the built
// server's /api/mcp (docs/mcp.md): its first call is refused with 401, it discovers the protected resource metadata
// and the authorization server by itself, identifies itself by a client metadata document this test serves (and, in
// the second test, registers dynamically), sends the person to consent with PKCE and `resource`; the person, signed
// in here, clicks Allow; the client exchanges the code, calls a tool, refreshes when its access token is refused,
// calls again; after the refresh token is revoked (RFC 7009) its next call is refused with 401.
import { readFileSync } from "node:fs";
import {
  Client,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthMetadata,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import type { Page } from "@playwright/test";
import { expect, signIn, startApp, test } from "./support";

// The browser lands on the app's redirect target, served with the test's self-signed certificate.
test.use({ ignoreHTTPSErrors: true });

/**
 * The app's loopback server, over https (the MCP client refuses an http client_id URL) with the certificate the
 * server trusts (e2e/playwright.config.ts): its client metadata document and its redirect target.
 */
const documentName = "Assistant by Document";
let app: Awaited<ReturnType<typeof startApp>>;
let appOrigin = "";
test.beforeAll(async () => {
  const tls = process.env.E2E_TLS_DIR!;
  app = await startApp(documentName, {
    key: readFileSync(`${tls}/key.pem`),
    cert: readFileSync(`${tls}/cert.pem`),
  });
  appOrigin = app.origin;
});
test.afterAll(() => app.close());

/** An assistant's OAuth state, in memory, as the MCP client's provider interface asks; it records what it was sent. */
class AssistantProvider implements OAuthClientProvider {
  /** The authorization URLs the client asked to send the person to, in order. */
  readonly authorizationUrls: URL[] = [];
  private information?: StoredOAuthClientInformation;
  private stored?: StoredOAuthTokens;
  private verifier = "";
  private discovery?: OAuthDiscoveryState;
  constructor(
    readonly redirectUrl: string,
    readonly clientMetadata: OAuthClientMetadata,
    readonly clientMetadataUrl?: string,
  ) {}
  state() {
    return "assistant-state";
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: StoredOAuthClientInformation) {
    this.information = information;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "tokens") this.stored = undefined;
    if (scope === "all" || scope === "client") this.information = undefined;
    if (scope === "all" || scope === "discovery") this.discovery = undefined;
  }
}

/** What the client asked of the server: each request's method and path, and the answer's status. */
type Exchange = { method: string; path: string; status: number };

function connectWith(provider: AssistantProvider, baseURL: string, exchanges: Exchange[]) {
  const client = new Client({ name: "cjt-e2e-assistant", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseURL}/api/mcp`), {
    authProvider: provider,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const url = new URL(input instanceof Request ? input.url : input);
      const method = init?.method ?? (input instanceof Request ? input.method : "GET");
      exchanges.push({ method, path: url.pathname, status: response.status });
      return response;
    },
  });
  return { client, transport, connected: client.connect(transport) };
}

/** The whole flow for one assistant, as `email`; every step asserted. Returns the app's name on the consent page. */
async function flow(page: Page, baseURL: string, email: string, provider: AssistantProvider) {
  const exchanges: Exchange[] = [];
  const resource = `${baseURL}/api/mcp`;

  // 1. The first call has no token: 401, then discovery, then the person is sent to consent.
  const first = connectWith(provider, baseURL, exchanges);
  await expect(first.connected).rejects.toBeInstanceOf(UnauthorizedError);
  expect(exchanges[0]).toEqual({ method: "POST", path: "/api/mcp", status: 401 });
  const paths = exchanges.map((e) => `${e.method} ${e.path} ${e.status}`);
  expect(paths).toContain("GET /.well-known/oauth-protected-resource/api/mcp 200");
  expect(paths).toContain("GET /.well-known/oauth-authorization-server 200");
  expect(provider.authorizationUrls).toHaveLength(1);
  const authorization = provider.authorizationUrls[0];
  expect(authorization.origin + authorization.pathname).toBe(`${baseURL}/oauth/authorize`);
  expect(authorization.searchParams.get("resource")).toBe(resource);
  expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorization.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
  expect(authorization.searchParams.get("redirect_uri")).toBe(provider.redirectUrl);
  expect(authorization.searchParams.get("scope")).toContain("offline_access");

  // 2. Consent in the browser, signed in on the way; the redirect back carries the code.
  await page.goto(authorization.toString());
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await signIn(page, email);
  const heading = page.getByRole("heading", { name: /^Connect / });
  await expect(heading).toBeVisible();
  const consentHeading = await heading.textContent();
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((u) => u.toString().startsWith(provider.redirectUrl));
  const callback = new URL(page.url()).searchParams;
  expect(callback.get("state")).toBe("assistant-state");
  expect(callback.get("iss")).toBe(baseURL);
  await first.transport.finishAuth(callback);
  const tokens = provider.tokens()!;
  expect(tokens.access_token).toMatch(/^cjo_/);
  expect(tokens.refresh_token).toMatch(/^cjr_/);
  expect(provider.discoveryState()?.resourceMetadata?.resource).toBe(resource);

  // 3. With the token: the handshake and a tool call.
  const second = connectWith(provider, baseURL, exchanges);
  await second.connected;
  const listed = await second.client.callTool({ name: "list_clients", arguments: { limit: 5 } });
  expect(listed.isError).toBeFalsy();
  expect(listed.structuredContent).toHaveProperty("data");

  // 4. Refresh: the access token is refused (here, one it never was), the client refreshes by itself and retries.
  provider.saveTokens({ ...tokens, access_token: "cjo_expired" });
  const before = exchanges.length;
  const again = await second.client.callTool({ name: "list_clients", arguments: { limit: 5 } });
  expect(again.isError).toBeFalsy();
  const refreshed = provider.tokens()!;
  expect(refreshed.access_token).toMatch(/^cjo_/);
  expect(refreshed.access_token).not.toBe(tokens.access_token);
  expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  expect(exchanges.slice(before).map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(
    expect.arrayContaining(["POST /api/mcp 401", "POST /oauth/token 200", "POST /api/mcp 200"]),
  );

  // 5. Revocation at the endpoint the discovery named: the grant ends, the next call is refused with 401 (the client
  // then finds its refresh token refused too and asks the person to consent again).
  const metadata = provider.discoveryState()!.authorizationServerMetadata as OAuthMetadata;
  const revocationEndpoint = metadata.revocation_endpoint!;
  const revoked = await fetch(revocationEndpoint, {
    method: "POST",
    body: new URLSearchParams({
      token: refreshed.refresh_token!,
      token_type_hint: "refresh_token",
      client_id: provider.clientInformation()!.client_id,
    }),
  });
  expect(revoked.status).toBe(200);
  const afterRevoke = exchanges.length;
  await expect(second.client.callTool({ name: "list_clients", arguments: {} })).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  const late = exchanges.slice(afterRevoke);
  expect(late[0]).toEqual({ method: "POST", path: "/api/mcp", status: 401 });
  expect(late.map((e) => `${e.method} ${e.path} ${e.status}`)).toContain("POST /oauth/token 400");
  expect(provider.authorizationUrls).toHaveLength(2);
  await second.client.close();
  return consentHeading;
}

test("the MCP client connects with a client metadata document: consent, tool call, refresh, revocation", async ({
  page,
  baseURL,
}) => {
  const provider = new AssistantProvider(
    `${appOrigin}/callback`,
    { client_name: documentName, redirect_uris: [`${appOrigin}/callback`], token_endpoint_auth_method: "none" },
    `${appOrigin}/client.json`,
  );
  expect(await flow(page, baseURL!, "owner@acme.test", provider)).toBe(`Connect ${documentName}?`);
  // It never registered: its client_id is its document's URL, which the server fetched.
  expect(app.documentFetches()).toBeGreaterThan(0);
  expect(provider.clientInformation()?.client_id).toBe(`${appOrigin}/client.json`);
});

test("the MCP client registers dynamically: consent, tool call, refresh, revocation", async ({ page, baseURL }) => {
  const provider = new AssistantProvider(`${appOrigin}/callback`, {
    client_name: "Assistant by Registration",
    redirect_uris: [`${appOrigin}/callback`],
    token_endpoint_auth_method: "none",
  });
  expect(await flow(page, baseURL!, "admin@acme.test", provider)).toBe("Connect Assistant by Registration?");
  expect(provider.clientInformation()?.client_id).toMatch(/^cjc_/);
});
