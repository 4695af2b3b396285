// What the page lists and the CLI's --access reads (lib/tokens/access.ts).
import { describe, expect, it } from "vitest";
import { accessSummary, FULL_ACCESS, NO_ACCESS, parseAccessList, READ_ONLY } from "@/lib/tokens/access";

describe("accessSummary", () => {
  it("names the presets and lists a custom access by level", () => {
    expect(accessSummary(FULL_ACCESS)).toBe("Full access");
    expect(accessSummary(READ_ONLY)).toBe("Read-only");
    expect(accessSummary({ ...NO_ACCESS, clients: "read", time_logs: "read" })).toBe("Read: clients, time logs");
    expect(accessSummary({ ...NO_ACCESS, clients: "read", jobs: "write" })).toBe("Write: jobs · Read: clients");
    expect(accessSummary(NO_ACCESS)).toBe("No access");
  });
});

describe("parseAccessList (token:create --access)", () => {
  it("gives the named resources their level and the rest none", () => {
    expect(parseAccessList("clients:read,time_logs:read")).toEqual({
      ...NO_ACCESS,
      clients: "read",
      time_logs: "read",
    });
    expect(parseAccessList(" jobs:write , webhooks:none")).toEqual({ ...NO_ACCESS, jobs: "write" });
  });

  it.each([
    ["time-logs:read", /not resource:level/],
    ["invoices:read", /not resource:level/],
    ["clients", /clients may be none, read, write, not ""/],
    ["clients:admin", /clients may be none, read, write/],
    ["time_logs:write", /time_logs may be none, read, not "write"/],
    ["clients:read:x", /not resource:level/],
    ["", /not resource:level/],
  ])("refuses %j", (text, message) => {
    expect(() => parseAccessList(text)).toThrow(message);
  });
});
