// References to other records in paths, queries and bodies: uuids (lower-cased) and integer ids.
import { z } from "zod";
import { queryInt } from "./validation";

/** Either case is taken (and stored lower-cased); written without the `i` flag so the document's pattern says so too. */
export const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const uuidString = () =>
  z
    .string()
    .regex(UUID, "Must be a uuid.")
    .transform((value) => value.toLowerCase())
    .describe("uuid");

/** An integer id (users, tags) in a JSON body; the range of the database's integer keys. */
export const recordId = () => z.number().int().min(1).max(2_147_483_647);

/** An integer id in a query string. */
export const queryId = () => queryInt(recordId());

/**
 * A record nested in another, or only its identifier when the caller's token cannot read its resource
 * (decisions.md, "Token access reaches nested data"; an unexpanded object, as at Stripe). Exactly one of the two
 * matches: the identifier alone is a closed object.
 */
export function orIdentifier<T extends z.ZodType>(full: T, key: "uuid" | "id", resource: string) {
  const identifier = z.strictObject(key === "uuid" ? { uuid: z.uuid() } : { id: z.number().int() });
  const schema = z
    .xor([full, identifier.describe(`Only the ${key}: the token has no access to ${resource}`)])
    .describe(`The ${resource.replace(/s$/, "")}, or only its ${key} when the token has no access to ${resource}`);
  nestedRecords.set(schema, { key, resource });
  return schema;
}

export interface NestedRecord {
  key: "uuid" | "id";
  /** The token resource whose access shows the record whole. */
  resource: string;
}

/** The schemas orIdentifier made, with what they reduce to and when. */
const nestedRecords = new WeakMap<z.ZodType, NestedRecord>();

/**
 * The nested record a property of a record's schema holds (one or an array of them, nullable or not), or undefined
 * for any other property: what a reader with less access reduces (webhook payloads, lib/webhooks/serialize.ts).
 */
export function nestedRecordOf(schema: z.ZodType): NestedRecord | undefined {
  let inner = schema;
  while (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional || inner instanceof z.ZodArray)
    inner = inner instanceof z.ZodArray ? (inner.element as z.ZodType) : (inner.unwrap() as z.ZodType);
  return nestedRecords.get(inner);
}
