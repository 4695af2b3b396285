// Input the fuzzer found costly or mis-answered (decisions.md, Security and Wire format): counts inside a body are
// bounded and so are error bodies; dates outside the years 0001-9999 and numbers beyond double range are 422s.
import { describe, expect, it } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import * as jobs from "@/app/api/v1/jobs/route";
import * as timeLogs from "@/app/api/v1/time-logs/route";
import { call, tableCounts, tokenFor } from "../support/api";

const owner = () => tokenFor("owner@acme.test");

describe("counts inside a body", () => {
  it("refuses more than 100 custom field keys with one short error, writing nothing", async () => {
    const before = await tableCounts();
    const custom_fields = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`f${i}`, i]));
    const res = await call(clients, "POST", "clients", { token: await owner(), body: { name: "Many", custom_fields } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["custom_fields"]);
    expect(JSON.stringify(res.body).length).toBeLessThan(1000);
    expect(await tableCounts()).toEqual(before);
  });

  it("accepts 100 keys as far as the count goes (then names each unknown field)", async () => {
    const custom_fields = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, i]));
    const res = await call(clients, "POST", "clients", { token: await owner(), body: { name: "Many", custom_fields } });
    expect(res.status).toBe(422);
    expect(res.body.errors["custom_fields.f0"]).toBeDefined();
  });

  it("lists at most 50 fields in an error body, and says how many there were", async () => {
    const custom_fields = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`f${i}`, i]));
    const res = await call(clients, "POST", "clients", { token: await owner(), body: { name: "Many", custom_fields } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toHaveLength(50);
    expect(res.body.message).toContain("and 79 more fields");
  });
});

describe("numbers and dates at the edges", () => {
  it("says a number beyond double range is too large", async () => {
    const res = await call(jobs, "POST", "jobs", {
      token: await owner(),
      rawBody: '{"name": "x", "estimated_hours": 1e999}',
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.estimated_hours[0]).toMatch(/too large/);
  });

  it.each(["start_date", "due_date", "internal_due_date", "extended_due_date"])(
    "refuses year 0000 in %s and accepts 0001 and 9999",
    async (field) => {
      const token = await owner();
      const before = await tableCounts();
      const zero = await call(jobs, "POST", "jobs", { token, body: { name: "x", [field]: "0000-01-01" } });
      expect(zero.status).toBe(422);
      expect(Object.keys(zero.body.errors)).toEqual([field]);
      expect(await tableCounts()).toEqual(before);
      for (const day of ["0001-01-01", "9999-12-31"]) {
        const ok = await call(jobs, "POST", "jobs", { token, body: { name: "x", [field]: day } });
        expect(ok.status).toBe(201);
        expect(ok.body[field]).toBe(day);
      }
    },
  );

  it.each([
    [jobs, "jobs?due_date_range=0000-01-01,", "due_date_range"],
    [jobs, "jobs?start_date_range=,0000-12-31", "start_date_range"],
    [timeLogs, "time-logs?range=,0000-01-01", "range"],
    [clients, "clients?updated_since=0000-01-01T00:00:00Z", "updated_since"],
    [jobs, "jobs?updated_since=0001-01-01T00:00:00%2B01:00", "updated_since"],
    [timeLogs, "time-logs?updated_since=2026-02-30T00:00:00Z", "updated_since"],
  ] as const)("is 422 for year 0000 in %#: %s", async (route, path, field) => {
    const res = await call(route, "GET", path, { token: await owner() });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it("reads a range reaching year 9999", async () => {
    const res = await call(timeLogs, "GET", "time-logs?range=0001-01-01,9999-12-31&per_page=1", {
      token: await owner(),
    });
    expect(res.status).toBe(200);
  });
});

describe("nesting depth", () => {
  const nested = (levels: number) =>
    `{"name": "Deep", "custom_fields": ${'{"a":'.repeat(levels - 1)}1${"}".repeat(levels - 1)}}`;

  it.each<Record<string, string>>([{}, { "Idempotency-Key": "deep-body" }])(
    "answers a body nesting 5,000 levels with a 422 before reading it (headers %o)",
    async (headers) => {
      const before = await tableCounts();
      const res = await call(clients, "POST", "clients", {
        token: await owner(),
        rawBody: nested(5000),
        headers: { "Content-Type": "application/json", ...headers },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors.body[0]).toMatch(/32 levels/);
      expect(await tableCounts()).toEqual(before);
    },
  );

  it("takes 32 levels, brackets inside strings not counted", async () => {
    const res = await call(clients, "POST", "clients", {
      token: await owner(),
      rawBody: `{"name": "[[[[{{{{", "custom_fields": {"x": ${"[".repeat(30)}${"]".repeat(30)}}}`,
      headers: { "Content-Type": "application/json", "Idempotency-Key": "thirty-two" },
    });
    // 32 levels: the body, custom_fields, then 30 arrays; refused only for naming no such custom field.
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["custom_fields.x"]);
  });
});

describe("custom field names that are object internals", () => {
  it.each(["__proto__", "constructor", "prototype"])(
    "refuses custom_fields.%s with a 422 naming the key, writing nothing",
    async (key) => {
      const before = await tableCounts();
      const res = await call(clients, "POST", "clients", {
        token: await owner(),
        rawBody: `{"name": "Proto", "custom_fields": {"${key}": {"polluted": true}}}`,
        headers: { "Content-Type": "application/json" },
      });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([`custom_fields.${key}`]);
      expect(await tableCounts()).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );
});
