// Reading a request: its query string as an object for zod, and its JSON body within the size limit.
import { ApiError, badRequest, invalidField } from "@/lib/core/errors";

/** The largest request body accepted; the longest field (a job description) is 30,000 characters. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** How deep a body may nest (decisions.md, Wire format): the body object itself is level 1. */
export const MAX_BODY_DEPTH = 32;

/**
 * Query parameters of a URL's query string (`?a=1&b=2`) as an object for zod. `key[]` and repeated `key` become arrays;
 * a key that appears once is a string, so a schema that wants one value rejects a repeated key instead of picking one
 * silently. A value that is not UTF-8 once its %-escapes are decoded is a 422 naming its parameter: URLSearchParams
 * would turn it into U+FFFD silently (decisions.md, Wire format).
 */
export function queryObject(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const pair of search.replace(/^\?/, "").split("&")) {
    if (pair === "") continue;
    const at = pair.indexOf("=");
    // A key that is not UTF-8 names no parameter: ignored like any unknown one.
    const rawKey = percentDecoded(at === -1 ? pair : pair.slice(0, at));
    if (rawKey === null) continue;
    const isArray = rawKey.endsWith("[]");
    const key = isArray ? rawKey.slice(0, -2) : rawKey;
    const value = percentDecoded(at === -1 ? "" : pair.slice(at + 1));
    if (value === null) throw invalidField(key, "Must be valid UTF-8 text once its %-escapes are decoded.");
    const existing = query[key];
    query[key] = existing === undefined ? (isArray ? [value] : value) : [...[existing].flat(), value];
  }
  return query;
}

/**
 * A query component decoded as URLSearchParams decodes it (`+` is a space; a `%` not followed by two hex digits stays
 * as it is), or null when the bytes it spells are not UTF-8.
 */
function percentDecoded(component: string): string | null {
  const text = component.replaceAll("+", " ");
  if (!text.includes("%")) return text;
  const source = Buffer.from(text, "utf8");
  const bytes: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const escaped = source[i] === 0x25 && /^[0-9a-fA-F]{2}$/.test(source.toString("latin1", i + 1, i + 3));
    bytes.push(escaped ? Number.parseInt(source.toString("latin1", i + 1, i + 3), 16) : source[i]);
    if (escaped) i += 2;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}

/**
 * The body as a JSON object: 415 for another content type, 413 over the limit, 422 nested past MAX_BODY_DEPTH, 400 for
 * anything but an object. Everything after this (the schemas, the Idempotency-Key fingerprint) reads a bounded body.
 */
/** The body's bytes, at most MAX_BODY_BYTES (413 past it, as declared or as read; 400 when it cannot be read). */
export async function readBodyBytes(request: Request): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  return readLimited(request, MAX_BODY_BYTES).catch((error) => {
    // A client that hangs up mid-body (ECONNRESET) is not a server error; nobody is left to read the answer.
    if (error instanceof ApiError) throw error;
    throw badRequest("The request body could not be read.");
  });
}

export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new ApiError(415, "Send the request body as JSON with 'Content-Type: application/json'.");
  }
  const bytes = await readBodyBytes(request);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badRequest("The request body is not valid JSON.");
  }
  refuseDeepNesting(text);
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

/**
 * A 422 for JSON text nested past `max` levels of objects and arrays. Counted on the text, before parsing: a megabyte
 * of brackets nests 500,000 deep and would cost seconds to parse.
 */
export function refuseDeepNesting(json: string, max = MAX_BODY_DEPTH) {
  if (nestingDepth(json) > max)
    throw invalidField("body", `Must not nest deeper than ${max} levels of objects and arrays.`);
}

/** The deepest nesting of objects and arrays in JSON text (brackets inside strings do not count); one pass, no recursion. */
function nestingDepth(json: string): number {
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
