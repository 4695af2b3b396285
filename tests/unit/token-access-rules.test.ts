// The rules of a token's access (lib/tokens/access.ts), without a database: what each level allows, the words of
// each refusal, which levels a resource can have, what a stored or submitted access may hold, and the presets.
// Part of the mutation run (docs/testing.md, Mutation testing): each rule here has a test that fails without it.
import { describe, expect, it } from "vitest";
import {
  ACCESS_LEVELS,
  accessRefusal,
  accessSummary,
  accessWithin,
  eventsRefusal,
  FULL_ACCESS,
  intersectAccess,
  levelsOf,
  NO_ACCESS,
  parseAccessList,
  presetOf,
  READ_ONLY,
  readsNested,
  resourceLabel,
  roleCeiling,
  TOKEN_PRESETS,
  TOKEN_RESOURCES,
  type TokenAccess,
  tokenAccessSchema,
} from "@/lib/tokens/access";

const WRITABLE = ["clients", "contacts", "jobs", "webhooks"];

describe("the resources and their levels", () => {
  it("lists every resource of the API, and the three levels in rank order", () => {
    expect(TOKEN_RESOURCES).toEqual(["clients", "contacts", "jobs", "users", "time_logs", "webhooks", "audit"]);
    expect(ACCESS_LEVELS).toEqual(["none", "read", "write"]);
  });

  it.each(TOKEN_RESOURCES.map((r) => [r]))("gives %s write only where the API writes", (resource) => {
    expect(levelsOf(resource)).toEqual(WRITABLE.includes(resource) ? ["none", "read", "write"] : ["none", "read"]);
  });

  it("makes the presets from those levels", () => {
    expect(FULL_ACCESS).toEqual({
      clients: "write",
      contacts: "write",
      jobs: "write",
      users: "read",
      time_logs: "read",
      webhooks: "write",
      audit: "read",
    });
    expect(READ_ONLY).toEqual(Object.fromEntries(TOKEN_RESOURCES.map((r) => [r, "read"])));
    expect(NO_ACCESS).toEqual(Object.fromEntries(TOKEN_RESOURCES.map((r) => [r, "none"])));
    expect(TOKEN_PRESETS).toEqual({ full: FULL_ACCESS, read: READ_ONLY });
  });
});

describe("presetOf", () => {
  it("names an access equal to a preset, and any other custom", () => {
    expect(presetOf({ ...FULL_ACCESS })).toBe("full");
    expect(presetOf({ ...READ_ONLY })).toBe("read");
    expect(presetOf(NO_ACCESS)).toBe("custom");
  });

  // One resource off a preset is enough to make it custom: every resource is compared, not some.
  it.each(TOKEN_RESOURCES.map((r) => [r]))("calls a preset with only %s changed custom", (resource) => {
    expect(presetOf({ ...FULL_ACCESS, [resource]: "none" })).toBe("custom");
    expect(presetOf({ ...READ_ONLY, [resource]: "none" })).toBe("custom");
  });
});

describe("resourceLabel and accessSummary", () => {
  it("says each resource as a person reads it", () => {
    expect(TOKEN_RESOURCES.map(resourceLabel)).toEqual([
      "clients",
      "contacts",
      "jobs",
      "users",
      "time logs",
      "webhooks",
      "the audit log",
    ]);
  });

  it("lists a custom access by level, write first", () => {
    expect(accessSummary({ ...NO_ACCESS, webhooks: "write", audit: "read", time_logs: "read" })).toBe(
      "Write: webhooks · Read: time logs, the audit log",
    );
    expect(accessSummary({ ...NO_ACCESS, jobs: "write", contacts: "write" })).toBe("Write: contacts, jobs");
    expect(accessSummary({ ...NO_ACCESS, users: "read" })).toBe("Read: users");
    expect(accessSummary(FULL_ACCESS)).toBe("Full access");
    expect(accessSummary(READ_ONLY)).toBe("Read-only");
    expect(accessSummary(NO_ACCESS)).toBe("No access");
  });
});

describe("accessRefusal: what a token may do with a resource", () => {
  const levels = ["none", "read", "write"] as const;
  // Every pair of level held and level needed: allowed exactly when the held level ranks at least as high.
  it.each(levels.flatMap((held) => (["read", "write"] as const).map((needed) => [held, needed] as const)))(
    "with %s, a %s is %s",
    (held, needed) => {
      const access: TokenAccess = { ...NO_ACCESS, clients: "write", jobs: held };
      const allowed = levels.indexOf(held) >= levels.indexOf(needed);
      const refusal = accessRefusal(access, "jobs", needed);
      if (allowed) expect(refusal).toBeNull();
      else
        expect(refusal).toBe(held === "none" ? "This token has no access to jobs." : "This token can only read jobs.");
    },
  );

  it("says a read-only token is read-only, and names the resource a custom token may only read", () => {
    expect(accessRefusal(READ_ONLY, "time_logs", "write")).toBe("This token is read-only.");
    expect(accessRefusal({ ...READ_ONLY, jobs: "write" }, "time_logs", "write")).toBe(
      "This token can only read time logs.",
    );
    expect(accessRefusal({ ...FULL_ACCESS, audit: "none" }, "audit", "read")).toBe(
      "This token has no access to the audit log.",
    );
  });
});

describe("readsNested: whether nested records of a resource are written whole", () => {
  it.each([
    ["none", false],
    ["read", true],
    ["write", true],
  ] as const)("with %s: %s", (level, whole) => {
    expect(readsNested({ ...FULL_ACCESS, contacts: level }, "contacts")).toBe(whole);
  });
});

describe("eventsRefusal: a webhook's events need read access to what they carry", () => {
  it.each([
    ["job.updated", "jobs"],
    ["client.created", "clients"],
    ["contact.updated", "contacts"],
  ])("refuses %s without read on %s", (event, resource) => {
    const access = { ...FULL_ACCESS, [resource]: "none" } as TokenAccess;
    expect(eventsRefusal(access, ["invoice.paid", event])).toBe(
      `This token has no access to ${resource}, so it cannot subscribe to ${event}.`,
    );
    expect(eventsRefusal({ ...access, [resource]: "read" }, [event])).toBeNull();
  });

  it("names the first event refused, and allows events of no resource and an empty list", () => {
    const access = { ...FULL_ACCESS, jobs: "none", clients: "none" } as TokenAccess;
    expect(eventsRefusal(access, ["client.updated", "job.created"])).toMatch(/client\.updated\.$/);
    expect(eventsRefusal(access, ["contact.created", "job.created"])).toMatch(
      /to jobs, so it cannot subscribe to job\.created\.$/,
    );
    expect(eventsRefusal(NO_ACCESS, ["invoice.paid"])).toBeNull();
    expect(eventsRefusal({ ...FULL_ACCESS, webhooks: "none" }, ["webhook.test"])).toMatch(/no access to webhooks/);
    expect(eventsRefusal(NO_ACCESS, [])).toBeNull();
  });
});

describe("tokenAccessSchema: a stored or submitted access", () => {
  it("takes every resource with a level it can have", () => {
    expect(tokenAccessSchema.parse(FULL_ACCESS)).toEqual(FULL_ACCESS);
    expect(tokenAccessSchema.parse(NO_ACCESS)).toEqual(NO_ACCESS);
  });

  it("refuses unknown keys, a missing resource, and a level a resource cannot have", () => {
    expect(tokenAccessSchema.safeParse({ ...FULL_ACCESS, invoices: "read" }).success).toBe(false);
    expect(tokenAccessSchema.safeParse({ ...FULL_ACCESS, admin: "none" }).success).toBe(false);
    const withoutAudit = Object.fromEntries(Object.entries(FULL_ACCESS).filter(([resource]) => resource !== "audit"));
    expect(tokenAccessSchema.safeParse(withoutAudit).success).toBe(false);
    expect(tokenAccessSchema.safeParse({ ...FULL_ACCESS, users: "write" }).success).toBe(false);
    expect(tokenAccessSchema.safeParse({ ...FULL_ACCESS, jobs: "admin" }).success).toBe(false);
  });
});

describe("parseAccessList (token:create --access)", () => {
  it("names every resource when an item is not resource:level", () => {
    expect(() => parseAccessList("invoices:read")).toThrow(
      '"invoices:read" is not resource:level; resources are clients, contacts, jobs, users, time_logs, webhooks, audit.',
    );
  });

  it("names the levels a resource can have", () => {
    expect(() => parseAccessList("users:write")).toThrow('users may be none, read, not "write".');
    expect(() => parseAccessList("jobs:")).toThrow('jobs may be none, read, write, not "".');
    expect(() => parseAccessList("jobs")).toThrow('jobs may be none, read, write, not "".');
  });

  it("trims items, and a later item for a resource wins", () => {
    expect(parseAccessList("  audit:read ,jobs:read,jobs:write")).toEqual({
      ...NO_ACCESS,
      audit: "read",
      jobs: "write",
    });
  });
});

describe("an app's access (OAuth): a grant within a cap, within a role", () => {
  it("is, per resource, the lower of the grant's and the cap's levels", () => {
    const grant: TokenAccess = { ...NO_ACCESS, clients: "write", contacts: "read", jobs: "write", audit: "read" };
    const cap: TokenAccess = { ...NO_ACCESS, clients: "read", contacts: "write", jobs: "write", webhooks: "write" };
    expect(intersectAccess(grant, cap)).toEqual({ ...NO_ACCESS, clients: "read", contacts: "read", jobs: "write" });
    expect(intersectAccess(cap, grant)).toEqual(intersectAccess(grant, cap));
    expect(intersectAccess(FULL_ACCESS, READ_ONLY)).toEqual(READ_ONLY);
    expect(intersectAccess(FULL_ACCESS, FULL_ACCESS)).toEqual(FULL_ACCESS);
  });

  it("is within another when no resource's level is higher, equal levels included", () => {
    expect(accessWithin(READ_ONLY, FULL_ACCESS)).toBe(true);
    expect(accessWithin(FULL_ACCESS, FULL_ACCESS)).toBe(true);
    expect(accessWithin(NO_ACCESS, NO_ACCESS)).toBe(true);
    expect(accessWithin(FULL_ACCESS, READ_ONLY)).toBe(false);
    // One resource higher is enough to be outside, wherever it is in the list.
    expect(accessWithin({ ...NO_ACCESS, audit: "read" }, { ...FULL_ACCESS, audit: "none" })).toBe(false);
    expect(accessWithin({ ...NO_ACCESS, clients: "write" }, { ...FULL_ACCESS, clients: "read" })).toBe(false);
  });

  it("is at most the role's ceiling: write where it may create or update, webhooks and the audit log by permission", () => {
    expect(roleCeiling(new Set())).toEqual({
      clients: "read",
      contacts: "read",
      jobs: "read",
      users: "read",
      time_logs: "read",
      webhooks: "none",
      audit: "none",
    });
    expect(roleCeiling(new Set(["clients.create", "contacts.update", "webhooks.manage", "audit.read"]))).toEqual({
      clients: "write",
      contacts: "write",
      jobs: "read",
      users: "read",
      time_logs: "read",
      webhooks: "write",
      audit: "read",
    });
    expect(roleCeiling(new Set(["jobs.update"])).jobs).toBe("write");
    expect(roleCeiling(new Set(["jobs.create"])).jobs).toBe("write");
  });
});
