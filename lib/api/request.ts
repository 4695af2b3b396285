// Reading a request: its query string as an object for zod, and its JSON body within the size limit.
import { ApiError, badRequest, invalidField } from "@/lib/core/errors";

/** The largest request body accepted; the longest field (a job description) is 30,000 characters. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** How deep a body may nest (decisions.md, Wire format): the body object itself is level 1. */
export const MAX_BODY_DEPTH = 32;

/**
 * Query parameters as an object for zod. `key[]` and repeated `key` become arrays; a key that appears once is a
 * string, so a schema that wants one value rejects a repeated key instead of picking one silently.
 */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const rawKey of new Set(params.keys())) {
    const isArray = rawKey.endsWith("[]");
    const key = isArray ? rawKey.slice(0, -2) : rawKey;
    const values = params.getAll(rawKey);
    const existing = query[key];
    const merged = existing === undefined ? values : [...[existing].flat(), ...values];
    query[key] = isArray || merged.length > 1 || existing !== undefined ? merged : merged[0];
  }
  return query;
}

/**
 * The body as a JSON object: 415 for another content type, 413 over the limit, 422 nested past MAX_BODY_DEPTH, 400 for
 * anything but an object. Everything after this (the schemas, the Idempotency-Key fingerprint) reads a bounded body.
 */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new ApiError(415, "Send the request body as JSON with 'Content-Type: application/json'.");
  }
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readLimited(request, MAX_BODY_BYTES).catch((error) => {
    // A client that hangs up mid-body (ECONNRESET) is not a server error; nobody is left to read the answer.
    if (error instanceof ApiError) throw error;
    throw badRequest("The request body could not be read.");
  });
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badRequest("The request body is not valid JSON.");
  }
  // Counted on the text, before parsing: a megabyte of brackets nests 500,000 deep and would cost seconds to parse.
  if (nestingDepth(text) > MAX_BODY_DEPTH)
    throw invalidField("body", `Must not nest deeper than ${MAX_BODY_DEPTH} levels of objects and arrays.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest("The request body is not valid JSON.");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw badRequest("The request body must be a JSON object.");
  }
  return parsed as Record<string, unknown>;
}

/** The deepest nesting of objects and arrays in JSON text (brackets inside strings do not count); one pass, no recursion. */
export function nestingDepth(json: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

const tooLarge = () => new ApiError(413, `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB.`);

async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
