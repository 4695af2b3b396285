// The authorization endpoint's rules (RFC 6749 §4.1.1–4.1.2.1, RFC 7636 with S256 only, RFC 8707 `resource`, RFC 9207
// `iss`): a request whose client or redirect URI is wrong is shown an error page and never redirected (§4.1.2.1);
// every other error goes back to the app's redirect URI. A valid request travels through sign-in and the consent
// page as a signed, short-lived value (HMAC with a key derived from NEXTAUTH_SECRET), so no server state is kept
// between the steps and any instance can serve the next one.
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { authOptions } from "@/lib/auth/options";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { type AppClient, findClient } from "./clients";
import { OAuthError } from "./errors";
import { parseScope } from "./scopes";
import { AUTHORIZE_REQUEST_SECONDS, type Audience, audienceOf, issuer } from "./settings";

/** A checked authorization request, as it travels to the consent page. */
export const authorizationRequestSchema = z.object({
  clientId: z.string(),
  redirectUri: z.string(),
  scope: z.string(),
  state: z.string().nullable(),
  codeChallenge: z.string(),
  audience: z.enum(["api", "mcp"]),
  expiresAt: z.number(),
});
export type AuthorizationRequest = z.infer<typeof authorizationRequestSchema>;

/** What the endpoint does with a request. */
export type AuthorizeOutcome =
  /** No redirect is safe: shown to the person as a page. */
  | { kind: "error-page"; message: string }
  /** An error for the app, at its redirect URI. */
  | { kind: "redirect"; url: string }
  | { kind: "valid"; request: AuthorizationRequest; app: AppClient };

/** The redirect back to the app: `code` or `error`, with `state` and `iss` (RFC 9207 §2). */
export function redirectBack(
  redirectUri: string,
  state: string | null,
  params: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  if (state !== null) url.searchParams.set("state", state);
  url.searchParams.set("iss", issuer());
  return url.toString();
}

/** RFC 7636 §4.2: BASE64URL of a SHA-256, 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** Judges the query of GET /oauth/authorize. */
export async function checkAuthorizationRequest(
  client: PrismaClient,
  query: URLSearchParams,
): Promise<AuthorizeOutcome> {
  const one = (name: string) => {
    const values = query.getAll(name);
    // RFC 6749 §3.1: a parameter sent twice is an error.
    return values.length > 1 ? undefined : (values[0] ?? null);
  };
  const clientId = one("client_id");
  if (!clientId) return { kind: "error-page", message: "The app sent no client_id (or sent it twice)." };
  let app: AppClient | null;
  try {
    app = await findClient(client, clientId);
  } catch (error) {
    if (error instanceof OAuthError) return { kind: "error-page", message: error.description };
    throw error;
  }
  if (!app) return { kind: "error-page", message: "This app is not known here: its client_id is not registered." };
  const redirectUri = one("redirect_uri");
  if (!redirectUri || !app.redirectUris.includes(redirectUri))
    return {
      kind: "error-page",
      message: `The app asked to send you back to an address it has not registered${redirectUri ? ` (${redirectUri})` : ""}. Nothing was sent to it.`,
    };
  const state = one("state");
  const fail = (error: string, description: string): AuthorizeOutcome => ({
    kind: "redirect",
    url: redirectBack(redirectUri, state ?? null, { error, error_description: description }),
  });
  if (state === undefined) return fail("invalid_request", "state was sent more than once.");
  if (one("response_type") !== "code")
    return fail("unsupported_response_type", "Only response_type=code is supported.");
  const challenge = one("code_challenge");
  if (!challenge)
    return fail("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256.");
  if (one("code_challenge_method") !== "S256")
    return fail("invalid_request", "Only the S256 code_challenge_method is supported.");
  if (!S256_CHALLENGE.test(challenge)) return fail("invalid_request", "code_challenge is not an S256 challenge.");
  const resource = one("resource");
  if (!resource) return fail("invalid_target", "resource is required: the API (or MCP) URL the token is for.");
  const audience: Audience | null = audienceOf(resource);
  if (!audience) return fail("invalid_target", `${resource} is not a resource of this server.`);
  const scope = one("scope");
  if (scope === undefined || !parseScope(scope))
    return fail("invalid_scope", "The scope names a scope this server does not have.");
  return {
    kind: "valid",
    app,
    request: {
      clientId,
      redirectUri,
      scope: scope ?? "",
      state,
      codeChallenge: challenge,
      audience,
      expiresAt: Date.now() + AUTHORIZE_REQUEST_SECONDS * 1000,
    },
  };
}

const key = (purpose: string) => {
  if (!authOptions.secret) throw new Error("NEXTAUTH_SECRET is not set.");
  return Buffer.from(hkdfSync("sha256", authOptions.secret, "", `cjt oauth ${purpose}`, 32));
};
const mac = (purpose: string, text: string) => createHmac("sha256", key(purpose)).update(text).digest("base64url");
const sameText = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The request as one signed value: base64url(JSON).mac. */
export function sealRequest(request: AuthorizationRequest): string {
  const body = Buffer.from(JSON.stringify(request)).toString("base64url");
  return `${body}.${mac("request", body)}`;
}

/** The request a sealed value carries, or null when it was altered or is too old. */
export function openRequest(sealed: string | null | undefined): AuthorizationRequest | null {
  const [body, signature, ...rest] = (sealed ?? "").split(".");
  if (!body || !signature || rest.length || !sameText(mac("request", body), signature)) return null;
  const parsed = authorizationRequestSchema.safeParse(
    (() => {
      try {
        return JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
      } catch {
        return null;
      }
    })(),
  );
  if (!parsed.success || parsed.data.expiresAt <= Date.now()) return null;
  return parsed.data;
}

/**
 * The consent form's anti-forgery value: bound to the request and the signed-in person, so that a page elsewhere
 * can neither make one nor reuse one made for someone else (it cannot read this page: it is never framed).
 */
export const consentCsrf = (sealed: string, user: { tenantId: number; userId: number }) =>
  mac("consent", `${sealed}|${user.tenantId}|${user.userId}`);

export const csrfMatches = (sent: string | null, sealed: string, user: { tenantId: number; userId: number }) =>
  !!sent && sameText(sent, consentCsrf(sealed, user));
