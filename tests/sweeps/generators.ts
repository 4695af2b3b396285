// Generators of bad input for every operation of the OpenAPI document: text of every kind of wrong (control and
// unpaired characters, SQL, sizes, dates at the edges, cursor-shaped strings), numbers at the edges, bodies with the
// operation's own field names holding wrong values, malformed JSON and wrong content types, query strings with
// repeated and array-shaped keys, malformed path parameters. Shared by the in-process sweep (bad-input.ts) and the
// fuzz run against a running server (scripts/fuzz.ts).
import fc from "fast-check";
import type { z } from "zod";
import type { Operation } from "@/lib/openapi/operations";

export const nasty = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "\u0000abc",
  "\u202e\u0007\t\r\n",
  "' OR 1=1 --",
  "'; DROP TABLE clients; --",
  "%",
  "_",
  "\\",
  "x".repeat(5000),
  "𝕏".repeat(3000),
  "\ud800",
  "2026-02-30",
  "0000-01-01",
  "0000-12-31,",
  ",0000-01-01",
  "9999-12-31",
  "0001-01-01,9999-12-31",
  "10000-01-01",
  "99-99",
  "-1",
  "0",
  "1e309",
  "NaN",
  "Infinity",
  "true",
  "00000000-0000-4000-8000-000000000000",
  "not-a-uuid",
  "<script>alert(1)</script>",
  // Cursor-shaped: base64url JSON and a signature that is not this server's.
  "WyJhIiwiYiJd.c2lnbmF0dXJl",
  "bnVsbA.x",
  "e30.e30",
  "null",
  "[]",
  "{}",
);
export const text = fc.oneof(nasty, fc.string({ maxLength: 300 }), fc.string({ unit: "binary", maxLength: 100 }));
export const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308, 1001, 30_001),
);
export const leaf = fc.oneof(text, number, fc.boolean(), fc.constant(null));
export const value = fc.oneof(
  leaf,
  fc.array(leaf, { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 10 }), leaf, { maxKeys: 4 }),
);

/** An object with the operation's own field names (and some others) holding wrong values. */
export function bodyFor(op: Operation) {
  const fields = Object.keys((op.body as z.ZodObject | undefined)?.shape ?? {});
  const keys = fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 12 }));
  return fc.dictionary(keys, value, { maxKeys: fields.length + 2 });
}

export type RawBody = { raw: string; type: string };
export const rawBody: fc.Arbitrary<RawBody> = fc.oneof(
  fc.record({
    raw: fc.constantFrom("{", '{"name": }', "[1,2", "nul", "'single'", '{"a":1}{"b":2}', ""),
    type: fc.constant("application/json"),
  }),
  fc.record({
    raw: fc.json(),
    type: fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "application/xml", "multipart/form-data"),
  }),
  fc.record({
    raw: fc
      .jsonValue()
      .filter((v) => v === null || typeof v !== "object" || Array.isArray(v))
      .map((v) => JSON.stringify(v)),
    type: fc.constant("application/json"),
  }),
);

/** Query strings with the operation's parameter names, as scalars, arrays, repeated keys, and garbage. */
export function queryFor(op: Operation) {
  const names = Object.keys(op.query?.shape ?? {});
  const name = names.length
    ? fc.oneof(
        fc.constantFrom(...names),
        fc.constantFrom(...names).map((n) => `${n}[]`),
        fc.string({ maxLength: 8 }),
      )
    : fc.string({ maxLength: 8 });
  const entry = fc.tuple(name, fc.oneof(text, number.map(String)));
  return fc.array(entry, { maxLength: 6 }).map((entries) => {
    const params = new URLSearchParams();
    for (const [key, v] of entries) params.append(key, v);
    return params.toString();
  });
}

export const pathParam = fc.oneof(
  nasty,
  fc.string({ maxLength: 60 }),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.integer().map(String),
);
