// The API's rate limits, each set by an environment variable (0 turns it off; README and .env.example list them):
// - per token across the whole API: RATE_LIMIT_PER_MINUTE, default 300 (an app's grant is one token: its access
//   tokens, old and refreshed, share its count, whatever address they come from);
// - per token on endpoints that name a lower limit, `apiRoute(handlers, { rateLimit: "search" })`: ENDPOINT_LIMITS;
// - per user across all their tokens: RATE_LIMIT_USER_PER_HOUR, off by default;
// - per client address for requests without a valid token: RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE, default 60.
// Limiters are built when this module loads, so each app instance reads the environment once.
// Answers carry both the X-RateLimit-* headers and the IETF ones (draft-ietf-httpapi-ratelimit-headers): the limits
// that applied, each by name, quota and window (`RateLimit-Policy: "token";q=300;w=60`), and what is left of each
// (`RateLimit: "token";r=299;t=42`).
import type { Caller } from "@/lib/auth/caller";
import { clientAddress } from "@/lib/client-address";
import { ApiError } from "@/lib/core/errors";
import { bearerToken, isWellFormedToken } from "@/lib/tokens";
import { createRateLimiter, type RateLimitResult } from "./index";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** Endpoints with a lower per-token limit of their own, on top of the API-wide one: setting and default per minute. */
const ENDPOINT_LIMITS = {
  search: { setting: "RATE_LIMIT_SEARCH_PER_MINUTE", perMinute: 60 },
} as const;
export type EndpointRateLimit = keyof typeof ENDPOINT_LIMITS;

const perToken = limiter("api:token", "RATE_LIMIT_PER_MINUTE", 300, MINUTE_MS);
const perEndpoint = Object.fromEntries(
  Object.entries(ENDPOINT_LIMITS).map(([name, { setting, perMinute }]) => [
    name,
    limiter(`api:${name}`, setting, perMinute, MINUTE_MS),
  ]),
) as Record<EndpointRateLimit, PolicyLimiter | undefined>;
const perUserHourly = limiter("api:user-hour", "RATE_LIMIT_USER_PER_HOUR", 0, HOUR_MS);
const perAddressUnauthenticated = limiter(
  "api:unauthenticated",
  "RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE",
  60,
  MINUTE_MS,
);

/**
 * Addresses refused for bad tokens, with the refusal, until its window resets. Their requests with a missing or
 * malformed token are refused before anything else, so a flood of those costs no database queries. A request with a
 * well-formed token is still looked up: a valid token is judged by its own limits, wherever it comes from.
 * Kept per instance: each learns an address from its own first refusal.
 */
const refusedAddresses = new Map<string, PolicyResult>();
const MAX_REFUSED_ADDRESSES = 10_000;

export interface Admission {
  caller: Caller;
  /** The X-RateLimit-* headers for the answer. */
  headers: Record<string, string>;
}

/**
 * Authenticates a request within the rate limits: the caller and the headers for its answer, or throws the 401 or
 * 429 to send, carrying those headers.
 */
export async function admitApiRequest(
  request: Request,
  endpoint: EndpointRateLimit | undefined,
  authenticate: () => Promise<Caller>,
): Promise<Admission> {
  // Without a trusted proxy the address is unknown: all requests without a valid token then share one bucket.
  const address = clientAddress(request.headers) ?? "unknown";
  if (!isWellFormedToken(bearerToken(request) ?? "")) {
    const refusal = refusalOf(address);
    if (refusal) throw tooManyRequests(refusal);
  }

  let caller: Caller;
  try {
    caller = await authenticate();
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401) || !perAddressUnauthenticated) throw error;
    const refusal = refusalOf(address);
    if (refusal) throw tooManyRequests(refusal);
    const result = await perAddressUnauthenticated.limit(address);
    // The 401 keeps its own headers (WWW-Authenticate) beside the limit's.
    if (result.success)
      throw new ApiError(401, error.message, undefined, { ...error.headers, ...rateLimitHeaders(result, [result]) });
    rememberRefusal(address, result);
    throw tooManyRequests(result);
  }

  const tokenKey = `${caller.tenant.id}:${caller.tokenId}`;
  const checks: [PolicyLimiter | undefined, string][] = [
    [perToken, tokenKey],
    [endpoint && perEndpoint[endpoint], tokenKey],
    [perUserHourly, `${caller.tenant.id}:${caller.user.id}`],
  ];
  const results = await Promise.all(checks.flatMap(([limiter, key]) => (limiter ? [limiter.limit(key)] : [])));
  if (!results.length) return { caller, headers: {} };
  const binding = bindingResult(results);
  if (!binding.success) throw tooManyRequests(binding, results);
  return { caller, headers: rateLimitHeaders(binding, results) };
}

/**
 * For an answer given before any token is looked at (the front door's 404, 405 and 414 under /api/v1): the request
 * counts against its address's limit for requests without a valid token, as a 401 does, and its answer carries
 * that limit's headers; `refusal` is the 429's message when the address is over it.
 */
export async function limitBeforeToken(
  headers: Parameters<typeof clientAddress>[0],
): Promise<{ headers: Record<string, string>; refusal?: string }> {
  if (!perAddressUnauthenticated) return { headers: {} };
  const address = clientAddress(headers) ?? "unknown";
  const result = refusalOf(address) ?? (await perAddressUnauthenticated.limit(address));
  if (result.success) return { headers: rateLimitHeaders(result, [result]) };
  rememberRefusal(address, result);
  const refused = tooManyRequests(result);
  return { headers: refused.headers ?? {}, refusal: refused.message };
}

/** A limit's name and window in the IETF headers: `api:token` is the policy "token". */
interface Policy {
  name: string;
  windowSeconds: number;
}
type PolicyResult = RateLimitResult & { policy: Policy };
interface PolicyLimiter {
  limit(key: string): Promise<PolicyResult>;
}

function limiter(prefix: string, setting: string, fallback: number, windowMs: number): PolicyLimiter | undefined {
  const raw = process.env[setting];
  const limit = raw ? Number(raw) : fallback;
  if (!Number.isInteger(limit) || limit < 0)
    throw new Error(`${setting} must be a whole number (0 turns the limit off), not "${raw}".`);
  if (limit === 0) return undefined;
  const counter = createRateLimiter({ prefix, limit, windowMs });
  const policy = { name: prefix.replace(/^api:/, ""), windowSeconds: windowMs / 1000 };
  return { limit: async (key) => ({ ...(await counter.limit(key)), policy }) };
}

/** The result the caller is shown: of the limits that refused, the longest wait; else the limit closest to refusing. */
function bindingResult(results: PolicyResult[]): PolicyResult {
  const refused = results.filter((result) => !result.success);
  if (refused.length) return refused.reduce((a, b) => (b.reset > a.reset ? b : a));
  return results.reduce((a, b) => (b.remaining < a.remaining ? b : a));
}

function refusalOf(address: string): PolicyResult | undefined {
  const refusal = refusedAddresses.get(address);
  if (refusal && refusal.reset > Date.now()) return refusal;
  refusedAddresses.delete(address);
}

function rememberRefusal(address: string, result: PolicyResult) {
  if (refusedAddresses.size >= MAX_REFUSED_ADDRESSES) {
    for (const [known, refusal] of refusedAddresses) if (refusal.reset <= Date.now()) refusedAddresses.delete(known);
  }
  refusedAddresses.set(address, result);
}

function tooManyRequests(result: PolicyResult, all: PolicyResult[] = [result]): ApiError {
  const seconds = retryAfterSeconds(result);
  return new ApiError(
    429,
    `Too many requests: try again in ${seconds} second${seconds === 1 ? "" : "s"}.`,
    undefined,
    rateLimitHeaders(result, all),
  );
}

const secondsUntilReset = (result: RateLimitResult) => Math.max(0, Math.ceil((result.reset - Date.now()) / 1000));
const retryAfterSeconds = (result: RateLimitResult) => Math.max(1, secondsUntilReset(result));

/** The X-RateLimit-* headers of the binding result, and the IETF headers of every limit that applied. */
function rateLimitHeaders(result: RateLimitResult, all: PolicyResult[]): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(result.limit),
    "X-RateLimit-Remaining": String(result.remaining),
    "X-RateLimit-Reset": String(secondsUntilReset(result)),
    "RateLimit-Policy": all.map((r) => `"${r.policy.name}";q=${r.limit};w=${r.policy.windowSeconds}`).join(", "),
    RateLimit: all.map((r) => `"${r.policy.name}";r=${r.remaining};t=${secondsUntilReset(r)}`).join(", "),
  };
  if (!result.success) headers["Retry-After"] = String(retryAfterSeconds(result));
  return headers;
}
