// The token, revocation and registration endpoints' errors (RFC 6749 §5.2, RFC 7591 §3.2.2): a JSON body with
// `error` and `error_description`, never cached.

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "unsupported_token_type"
  | "temporarily_unavailable";

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

/** The headers every answer of these endpoints carries (RFC 6749 §5.1). */
export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

export const oauthJson = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { ...NO_STORE, ...headers } });

export function oauthErrorResponse(error: OAuthError): Response {
  return oauthJson({ error: error.error, error_description: error.description }, error.status, error.headers);
}

/** A client that failed to authenticate (§5.2): 401, with the Basic challenge when it tried Basic. */
export const invalidClient = (description: string, triedBasic = false) =>
  new OAuthError("invalid_client", description, 401, triedBasic ? { "WWW-Authenticate": 'Basic realm="oauth"' } : {});
