// The authorization server's fixed numbers (decisions.md, "Apps and assistants") and the URLs it publishes. Every URL
// comes from configuration (APP_URL, else NEXTAUTH_URL): never from the request's Host or X-Forwarded-* headers,
// which anyone can send, so a forged header can never change the issuer a client checks.
import { printedBaseUrl } from "@/lib/base-url";

export const ACCESS_TOKEN_SECONDS = 60 * 60;
export const REFRESH_IDLE_DAYS = 30;
/** A used refresh token presented again within this window gets the same successor pair; later, the grant ends. */
export const REFRESH_REPLAY_GRACE_MS = 30_000;
export const CODE_SECONDS = 10 * 60;
/** How long the sign-in and consent round trip may take. */
export const AUTHORIZE_REQUEST_SECONDS = 30 * 60;
export const METADATA_DOCUMENT_MAX_BYTES = 5 * 1024;
export const METADATA_DOCUMENT_TIMEOUT_MS = 5_000;
/** A metadata document is kept at least this long (and at most a day), whatever its Cache-Control says. */
export const METADATA_DOCUMENT_MIN_CACHE_MS = 60_000;
export const METADATA_DOCUMENT_MAX_CACHE_MS = 24 * 60 * 60 * 1000;
/** A dynamic registration that no one has authorized by then is removed. */
export const UNUSED_REGISTRATION_HOURS = 24;
/** Expiry choices of the consent page, in days (null: until revoked). */
export const GRANT_EXPIRY_DAYS = [null, 7, 30, 90, 365] as const;

/** The resources (RFC 8707) a token can be issued for, by audience. */
export const AUDIENCES = ["api", "mcp"] as const;
export type Audience = (typeof AUDIENCES)[number];
const RESOURCE_PATHS: Record<Audience, string> = { api: "/api/v1", mcp: "/api/mcp" };

/** The configured public origin (APP_URL, else NEXTAUTH_URL, else this machine's port): the issuer. */
export const issuer = () => new URL(printedBaseUrl()).origin;

export const resourceUrl = (audience: Audience) => `${issuer()}${RESOURCE_PATHS[audience]}`;

/** The audience of a `resource` parameter, or null when it names none of this server's resources. */
export function audienceOf(resource: string | null | undefined): Audience | null {
  if (!resource) return null;
  return AUDIENCES.find((audience) => resourceUrl(audience) === resource.replace(/\/$/, "")) ?? null;
}

export const endpointUrl = (path: string) => `${issuer()}${path}`;
