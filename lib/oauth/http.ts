// The authorization server's endpoints as web-standard handlers (the route files under app/oauth and app/.well-known
// export them): ordinary app-router routes, so they run under `next start` and on Vercel's functions alike.
// Which RFC section each follows: docs/oauth.md.

import { signInPath } from "@/lib/auth/callback-url";
import { signedInUser } from "@/lib/auth/session";
import { clientAddress } from "@/lib/client-address";
import { logError } from "@/lib/core/log";
import { prisma } from "@/lib/db/client";
import { OAUTH_AUTHORIZE_PATH, OAUTH_CONSENT_PATH } from "@/lib/paths";
import { createRateLimiter } from "@/lib/ratelimit";
import { accessWithin, TOKEN_RESOURCES, tokenAccessSchema } from "@/lib/tokens/access";
import { checkAuthorizationRequest, csrfMatches, openRequest, redirectBack, sealRequest } from "./authorize";
import { authenticateClient, findClient, registerDynamicClient } from "./clients";
import { asksOffline, firmOptions } from "./consent";
import { OAuthError, oauthErrorResponse, oauthJson } from "./errors";
import { grantConsent, rememberedGrant } from "./grants";
import { SCOPES } from "./scopes";
import { endpointUrl, GRANT_EXPIRY_DAYS, issuer } from "./settings";
import { exchangeCode, issueCode, refreshTokens, revokeToken } from "./tokens";

/** RFC 8414 §2: what a client discovers. The URLs are the configured origin's, whatever the request's headers say. */
export function serverMetadata() {
  const methods = ["none", "client_secret_basic"];
  return {
    issuer: issuer(),
    authorization_endpoint: endpointUrl(OAUTH_AUTHORIZE_PATH),
    token_endpoint: endpointUrl("/oauth/token"),
    revocation_endpoint: endpointUrl("/oauth/revoke"),
    registration_endpoint: endpointUrl("/oauth/register"),
    scopes_supported: SCOPES,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: methods,
    revocation_endpoint_auth_methods_supported: methods,
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: endpointUrl("/docs"),
  };
}

export const metadataEndpoint = async () =>
  Response.json(serverMetadata(), { headers: { "Cache-Control": "public, max-age=300" } });

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A small page of the authorization server itself: an error that must not go back to the app, or the way back. */
function page(title: string, body: string, status: number, extraHead = "") {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">${extraHead}</head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; color: #0f172a">
<main><h1 style="font-size: 1.4rem">${escapeHtml(title)}</h1>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export const errorPage = (message: string, status = 400) =>
  page("This app cannot connect", `<p role="alert">${escapeHtml(message)}</p>`, status);

/**
 * The way back to the app after the consent form: a page that goes on at once (a meta refresh) rather than a 303,
 * since the page's form-action policy ('self') would stop a form's redirect to another origin.
 */
function returnPage(url: string, appName: string) {
  const target = escapeHtml(url);
  return page(
    `Returning you to ${appName}`,
    `<p>If nothing happens, <a href="${target}">continue to ${escapeHtml(appName)}</a>.</p>`,
    200,
    `<meta http-equiv="refresh" content="0;url=${target}">`,
  );
}

const redirect = (url: string) =>
  new Response(null, { status: 302, headers: { Location: url, "Cache-Control": "no-store" } });

/** GET /oauth/authorize (RFC 6749 §4.1.1). */
export async function authorizeGet(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const client = await prisma();
  const outcome = await checkAuthorizationRequest(client, url.searchParams);
  if (outcome.kind === "error-page") return errorPage(outcome.message);
  if (outcome.kind === "redirect") return redirect(outcome.url);
  const user = await signedInUser();
  // Signed out: sign in, then back here with the same query.
  if (!user) return redirect(endpointUrl(signInPath(`${OAUTH_AUTHORIZE_PATH}${url.search}`)));
  const { app, request: authorization } = outcome;
  const options = await firmOptions(client, user, app, authorization);
  const here = options.find((option) => option.tenantId === user.tenantId);
  if (here && !here.refusal) {
    const grantId = await rememberedGrant(client, {
      tenantId: here.tenantId,
      userId: here.userId,
      clientId: app.id,
      audience: authorization.audience,
      redirectUri: authorization.redirectUri,
      access: here.offered,
      offline: asksOffline(authorization),
    });
    if (grantId !== null) {
      const code = await issueCode(client, { tenantId: here.tenantId, grantId }, authorization);
      return redirect(redirectBack(authorization.redirectUri, authorization.state, { code }));
    }
  }
  return redirect(endpointUrl(`${OAUTH_CONSENT_PATH}?${new URLSearchParams({ request: sealRequest(authorization) })}`));
}

/** POST /oauth/authorize: the consent form's answer (Allow or Deny). */
export async function authorizePost(request: Request): Promise<Response> {
  const form = await request.formData().catch(() => null);
  if (!form) return errorPage("The form could not be read.");
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : null;
  };
  const sealed = text("request") ?? "";
  const authorization = openRequest(sealed);
  if (!authorization) return errorPage("This request has expired or was altered. Start again from the app.");
  const user = await signedInUser();
  if (!user) return errorPage("Your session has ended. Start again from the app.", 401);
  // Only this server's own consent page, shown to this person, can send this form: the anti-forgery value decides;
  // an Origin naming another site is refused as well. (Pages send no referrer, so browsers send `Origin: null`.)
  const origin = request.headers.get("origin");
  if ((origin && origin !== "null" && origin !== issuer()) || !csrfMatches(text("csrf"), sealed, user))
    return errorPage("This form did not come from the consent page. Nothing was granted.", 403);
  const client = await prisma();
  const app = await findClient(client, authorization.clientId).catch(() => null);
  if (!app || !app.redirectUris.includes(authorization.redirectUri))
    return errorPage("This app is no longer registered here.");
  if (text("decision") !== "allow")
    return returnPage(
      redirectBack(authorization.redirectUri, authorization.state, {
        error: "access_denied",
        error_description: "The person declined.",
      }),
      app.name,
    );
  const options = await firmOptions(client, user, app, authorization);
  const firm = options.find((option) => String(option.tenantId) === text("firm"));
  if (!firm) return errorPage("Choose one of your firms.", 400);
  if (firm.refusal) return errorPage(firm.refusal, 403);
  const access = tokenAccessSchema.safeParse(
    Object.fromEntries(TOKEN_RESOURCES.map((resource) => [resource, text(`access.${resource}`) ?? "none"])),
  );
  const expiry = GRANT_EXPIRY_DAYS.find((days) => String(days ?? "never") === text("expires"));
  if (!access.success || expiry === undefined) return errorPage("Choose the access and an expiry.");
  if (!accessWithin(access.data, firm.offered))
    return errorPage("That is more access than the app asked for or you may give.", 403);
  const grantId = await grantConsent(
    client,
    {
      tenantId: firm.tenantId,
      userId: firm.userId,
      app,
      audience: authorization.audience,
      redirectUri: authorization.redirectUri,
      access: access.data,
      offline: asksOffline(authorization),
      expiresInDays: expiry,
    },
    {
      tenantId: firm.tenantId,
      via: "web",
      userId: firm.userId,
      tokenId: null,
      tokenName: null,
      address: clientAddress(request.headers),
    },
  );
  const code = await issueCode(client, { tenantId: firm.tenantId, grantId }, authorization);
  return returnPage(redirectBack(authorization.redirectUri, authorization.state, { code }), app.name);
}

/** The form body of a token or revocation request (RFC 6749 §3.2: application/x-www-form-urlencoded). */
async function formBody(request: Request): Promise<URLSearchParams> {
  if (!request.headers.get("content-type")?.toLowerCase().startsWith("application/x-www-form-urlencoded"))
    throw new OAuthError("invalid_request", "Send the parameters as application/x-www-form-urlencoded.");
  const body = new URLSearchParams(await request.text());
  for (const name of new Set(body.keys()))
    if (body.getAll(name).length > 1) throw new OAuthError("invalid_request", `${name} was sent more than once.`);
  return body;
}

/** Runs an endpoint, answering its OAuth errors as RFC 6749 §5.2 says, and anything unexpected as a JSON 500. */
async function oauthEndpoint(work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof OAuthError) return oauthErrorResponse(error);
    logError("Unhandled error at an OAuth endpoint", error);
    return oauthJson({ error: "server_error", error_description: "Server error" }, 500);
  }
}

/** POST /oauth/token (RFC 6749 §4.1.3 and §6). */
export const tokenPost = (request: Request) =>
  oauthEndpoint(async () => {
    const form = await formBody(request);
    const client = await prisma();
    const app = await authenticateClient(client, request, form);
    const grantType = form.get("grant_type");
    const resource = form.get("resource");
    if (grantType === "authorization_code") {
      const code = form.get("code");
      if (!code) throw new OAuthError("invalid_request", "code is required.");
      return oauthJson(
        await exchangeCode(client, app, {
          code,
          redirectUri: form.get("redirect_uri"),
          codeVerifier: form.get("code_verifier"),
          resource,
        }),
      );
    }
    if (grantType === "refresh_token") {
      const refreshToken = form.get("refresh_token");
      if (!refreshToken) throw new OAuthError("invalid_request", "refresh_token is required.");
      if (form.get("scope"))
        throw new OAuthError("invalid_scope", "A refresh keeps the grant's scope: leave scope out.");
      return oauthJson(
        await refreshTokens(client, app, { refreshToken, resource, address: clientAddress(request.headers) }),
      );
    }
    throw new OAuthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token.");
  });

/** POST /oauth/revoke (RFC 7009 §2.1–2.2): 200 whether or not the token was known. */
export const revokePost = (request: Request) =>
  oauthEndpoint(async () => {
    const form = await formBody(request);
    const client = await prisma();
    const app = await authenticateClient(client, request, form);
    const token = form.get("token");
    if (!token) throw new OAuthError("invalid_request", "token is required.");
    await revokeToken(client, app, token, clientAddress(request.headers));
    return new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });
  });

const registrations = createRateLimiter({
  prefix: "oauth:register",
  limit: Number(process.env.OAUTH_REGISTRATIONS_PER_HOUR || 20),
  windowMs: 60 * 60 * 1000,
});

/** POST /oauth/register (RFC 7591 §3): public clients only, limited per client address. */
export const registerPost = (request: Request) =>
  oauthEndpoint(async () => {
    const limit = await registrations.limit(clientAddress(request.headers) ?? "unknown");
    if (!limit.success) {
      const seconds = Math.max(1, Math.ceil((limit.reset - Date.now()) / 1000));
      return oauthJson(
        { error: "temporarily_unavailable", error_description: "Too many registrations: try again later." },
        429,
        { "Retry-After": String(seconds) },
      );
    }
    if (!request.headers.get("content-type")?.toLowerCase().startsWith("application/json"))
      throw new OAuthError("invalid_client_metadata", "Send the client metadata as application/json.");
    const body = await request.json().catch(() => {
      throw new OAuthError("invalid_client_metadata", "The body is not JSON.");
    });
    return oauthJson(await registerDynamicClient(await prisma(), body), 201);
  });
