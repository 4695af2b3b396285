// The audit page's words for sign-ins, resets and new tokens (decisions.md: lines about a sign-in name the account
// tried), and its filter read in the zone its entries are shown in (the person's own).
import { describe, expect, it } from "vitest";
import { formatTime } from "@/components/time";
import { type AuditEventOutput, describeAuditEvent } from "@/lib/audit/serialize";
import { instantOf, parseAuditFilters, wallMinute } from "@/lib/audit/settings";
import { tokenCreated } from "@/lib/tokens/audit";

const bea = { type: "user" as const, id: 7, name: "Bea Birch", email: "bea@birch.test" };
const entry = (fields: Partial<AuditEventOutput>): AuditEventOutput => ({
  id: 1,
  action: "sign_in.failed",
  actor: bea,
  via: "web",
  token: null,
  target: { type: "user", id: 7, name: "bea@birch.test" },
  changes: {},
  address: null,
  created_at: "2026-11-21T14:02:11.210Z",
  ...fields,
});

describe("sentences about an account", () => {
  it("name the account tried, not a person who acted", () => {
    expect(describeAuditEvent(entry({}))).toBe("A sign-in as Bea Birch (bea@birch.test) failed: wrong password");
    expect(describeAuditEvent(entry({ action: "sign_in.throttled" }))).toBe(
      "A sign-in as Bea Birch (bea@birch.test) was refused: too many failed sign-ins from its address",
    );
    const wait = { failed_attempts: [4, 5], wait_seconds: [2, 4] } as AuditEventOutput["changes"];
    expect(describeAuditEvent(entry({ action: "sign_in.throttled", changes: wait }))).toBe(
      "Sign-ins as Bea Birch (bea@birch.test) now wait 4 s before each try is checked: 5 wrong passwords for this " +
        "email within 15 minutes",
    );
    expect(describeAuditEvent(entry({ action: "password.reset_requested" }))).toMatch(
      /^A one-time link to set a new password was mailed to Bea Birch \(bea@birch\.test\), asked for on the sign-in page/,
    );
    expect(describeAuditEvent(entry({ action: "sign_in.succeeded" }))).toBe("Bea Birch (bea@birch.test) signed in");
  });

  it("say who made a reset link for whom, and that using it signed the person out everywhere", () => {
    const made = entry({
      action: "member.reset_link_created",
      actor: { type: "user", id: 1, name: "Adam Admin", email: "admin@acme.test" },
      target: { type: "user", id: 7, name: "Bea Birch" },
    });
    expect(describeAuditEvent(made)).toBe(
      "Adam Admin (admin@acme.test) made a one-time link for Bea Birch to set a new password",
    );
    expect(describeAuditEvent({ ...made, actor: { type: "cli" } })).toBe(
      "The command line made a one-time link for Bea Birch to set a new password",
    );
    expect(
      describeAuditEvent(entry({ action: "password.reset", target: { type: "user", id: 7, name: "Bea Birch" } })),
    ).toBe("Bea Birch (bea@birch.test) set a new password with a one-time link, which signed them out everywhere");
  });

  it("a new token names its person and its access in words, its access in a fixed order, with no user id", () => {
    const access = { webhooks: "none", audit: "read", users: "read", jobs: "write", clients: "write" } as const;
    const created = tokenCreated(
      {
        id: 3,
        name: "Invoicing",
        access: { contacts: "read", time_logs: "none", ...access },
        expiresAt: new Date("2027-01-01T00:00:00.000Z"),
      },
      { firstname: "Bea", lastname: "Birch", email: "bea@birch.test" },
    );
    expect(created.changes).toEqual({
      user: [null, "Bea Birch (bea@birch.test)"],
      access: [null, "Write: clients, jobs · Read: contacts, users, the audit log"],
      expires_at: [null, "2027-01-01T00:00:00.000Z"],
    });
    const noExpiry = tokenCreated(
      { id: 4, name: "x", access: { ...access, contacts: "read", time_logs: "none" }, expiresAt: null },
      { firstname: "Bea", lastname: "Birch", email: "bea@birch.test" },
    );
    expect(Object.keys(noExpiry.changes ?? {})).toEqual(["user", "access"]);
  });
});

describe("times and the audit filter", () => {
  const moment = new Date("2026-11-29T04:41:00.000Z");

  it("name their zone: the same moment reads differently in London and New York, each saying which", () => {
    expect(formatTime(moment, "Europe/London")).toBe("29 Nov 2026, 04:41 GMT");
    expect(formatTime(moment, "America/New_York")).toBe("28 Nov 2026, 23:41 GMT-5");
    expect(formatTime(new Date("2026-07-01T12:00:05Z"), "Europe/London", true)).toBe("1 Jul 2026, 13:00:05 BST");
  });

  it("read the filter's boxes in the person's zone, and show a filter's instant in it again", () => {
    expect(parseAuditFilters({ since: "2026-11-28T23:41" }, "America/New_York")).toEqual({
      filters: { since: moment },
    });
    expect(parseAuditFilters({ since: "2026-11-29T04:41" }, "Europe/London")).toEqual({ filters: { since: moment } });
    expect(parseAuditFilters({ until: "2026-07-01T13:00" }, "Europe/London")).toEqual({
      filters: { until: new Date("2026-07-01T12:00:00Z") },
    });
    // A link's own ISO time (with its zone) is read as it says, whoever follows it.
    expect(parseAuditFilters({ since: moment.toISOString() }, "Asia/Tokyo")).toEqual({ filters: { since: moment } });
    expect(wallMinute(moment, "America/New_York")).toBe("2026-11-28T23:41");
    expect(wallMinute(moment, "Asia/Kolkata")).toBe("2026-11-29T10:11");
    // Across a change of the clocks: the morning after New York's clocks went back.
    expect(instantOf("2026-11-01T09:30", "America/New_York").toISOString()).toBe("2026-11-01T14:30:00.000Z");
    expect(instantOf("2026-10-31T09:30", "America/New_York").toISOString()).toBe("2026-10-31T13:30:00.000Z");
    expect(parseAuditFilters({ since: "2026-13-01T00:00" }, "Europe/London")).toHaveProperty("errors.since");
  });
});
