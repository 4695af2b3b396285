// Apps (OAuth clients), three ways (docs/oauth.md): registered by a firm's Owner or Admin (confidential with a secret
// shown once, or public), described by a Client ID Metadata Document, or registered dynamically (RFC 7591, public
// only, removed when no one has authorized them within 24 hours).
import { timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { z } from "zod";
import { type Actor, recordAudit } from "@/lib/audit/mutations";
import { isStorableText } from "@/lib/core/validation";
import { tenantDb } from "@/lib/db/tenant";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { generateTokenValue, hashToken } from "@/lib/tokens";
import { invalidClient, OAuthError } from "./errors";
import { fetchMetadataDocument, isMetadataDocumentUrl, MetadataDocumentError } from "./metadata-document";
import { UNUSED_REGISTRATION_HOURS } from "./settings";

export const CLIENT_ID_PREFIX = "cjc_";
export const CLIENT_SECRET_PREFIX = "cjs_";

export interface AppClient {
  id: string;
  kind: "firm" | "metadata" | "dynamic";
  /** The firm that registered it, whose people alone may connect it. */
  tenantId: number | null;
  name: string;
  redirectUris: string[];
  secretHash: string | null;
}

const clientFields = {
  id: true,
  kind: true,
  tenantId: true,
  name: true,
  redirectUris: true,
  secretHash: true,
  staleAt: true,
  unusedExpiresAt: true,
} as const;

/**
 * Where an app may send people back (decisions.md): an https URL, or an http URL on the loopback address for a native
 * app; never with a fragment or a user name. Compared exactly, character for character, on every use.
 */
export function redirectUriProblem(raw: string): string | null {
  const url = URL.parse(raw);
  if (!url) return "is not a URL";
  if (url.hash || raw.includes("#")) return "must not have a fragment (#…)";
  if (url.username || url.password) return "must not contain a user name or password";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const loopback = host === "localhost" || host === "127.0.0.1" || (isIP(host) === 6 && host === "::1");
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && loopback) return null;
  return "must be https, or http on the loopback address (127.0.0.1, [::1], localhost) for a native app";
}

export const redirectUrisSchema = z
  .array(z.string().max(2000))
  .min(1, "Give at least one redirect URI.")
  .max(20, "At most 20 redirect URIs.")
  .superRefine((uris, context) => {
    for (const [i, uri] of uris.entries()) {
      const problem = redirectUriProblem(uri);
      if (problem) context.addIssue({ code: "custom", path: [i], message: `${uri} ${problem}.` });
    }
  });

export const appNameSchema = z
  .string()
  .trim()
  .min(1, "Give the app a name.")
  .max(100, "The name may be at most 100 characters.")
  .refine(isStorableText, "The name may not contain NUL or unpaired surrogate characters.");

/**
 * The app of a client_id, or null when there is none: a metadata document is fetched (again, once its cache time has
 * passed) and stored; a dynamic registration past its unused expiry is gone. Throws OAuthError when a document
 * cannot be had.
 */
export async function findClient(client: PrismaClient, clientId: string): Promise<AppClient | null> {
  if (!clientId || clientId.length > 2000) return null;
  const row = await client.oAuthClient.findUnique({ where: { id: clientId }, select: clientFields });
  if (isMetadataDocumentUrl(clientId)) {
    if (row && row.staleAt && row.staleAt.getTime() > Date.now()) return row as AppClient;
    try {
      const document = await fetchMetadataDocument(clientId);
      const data = { name: document.name, redirectUris: document.redirectUris, staleAt: document.staleAt };
      return (await client.oAuthClient.upsert({
        where: { id: clientId },
        create: { id: clientId, kind: "metadata", ...data },
        update: data,
        select: clientFields,
      })) as AppClient;
    } catch (error) {
      if (error instanceof MetadataDocumentError) throw new OAuthError("invalid_client", error.message, 400);
      throw error;
    }
  }
  if (!row) return null;
  if (row.unusedExpiresAt && row.unusedExpiresAt.getTime() <= Date.now()) return null;
  return row as AppClient;
}

/**
 * The app calling the token or revocation endpoint (RFC 6749 §2.3): a confidential app by HTTP Basic with its secret
 * (client_secret_basic), a public one by its client_id in the body (none). Anything else is a 401 invalid_client.
 */
export async function authenticateClient(
  client: PrismaClient,
  request: Request,
  form: URLSearchParams,
): Promise<AppClient> {
  const basic = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(request.headers.get("authorization") ?? "");
  if (basic) {
    const decoded = Buffer.from(basic[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw invalidClient("The Basic credentials are not client_id:client_secret.", true);
    const [id, secret] = [decoded.slice(0, colon), decoded.slice(colon + 1)].map((part) => {
      try {
        return decodeURIComponent(part.replaceAll("+", " "));
      } catch {
        return "";
      }
    });
    if (form.get("client_id") && form.get("client_id") !== id)
      throw new OAuthError("invalid_request", "client_id in the body is not the one of the Basic credentials.");
    const app = await findClient(client, id);
    const presented = Buffer.from(hashToken(secret));
    if (!app?.secretHash || !timingSafeEqual(Buffer.from(app.secretHash), presented))
      throw invalidClient("Unknown client, or a wrong secret.", true);
    return app;
  }
  const id = form.get("client_id");
  if (!id) throw invalidClient("Authenticate the client: HTTP Basic with its secret, or client_id for a public one.");
  const app = await findClient(client, id);
  if (!app) throw invalidClient("Unknown client.");
  if (app.secretHash) throw invalidClient("This client is confidential: authenticate with HTTP Basic.");
  return app;
}

/** An app registered on the firm's page; `confidential` gets a secret, returned this once. */
export async function registerFirmClient(
  client: PrismaClient,
  actor: Actor,
  input: { name: string; redirectUris: string[]; confidential: boolean },
): Promise<{ clientId: string; secret: string | null }> {
  const clientId = generateTokenValue(CLIENT_ID_PREFIX);
  const secret = input.confidential ? generateTokenValue(CLIENT_SECRET_PREFIX) : null;
  await tenantDb(client, actor.tenantId).$transaction(async (tx) => {
    await tx.oAuthClient.create({
      data: {
        id: clientId,
        kind: "firm",
        tenantId: actor.tenantId,
        name: input.name,
        redirectUris: input.redirectUris,
        secretHash: secret && hashToken(secret),
        createdById: actor.userId,
      },
    });
    await recordAudit(tx, { actor }, clientRegistered(clientId, input.name, input.redirectUris, !!secret));
  });
  return { clientId, secret };
}

export function clientRegistered(clientId: string, name: string, redirectUris: string[], confidential: boolean) {
  return {
    action: "oauth_client.registered" as const,
    target: { type: "oauth_client" as const, name },
    changes: {
      client_id: [null, clientId] as [unknown, unknown],
      redirect_uris: [null, redirectUris] as [unknown, unknown],
      confidential: [null, confidential] as [unknown, unknown],
    },
  };
}

/** The firm's registered apps, newest first. */
export function listFirmClients(client: PrismaClient, tenantId: number) {
  return tenantDb(client, tenantId).oAuthClient.findMany({
    where: { kind: "firm" },
    select: { id: true, name: true, redirectUris: true, secretHash: true, createdAt: true },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
}

/**
 * Deletes one of the firm's registered apps: every grant of it ends with it (the database cascades, and the
 * grants' token rows follow: prisma/migrations/*_oauth), so its tokens stop working at once.
 */
export async function deleteFirmClient(client: PrismaClient, tenantId: number, clientId: string): Promise<boolean> {
  const { count } = await tenantDb(client, tenantId).oAuthClient.deleteMany({ where: { id: clientId, kind: "firm" } });
  return count > 0;
}

/** RFC 7591 §2: what a dynamic registration may ask for (public apps using the code flow only). */
const registrationSchema = z.object({
  redirect_uris: redirectUrisSchema,
  client_name: appNameSchema.optional(),
  token_endpoint_auth_method: z.literal("none", "Only public clients (none) may register here.").optional(),
  grant_types: z
    .array(z.enum(["authorization_code", "refresh_token"], "Only authorization_code and refresh_token."))
    .optional(),
  response_types: z.array(z.literal("code", "Only the code response type.")).optional(),
});

/** RFC 7591 §3: registers a public app; unused ones are removed after 24 hours (the expired ones go here). */
export async function registerDynamicClient(client: PrismaClient, body: unknown) {
  const parsed = registrationSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const code = issue.path[0] === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata";
    throw new OAuthError(code, `${issue.path.join(".") || "body"}: ${issue.message}`);
  }
  const now = new Date();
  await client.oAuthClient.deleteMany({ where: { kind: "dynamic", unusedExpiresAt: { lte: now } } });
  const { redirect_uris, client_name } = parsed.data;
  const id = generateTokenValue(CLIENT_ID_PREFIX);
  const created = await client.oAuthClient.create({
    data: {
      id,
      kind: "dynamic",
      name: client_name ?? "Unnamed app",
      redirectUris: redirect_uris,
      unusedExpiresAt: new Date(now.getTime() + UNUSED_REGISTRATION_HOURS * 60 * 60 * 1000),
    },
  });
  return {
    client_id: created.id,
    client_id_issued_at: Math.floor(created.createdAt.getTime() / 1000),
    client_name: created.name,
    redirect_uris: created.redirectUris,
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  };
}
