// Property-based sweep: generated requests of every kind of wrong (types, sizes, unicode and control characters,
// malformed uuids, repeated and array-shaped query keys, malformed JSON, wrong content types, real and forged
// cursors, Idempotency-Key headers) against every operation of the OpenAPI document. None may be a 5xx; every answer matches the document (checked in call());
// a rejected write changes nothing. SWEEP_REQUESTS sets the total over all operations (default 10,000). The reads
// and the writes run as two test files, so that the two halves run side by side.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { call, type RouteModule, tableCounts, tenantByName, tokenFor } from "../support/api";
import { type Operation, operations, pathOf, recordParams, routeModule } from "../support/routes";

const TOTAL = Number(process.env.SWEEP_REQUESTS ?? 10_000);
const perOperation = Math.max(20, Math.ceil(TOTAL / operations.length));

const nasty = fc.constantFrom(
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
const text = fc.oneof(nasty, fc.string({ maxLength: 300 }), fc.string({ unit: "binary", maxLength: 100 }));
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308, 1001, 30_001),
);
const leaf = fc.oneof(text, number, fc.boolean(), fc.constant(null));
const value = fc.oneof(
  leaf,
  fc.array(leaf, { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 10 }), leaf, { maxKeys: 4 }),
);

/** An object with the operation's own field names (and some others) holding wrong values. */
function bodyFor(op: Operation) {
  const fields = Object.keys((op.body as z.ZodObject | undefined)?.shape ?? {});
  const keys = fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 12 }));
  return fc.dictionary(keys, value, { maxKeys: fields.length + 2 });
}

type RawBody = { raw: string; type: string };
const rawBody: fc.Arbitrary<RawBody> = fc.oneof(
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
function queryFor(op: Operation) {
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

const pathParam = fc.oneof(
  nasty,
  fc.string({ maxLength: 60 }),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.integer().map(String),
);

async function expectSound(res: { status: number; body: { message?: unknown } }) {
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  if (res.status >= 400) expect(typeof res.body.message).toBe("string");
}

/** Declares the sweep's tests for the given operations. */
export function sweepBadInput(selected: Operation[]) {
  let token: string;
  let acmeId: number;
  beforeAll(async () => {
    token = await tokenFor("owner@acme.test");
    acmeId = (await tenantByName("Acme Accounting")).id;
  });
  describe.each(selected.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))("%s", (_, op) => {
    let route: RouteModule;
    let params: Record<string, string>;
    beforeAll(async () => {
      route = await routeModule(op.path);
      params = await recordParams(op, acmeId);
    });

    const method = op.method.toUpperCase();
    const runs = Math.ceil(perOperation / (op.body ? 3 : 2));

    /** Sends a request; if it was a rejected write, checks that nothing changed. */
    async function send(path: string, options: Parameters<typeof call>[3]) {
      const before = op.method === "get" ? undefined : await tableCounts();
      const target = op.method === "put" ? await call(route, "GET", pathOf(op, params), { token, params }) : undefined;
      const res = await call(route, method, path, { token, ...options });
      await expectSound(res);
      if (before && res.status >= 400) {
        expect(await tableCounts()).toEqual(before);
        if (target) expect((await call(route, "GET", pathOf(op, params), { token, params })).body).toEqual(target.body);
      }
      return res;
    }

    it("survives generated query strings", async () => {
      await fc.assert(
        fc.asyncProperty(queryFor(op), async (query) => {
          await send(`${pathOf(op, params)}?${query}`, { params, ...(op.body ? { body: {} } : {}) });
        }),
        { numRuns: runs },
      );
    });

    it.runIf(op.query?.shape && "cursor" in op.query.shape)(
      "survives a real cursor of the list with generated query strings",
      async () => {
        const first = await call(route, "GET", `${pathOf(op, params)}?per_page=1&cursor=`, { token, params });
        const cursor: string = first.body.meta.next_cursor;
        await fc.assert(
          fc.asyncProperty(queryFor(op), async (query) => {
            await send(`${pathOf(op, params)}?${query}&cursor=${encodeURIComponent(cursor)}`, { params });
          }),
          { numRuns: runs },
        );
      },
    );

    it.runIf(op.body !== undefined)(
      "answers a request repeated with one Idempotency-Key the same, whatever the key and body",
      async () => {
        let round = 0;
        const key = fc.oneof(
          fc.constantFrom("", " ", "k".repeat(256), "x".repeat(1000)),
          // Printable ASCII (what a header can carry), made unique per round so that rounds do not share a key.
          fc
            .string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 })
            .map((k) => `${++round}.${k}`),
        );
        await fc.assert(
          fc.asyncProperty(key, bodyFor(op), async (idempotencyKey, body) => {
            const options = { params, body, headers: { "Idempotency-Key": idempotencyKey } };
            const first = await send(pathOf(op, params), options);
            const again = await send(pathOf(op, params), options);
            expect(again.status).toBe(first.status);
            expect(again.body).toEqual(first.body);
          }),
          { numRuns: Math.ceil(runs / 2) },
        );
      },
    );

    it.runIf(Object.keys(op.params ?? {}).length > 0)("survives malformed path parameters", async () => {
      await fc.assert(
        fc.asyncProperty(pathParam, async (raw) => {
          const bad = Object.fromEntries(Object.keys(params).map((name) => [name, raw]));
          await send(pathOf(op, bad), { params: bad, ...(op.body ? { body: {} } : {}) });
        }),
        { numRuns: runs },
      );
    });

    it.runIf(op.body !== undefined)("survives generated bodies, malformed JSON and wrong content types", async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(bodyFor(op), rawBody), async (body) => {
          const options =
            "raw" in body && "type" in body
              ? { rawBody: (body as RawBody).raw, headers: { "Content-Type": (body as RawBody).type } }
              : { body };
          await send(pathOf(op, params), { params, ...options });
        }),
        { numRuns: runs },
      );
    });
  });
}
