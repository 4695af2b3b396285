// Property-based sweep: generated requests of every kind of wrong (types, sizes, unicode and control characters,
// malformed uuids, repeated and array-shaped query keys, malformed JSON, wrong content types, real and forged
// cursors, Idempotency-Key headers) against every operation of the OpenAPI document. None may be a 5xx; every answer matches the document (checked in call());
// a rejected write changes nothing. SWEEP_REQUESTS sets the total over all operations (default 10,000). The reads
// and the writes run as two test files, so that the two halves run side by side.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { call, type RouteModule, tableCounts, tenantByName, tokenFor } from "../support/api";
import { type Operation, operations, pathOf, recordParams, routeModule } from "../support/routes";
import { bodyFor, pathParam, queryFor, type RawBody, rawBody } from "./generators";

const TOTAL = Number(process.env.SWEEP_REQUESTS ?? 10_000);
const perOperation = Math.max(20, Math.ceil(TOTAL / operations.length));

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
