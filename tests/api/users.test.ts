// GET /users, /users/{id} and /users/email/{email}: the tenant's users only, never another tenant's.
import { describe, expect, it } from "vitest";
import * as userById from "@/app/api/v1/users/[id]/route";
import * as userByEmailRoute from "@/app/api/v1/users/email/[email]/route";
import * as users from "@/app/api/v1/users/route";
import { call, tokenFor, userByEmail } from "../support/api";

const ACME_EMAILS = [
  "admin@acme.test",
  "archived@acme.test",
  "assigned@acme.test",
  "groups@acme.test",
  "owner@acme.test",
  "standard@acme.test",
  "viewer@acme.test",
];

const list = async (query = "", email = "owner@acme.test") =>
  call(users, "GET", `users${query}`, { token: await tokenFor(email) });
const byId = async (id: string, email = "owner@acme.test") =>
  call(userById, "GET", `users/${id}`, { token: await tokenFor(email), params: { id } });
const byEmail = async (address: string, email = "owner@acme.test") =>
  call(userByEmailRoute, "GET", `users/email/${encodeURIComponent(address.toWellFormed())}`, {
    token: await tokenFor(email),
    params: { email: address },
  });

describe("GET /users", () => {
  it("lists every user of the caller's tenant, archived ones included, and no one else's", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data"]);
    expect(res.body.data.map((u: any) => u.email).sort()).toEqual(ACME_EMAILS);
  });

  it("carries every field of the spec's user object", async () => {
    const admin = await userByEmail("admin@acme.test");
    const res = await list("?search=adam");
    expect(res.body.data).toEqual([
      {
        id: admin.id,
        fullname: "Adam Admin",
        firstname: "Adam",
        lastname: "Admin",
        email: "admin@acme.test",
        initials: "AA",
        avatar_url: expect.stringMatching(/^data:image\/svg\+xml,.*AA/),
        role: "Admin",
        timezone: "America/New_York",
        client_access: "all",
        is_contractor: false,
        is_owner: false,
        archived_date: null,
        updated_at: admin.updatedAt.toISOString(),
      },
    ]);
  });

  it("derives is_contractor from client access, and shows the owner and archived users as such", async () => {
    const byMail = Object.fromEntries((await list()).body.data.map((u: any) => [u.email, u]));
    expect(byMail["assigned@acme.test"]).toMatchObject({
      client_access: "assigned_clients",
      is_contractor: true,
      role: "Standard",
    });
    expect(byMail["groups@acme.test"]).toMatchObject({ client_access: "client_groups", is_contractor: false });
    expect(byMail["owner@acme.test"]).toMatchObject({ is_owner: true, role: "Owner" });
    expect(byMail["archived@acme.test"].archived_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it.each([
    ["a first name, in any case", "GINA", ["groups@acme.test"]],
    ["a last name", "viewer", ["viewer@acme.test"]],
    ["part of an email", "standard@", ["standard@acme.test"]],
    ["first and last name together", "olivia own", ["owner@acme.test"]],
    ["a name of another tenant", "birch", []],
    ["SQL-looking text", "' OR 1=1 --", []],
    ["LIKE wildcards, taken literally", "%", []],
    ["unicode", "Zoë 名前", []],
  ])("searches by %s", async (_, search, emails) => {
    const res = await list(`?search=${encodeURIComponent(search)}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((u: any) => u.email).sort()).toEqual(emails);
  });

  it("is the same list for every role (reading users needs no permission)", async () => {
    const res = await list("", "viewer@acme.test");
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(ACME_EMAILS.length);
  });

  it("shows another tenant only its own users", async () => {
    const res = await list("", "owner@birch.test");
    expect(res.body.data.map((u: any) => u.email).sort()).toEqual(["owner@birch.test", "standard@birch.test"]);
  });

  it.each([
    ["a repeated search", "?search=a&search=b"],
    ["a search over 200 characters", `?search=${"a".repeat(201)}`],
  ])("is 422 naming the parameter for %s", async (_, query) => {
    const res = await list(query);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["search"]);
  });

  it("is 401 without a token and 405 for writes", async () => {
    expect((await call(users, "GET", "users")).status).toBe(401);
    const post = await call(users, "POST", "users", {
      token: await tokenFor("owner@acme.test"),
      body: { firstname: "X" },
    });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, OPTIONS");
  });
});

describe("GET /users/{id}", () => {
  it("answers a user of the tenant", async () => {
    const groups = await userByEmail("groups@acme.test");
    const res = await byId(String(groups.id));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: groups.id,
      fullname: "Gina Groups",
      email: "groups@acme.test",
      client_access: "client_groups",
    });
  });

  it("is 403 for a user of another tenant", async () => {
    const bea = await userByEmail("owner@birch.test");
    const res = await byId(String(bea.id));
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain("birch");
  });

  it("is 404 for an id nobody has", async () => {
    const res = await byId("999999");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "User not found." });
  });

  it.each(["abc", "1.5", "-1", "0", "1e3", "01", "99999999999999999999", "1 OR 1=1"])(
    "is 404 for the non-id %j",
    async (id) => {
      const res = await byId(id);
      expect(res.status).toBe(404);
    },
  );
});

describe("GET /users/email/{email}", () => {
  it("finds a user of the tenant, ignoring case", async () => {
    const res = await byEmail("Admin@ACME.test");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: expect.objectContaining({ email: "admin@acme.test", fullname: "Adam Admin", role: "Admin" }),
    });
  });

  it("takes the email as the router decoded it, without decoding it a second time", async () => {
    // Next decodes the path segment once: `standard%2540acme.test` arrives as `standard%40acme.test`, which is not standard@.
    const res = await call(userByEmailRoute, "GET", "users/email/x", {
      token: await tokenFor("owner@acme.test"),
      params: { email: "standard%40acme.test" },
    });
    expect(res.body).toEqual({ data: null });
  });

  it.each([
    ["nobody has the email", "nobody@acme.test"],
    ["only another tenant has it", "owner@birch.test"],
    ["it is not an email", "' OR ''='"],
    ["it is a LIKE pattern", "%@acme.test"],
    ["it holds a NUL character", "admin\u0000@acme.test"],
    ["it holds an unpaired surrogate", "admin\ud800@acme.test"],
  ])("is 200 with data null when %s", async (_, address) => {
    const res = await byEmail(address);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: null });
  });
});
