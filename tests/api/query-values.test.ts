// Query values as decisions.md's Wire format gives them: booleans are exactly `true` or `false`, and a value that is
// not UTF-8 once its %-escapes are decoded is a 422 naming its parameter, never silently turned into U+FFFD.
import { describe, expect, it } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import * as contacts from "@/app/api/v1/contacts/route";
import * as jobs from "@/app/api/v1/jobs/route";
import { call, tokenFor } from "../support/api";

const owner = () => tokenFor("owner@acme.test");

describe("query booleans", () => {
  it.each([
    ["clients?include_archived=1", "include_archived", clients],
    ["clients?include_archived=0", "include_archived", clients],
    ["clients?include_archived=TRUE", "include_archived", clients],
    ["jobs?include_completed=0", "include_completed", jobs],
    ["jobs?include_completed=1", "include_completed", jobs],
  ])("%s is a 422 naming %s", async (path, name, route) => {
    const res = await call(route, "GET", path, { token: await owner() });
    expect(res.status).toBe(422);
    expect(res.body.errors[name]).toEqual(["Must be true or false."]);
  });

  it("take exactly true and false", async () => {
    const token = await owner();
    const all = await call(clients, "GET", "clients?include_archived=true&limit=1000", { token });
    const unarchived = await call(clients, "GET", "clients?include_archived=false&limit=1000", { token });
    expect(all.status).toBe(200);
    expect(unarchived.status).toBe(200);
    expect(all.body.data.some((c: { is_archived: boolean }) => c.is_archived)).toBe(true);
    expect(unarchived.body.data.some((c: { is_archived: boolean }) => c.is_archived)).toBe(false);
  });
});

describe("query values that are not UTF-8", () => {
  it.each([
    ["clients?search=%C3%28", "search", clients],
    ["contacts?search=ab%FF", "search", contacts],
    ["jobs?search=%E2%82", "search", jobs],
    ["clients?tags[]=%C3%28", "tags", clients],
  ])("%s is a 422 naming %s", async (path, name, route) => {
    const res = await call(route, "GET", path, { token: await owner() });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([name]);
    expect(res.body.message).toContain(name);
  });

  it("decode as before otherwise: UTF-8 escapes, `+` as a space, a lone % kept, an unknown key ignored", async () => {
    const token = await owner();
    const escaped = await call(clients, "GET", "clients?search=%41cme+", { token });
    const plain = await call(clients, "GET", "clients?search=Acme%20", { token });
    expect(escaped.status).toBe(200);
    expect(escaped.body).toEqual(plain.body);
    expect((await call(clients, "GET", "clients?search=100%", { token })).status).toBe(200);
    expect((await call(clients, "GET", "clients?search=caf%C3%A9", { token })).status).toBe(200);
    expect((await call(clients, "GET", "clients?%FF=1", { token })).status).toBe(200);
  });
});
