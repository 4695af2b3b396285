// Third-party apps on OAuth 2.1 (docs/oauth.md), end to end against the built server with oauth4webapi as the client:
// discovery with its issuer check, PKCE, consent clicked by a signed-in person, code → tokens → the API → refresh
// (rotated) → revocation → 401; for an app the firm registered on its page, one described by a client metadata
// document this test serves, and one registered dynamically. Then the rules of the authorization endpoint and the
// consent page, and the pages at 1280 and 390 px (screenshots in e2e/screenshots/, git-ignored).
import type { Page } from "@playwright/test";
import * as oauth from "oauth4webapi";
import { expect, signIn, startApp, test } from "./support";

const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** A loopback server for the apps: their redirect target and their client metadata document. */
let app: Awaited<ReturnType<typeof startApp>>;
let appOrigin = "";
test.beforeAll(async () => {
  app = await startApp("Metadata Notes");
  appOrigin = app.origin;
});
test.afterAll(() => app.close());

async function discover(baseURL: string) {
  const issuer = new URL(baseURL);
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
  );
}

/**
 * The whole round trip for one app, in `page` (signed in as `email` on the way): returns nothing; every step is
 * asserted. `screenshot` names the consent page's screenshots.
 */
async function roundTrip(
  page: Page,
  baseURL: string,
  email: string,
  client: oauth.Client,
  clientAuth: oauth.ClientAuth,
  redirectUri: string,
  screenshot?: string,
) {
  const as = await discover(baseURL);
  expect(as.issuer).toBe(baseURL);
  expect(as.code_challenge_methods_supported).toEqual(["S256"]);
  const resource = `${baseURL}/api/v1`;
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: "clients:read jobs:write offline_access",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    resource,
  }).toString();

  await page.goto(url.toString());
  // Signed out: the sign-in page, and back.
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await signIn(page, email);
  await expect(page.getByRole("heading", { name: /^Connect / })).toBeVisible();
  await expect(page.getByText(new URL(redirectUri).host, { exact: true })).toBeVisible();
  await expect(page.getByLabel("Clients")).toHaveValue("read");
  await expect(page.getByLabel("Jobs")).toHaveValue("write");
  if (screenshot) await shoot(page, screenshot);
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((u) => u.toString().startsWith(redirectUri));
  const params = oauth.validateAuthResponse(as, client, new URL(page.url()), state);

  const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, verifier, {
    additionalParameters: { resource },
    ...insecure,
  });
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  expect(tokens.access_token).toMatch(/^cjo_/);
  expect(tokens.scope).toBe("clients:read jobs:write offline_access");
  const api = (token: string) =>
    page.request.get("/api/v1/clients", { headers: { Authorization: `Bearer ${token}`, Cookie: "" } });
  expect((await api(tokens.access_token)).status()).toBe(200);

  const refreshed = await oauth.processRefreshTokenResponse(
    as,
    client,
    await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure),
  );
  expect(refreshed.refresh_token).toMatch(/^cjr_/);
  expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  expect((await api(refreshed.access_token)).status()).toBe(200);

  await oauth.processRevocationResponse(
    await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, insecure),
  );
  const after = await api(refreshed.access_token);
  expect(after.status()).toBe(401);
  expect(after.headers()["www-authenticate"]).toContain("Bearer");
}

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `e2e/screenshots/oauth-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("an app the firm registered on its page (confidential, with its secret) connects, refreshes and is revoked", async ({
  page,
  baseURL,
}) => {
  await page.goto("/settings/apps");
  await signIn(page, "owner@acme.test");
  await expect(page.getByRole("heading", { name: "App policy" })).toBeVisible();
  const form = page.locator("form", { has: page.getByRole("heading", { name: "Register an app" }) });
  await form.getByLabel("Name").fill("Ledger Sync");
  await form.getByLabel(/Redirect URIs/).fill(`${appOrigin}/callback`);
  await form.getByRole("button", { name: "Register app" }).click();
  const secret = await page.getByLabel("Client secret").inputValue();
  expect(secret).toMatch(/^cjs_/);
  const heading = await page.getByRole("heading", { name: /is registered: client ID/ }).textContent();
  const clientId = heading!.split("client ID ")[1].trim();
  await shoot(page, "app-policy");
  // The round trip starts signed out, as an app's first visitor would.
  await page.context().clearCookies();
  await roundTrip(
    page,
    baseURL!,
    "owner@acme.test",
    { client_id: clientId },
    oauth.ClientSecretBasic(secret),
    `${appOrigin}/callback`,
    "consent",
  );
});

test("an app with a client metadata document connects as a public client", async ({ page, baseURL }) => {
  await roundTrip(
    page,
    baseURL!,
    "admin@acme.test",
    { client_id: `${appOrigin}/client.json`, token_endpoint_auth_method: "none" },
    oauth.None(),
    `${appOrigin}/callback`,
  );
});

test("an app registered dynamically connects as a public client", async ({ page, baseURL }) => {
  const as = await discover(baseURL!);
  const registered = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      { redirect_uris: [`${appOrigin}/callback`], client_name: "Dynamic Desk", token_endpoint_auth_method: "none" },
      insecure,
    ),
  );
  expect(registered.client_id).toMatch(/^cjc_/);
  await roundTrip(
    page,
    baseURL!,
    "standard@acme.test",
    { client_id: registered.client_id, token_endpoint_auth_method: "none" },
    oauth.None(),
    `${appOrigin}/callback`,
  );
  // Its person sees it on the connected-apps page (revoked by the app above: connected again here for the page).
});

/** An authorization URL for the metadata-document app, with `changes` applied to its query. */
function authorizeUrl(baseURL: string, changes: Record<string, string | null>) {
  const query = new URLSearchParams({
    client_id: `${appOrigin}/client.json`,
    redirect_uri: `${appOrigin}/callback`,
    response_type: "code",
    state: "s1",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    resource: `${baseURL}/api/v1`,
  });
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) query.delete(name);
    else query.set(name, value);
  }
  return `/oauth/authorize?${query}`;
}

test("the authorization endpoint refuses what OAuth 2.1 refuses, never redirecting to an unregistered address", async ({
  page,
  baseURL,
}) => {
  const get = (changes: Record<string, string | null>) =>
    page.request.get(authorizeUrl(baseURL!, changes), { maxRedirects: 0 });
  const wrongRedirect = await get({ redirect_uri: "https://attacker.example/callback" });
  expect(wrongRedirect.status()).toBe(400);
  expect(wrongRedirect.headers().location).toBeUndefined();
  expect(await wrongRedirect.text()).toContain("has not registered");
  const unknownClient = await get({ client_id: "cjc_nobody" });
  expect(unknownClient.status()).toBe(400);
  expect(unknownClient.headers().location).toBeUndefined();

  const errorOf = async (changes: Record<string, string | null>) => {
    const answer = await get(changes);
    expect(answer.status()).toBe(302);
    const location = new URL(answer.headers().location);
    expect(location.origin + location.pathname).toBe(`${appOrigin}/callback`);
    expect(location.searchParams.get("state")).toBe("s1");
    expect(location.searchParams.get("iss")).toBe(baseURL);
    return location.searchParams.get("error");
  };
  expect(await errorOf({ code_challenge: null, code_challenge_method: null })).toBe("invalid_request");
  expect(await errorOf({ code_challenge_method: "plain" })).toBe("invalid_request");
  expect(await errorOf({ resource: null })).toBe("invalid_target");
  expect(await errorOf({ resource: "https://elsewhere.example/api/v1" })).toBe("invalid_target");
  expect(await errorOf({ scope: "clients:delete" })).toBe("invalid_scope");
  expect(await errorOf({ response_type: "token" })).toBe("unsupported_response_type");
});

test("the issuer is the configured origin, whatever Host and X-Forwarded-* say", async ({ page, baseURL }) => {
  const answer = await page.request.get("/.well-known/oauth-authorization-server", {
    headers: { Host: "evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" },
  });
  const metadata = await answer.json();
  expect(metadata.issuer).toBe(baseURL);
  expect(metadata.token_endpoint).toBe(`${baseURL}/oauth/token`);
  expect(metadata.authorization_endpoint).toBe(`${baseURL}/oauth/authorize`);
});

test("the consent form needs its anti-forgery value, and the page cannot be framed", async ({ page, baseURL }) => {
  await page.goto(authorizeUrl(baseURL!, {}));
  await signIn(page, "groups@acme.test");
  await expect(page.getByRole("heading", { name: "Connect Metadata Notes?" })).toBeVisible();
  const consent = await page.request.get(page.url());
  expect(consent.headers()["x-frame-options"]).toBe("DENY");
  expect(consent.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  const request = await page.locator('input[name="request"]').inputValue();
  const csrf = await page.locator('input[name="csrf"]').inputValue();
  const firm = await page.locator('input[name="firm"]').inputValue();
  const fields = { request, firm, decision: "allow", expires: "never", "access.clients": "read" };
  // With the person's cookie but without the page's value (what a page on another site could send), or a forged one.
  for (const form of [fields, { ...fields, csrf: "forged" }]) {
    const forged = await page.request.post("/oauth/authorize", { form, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toContain("Nothing was granted");
  }
  // The right value from another origin is refused too.
  const otherOrigin = await page.request.post("/oauth/authorize", {
    form: { ...fields, csrf },
    headers: { Origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect(otherOrigin.status()).toBe(403);
  await page.goto("/settings/connected-apps");
  await expect(page.getByText("You have not connected any app.")).toBeVisible();
});

test("the firm's allow-list and cap apply at consent; the connected-apps page lowers and revokes", async ({
  page,
  baseURL,
}) => {
  await page.goto("/settings/apps");
  await signIn(page, "owner@birch.test");
  // Listed apps only: the metadata app is not listed, so consent refuses it.
  await page.getByLabel(/Only the apps listed below/).check();
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByLabel(/Only the apps listed below/)).toBeChecked();
  await page.goto(authorizeUrl(baseURL!, { scope: "" }));
  await expect(page.getByRole("main").getByRole("alert")).toContainText("allows only the apps it has listed");
  await expect(page.getByRole("button", { name: "Allow" })).toHaveCount(0);
  await shoot(page, "consent-refused");

  // Listed with a cap of reading clients: consent offers no more, and marks the app verified.
  await page.goto("/settings/apps");
  const list = page.locator("form", { has: page.getByRole("heading", { name: "List an app" }) });
  await list.getByLabel("Client ID").fill(`${appOrigin}/client.json`);
  for (const resource of ["contacts", "jobs", "users", "time logs", "webhooks", "the audit log"])
    await list.getByLabel(resource, { exact: true }).selectOption("none");
  await list.getByLabel("clients", { exact: true }).selectOption("read");
  await list.getByRole("button", { name: "List app" }).click();
  await expect(page.getByRole("list", { name: "Listed apps" })).toContainText("Metadata Notes");
  await page.goto(authorizeUrl(baseURL!, { scope: "" }));
  await expect(page.getByText("Unverified app")).toHaveCount(0);
  await expect(page.getByLabel("Clients")).toHaveValue("read");
  await expect(page.getByLabel("Clients").locator("option")).toHaveText(["No access", "Read"]);
  await expect(page.getByLabel("Jobs")).toHaveCount(0);
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((u) => u.toString().startsWith(`${appOrigin}/callback`));

  await page.goto("/settings/connected-apps");
  const yours = page.getByRole("list", { name: "Your apps" });
  await expect(yours).toContainText("Metadata Notes");
  await expect(yours).toContainText("Read: clients");
  await expect(page.getByRole("list", { name: "Firm’s connected apps" })).toContainText("Bea Birch");
  await page.getByText("Lower its access").click();
  await shoot(page, "connected-apps");
  await yours.getByLabel("clients").selectOption("none");
  await yours.getByRole("button", { name: "Save lower access" }).click();
  await expect(yours).toContainText("No access");
  await yours.getByRole("button", { name: "Revoke Metadata Notes" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByText("You have not connected any app.")).toBeVisible();
});
