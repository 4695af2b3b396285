// Helpers of the OAuth tests: an app, a person's consent (what the consent page records), the token endpoint called
// in-process as Next would, and PKCE pairs.
import { createHash, randomBytes } from "node:crypto";
import { cliActor } from "@/lib/audit/mutations";
import { prisma } from "@/lib/db/client";
import { type AppClient, findClient, registerFirmClient } from "@/lib/oauth/clients";
import { grantConsent } from "@/lib/oauth/grants";
import { revokePost, tokenPost } from "@/lib/oauth/http";
import { type Audience, resourceUrl } from "@/lib/oauth/settings";
import { issueCode } from "@/lib/oauth/tokens";
import { FULL_ACCESS, type TokenAccess } from "@/lib/tokens/access";
import { userByEmail } from "../support/api";

export const REDIRECT_URI = "https://app.example.com/callback";

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** A public app registered by the firm of `email` (or a confidential one, with its secret). */
export async function firmApp(email: string, { confidential = false, name = "Ledger Sync" } = {}) {
  const user = await userByEmail(email);
  const { clientId, secret } = await registerFirmClient(await prisma(), cliActor(user.tenantId), {
    name,
    redirectUris: [REDIRECT_URI],
    confidential,
  });
  return { app: (await findClient(await prisma(), clientId)) as AppClient, secret };
}

export interface Connected {
  code: string;
  verifier: string;
  grantId: number;
  app: AppClient;
}

/** The person of `email` consents (as on the consent page) and the app gets a code. */
export async function consent(
  email: string,
  app: AppClient,
  {
    access = FULL_ACCESS,
    offline = true,
    audience = "api" as Audience,
    expiresInDays = null as number | null,
  }: { access?: TokenAccess; offline?: boolean; audience?: Audience; expiresInDays?: number | null } = {},
): Promise<Connected> {
  const user = await userByEmail(email);
  const client = await prisma();
  const grantId = await grantConsent(
    client,
    {
      tenantId: user.tenantId,
      userId: user.id,
      app,
      audience,
      redirectUri: REDIRECT_URI,
      access,
      offline,
      expiresInDays,
    },
    { tenantId: user.tenantId, via: "web", userId: user.id, tokenId: null, tokenName: null, address: null },
  );
  const { verifier, challenge } = pkce();
  const code = await issueCode(
    client,
    { tenantId: user.tenantId, grantId },
    {
      redirectUri: REDIRECT_URI,
      codeChallenge: challenge,
    },
  );
  return { code, verifier, grantId, app };
}

export interface OAuthAnswer {
  status: number;
  headers: Headers;
  body: any;
}

async function post(
  handler: (r: Request) => Promise<Response>,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<OAuthAnswer> {
  const response = await handler(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form),
    }),
  );
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

export const token = (form: Record<string, string>, headers?: Record<string, string>) =>
  post(tokenPost, "/oauth/token", form, headers);
export const revoke = (form: Record<string, string>, headers?: Record<string, string>) =>
  post(revokePost, "/oauth/revoke", form, headers);

/** The code exchanged for tokens, as a public client would. */
export const exchange = ({ code, verifier, app }: Connected, extra: Record<string, string> = {}) =>
  token({
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
    client_id: app.id,
    resource: resourceUrl("api"),
    ...extra,
  });

export const refresh = (app: AppClient, refreshToken: string) =>
  token({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: app.id });
