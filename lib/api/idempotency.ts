// Idempotency-Key on POST and PUT (decisions.md, Integrations; the IETF httpapi draft): the first request with a key
// runs and its answer (below 500) is kept for 24 hours; the same key with the same method, path and body replays that
// answer with `Idempotent-Replayed: true`, writing nothing; while the first still runs, 409; with another body or
// path, 422. A server error frees the key, so that a retry runs again (a request cut by a database restart frees it
// as soon as the database is back). A first request whose process died is taken over by its retry a few seconds
// later, unless its write had committed (then a 422 says so: never a second write).
// The store, and how a write is fenced against running twice, is lib/db/idempotency.ts.
import { createHash } from "node:crypto";
import type { Caller } from "@/lib/auth/caller";
import { ApiError, invalidField } from "@/lib/core/errors";
import { outsideDatabaseDeadline } from "@/lib/db/deadline";
import {
  type Claim,
  claimKey,
  type HeldKey,
  holding,
  keepAnswer,
  LEASE_RENEWAL_MS,
  releaseKey,
  renewLease,
  stillHeld,
} from "@/lib/db/idempotency";
import { errorResponse } from "./error-response";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
export const IDEMPOTENT_METHODS = new Set(["POST", "PUT"]);
const MAX_KEY_LENGTH = 255;

/**
 * JSON with every object's keys sorted: two bodies that mean the same have one fingerprint. Its recursion is bounded:
 * bodies come from readJsonObject (lib/api/request.ts), which refuses nesting past MAX_BODY_DEPTH before parsing.
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const fingerprintOf = (request: Request, body: unknown) => {
  const url = new URL(request.url);
  return createHash("sha256")
    .update(`${request.method} ${url.pathname}${url.search}\n${canonicalJson(body ?? null)}`)
    .digest("hex");
};

/**
 * Runs `run` once per Idempotency-Key (when the request sends one). `body` is the parsed JSON body. Errors with a
 * status below 500 that `run` throws are answers like any other, kept and replayed; anything else frees the key.
 */
export async function idempotent(
  request: Request,
  caller: Caller,
  body: unknown,
  run: () => Promise<Response>,
): Promise<Response> {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null || !IDEMPOTENT_METHODS.has(request.method)) return run();
  if (key.length < 1 || key.length > MAX_KEY_LENGTH)
    throw invalidField(IDEMPOTENCY_HEADER, `Must be 1 to ${MAX_KEY_LENGTH} characters.`);
  const fingerprint = fingerprintOf(request, body);
  const outcome = await claimKey(caller, { tokenId: caller.tokenId, key }, fingerprint);
  if ("held" in outcome) return heldAnswer(outcome.held, fingerprint);
  const { claim } = outcome;
  const renewal = setInterval(() => renewLease(caller, claim).catch(() => undefined), LEASE_RENEWAL_MS);
  try {
    let response: Response;
    try {
      response = await holding(claim, run);
    } catch (error) {
      // The write failed its fence: a retry took the key over (this request was taken for dead) and runs it. Not
      // known when the database is away: then the release below, which frees only this claim, is tried anyway.
      if (!(await stillHeld(caller, claim).catch(() => true))) throw takenOver();
      if (!(error instanceof ApiError) || error.status >= 500) {
        await release(caller, claim);
        throw error;
      }
      response = errorResponse(error);
    }
    if (response.status >= 500) {
      await release(caller, claim);
      return response;
    }
    const text = await response.text();
    if (!(await keepAnswer(caller, claim, response.status, text))) throw takenOver();
    return new Response(text, { status: response.status, headers: response.headers });
  } finally {
    clearInterval(renewal);
  }
}

/** How long a release that could not reach the database is tried again, and how often. */
const RELEASE_RETRY_FOR_MS = 15_000;
const RELEASE_RETRY_EVERY_MS = 100;

/**
 * Frees the key after a server error. A request cut by a database restart cannot free it then: it tries again in the
 * background until the database answers (up to 15 s), so that its client's retry runs at once rather than meeting
 * 409 for the rest of the dead claim's lease (6 s). On Vercel the function may be frozen first: then the lease ends it.
 */
async function release(caller: Caller, claim: Claim) {
  if (
    await releaseKey(caller, claim).then(
      () => true,
      () => false,
    )
  )
    return;
  const until = Date.now() + RELEASE_RETRY_FOR_MS;
  const again = () => {
    if (Date.now() > until) return;
    releaseKey(caller, claim).catch(() => setTimeout(again, RELEASE_RETRY_EVERY_MS).unref());
  };
  // After the answer, so not under the request's database deadline (lib/db/deadline.ts), which may have passed.
  outsideDatabaseDeadline(() => setTimeout(again, RELEASE_RETRY_EVERY_MS).unref());
}

const takenOver = () =>
  new ApiError(409, "A retry with this Idempotency-Key took it over while this request ran: its answer is the key's.");

function heldAnswer(held: HeldKey, fingerprint: string): Response {
  if (held.fingerprint !== fingerprint)
    throw invalidField(
      IDEMPOTENCY_HEADER,
      "This key was used with another request (method, path or body): use a new key for a new request.",
    );
  if (held.status !== null && held.responseBody !== null)
    return new Response(held.responseBody, {
      status: held.status,
      headers: { "Content-Type": "application/json", [REPLAYED_HEADER]: "true" },
    });
  if (held.live || !held.written)
    throw new ApiError(409, "A request with this Idempotency-Key is still being processed: retry later.");
  // Its write committed, then its process stopped before answering: the write stands, and never runs twice.
  throw invalidField(
    IDEMPOTENCY_HEADER,
    "The request with this key was carried out, but the server stopped before answering it: its write stands and " +
      "will not be made again. Read the record to see it; use a new key for a new request.",
  );
}
