// Date range values (decisions.md, "Ranges") on a fixed clock.
import { describe, expect, it } from "vitest";
import { type DateRangeSpec, dateFilter, parseDateRange, resolveDateRange } from "@/lib/core/date-ranges";
import { humanDate, isCalendarDate, todayIn } from "@/lib/core/dates";

const resolve = (value: string, timeZone: string, now: string) =>
  resolveDateRange(parseDateRange(value) as DateRangeSpec, timeZone, new Date(now));

describe("explicit ranges", () => {
  it.each([
    ["2026-01-01,2026-12-31", { from: "2026-01-01", to: "2026-12-31" }],
    ["2026-01-01,", { from: "2026-01-01", to: undefined }],
    [",2026-12-31", { from: undefined, to: "2026-12-31" }],
    [" 2026-03-01 , 2026-03-01 ", { from: "2026-03-01", to: "2026-03-01" }],
    ["2024-02-29,2024-03-01", { from: "2024-02-29", to: "2024-03-01" }],
  ])("%s", (value, range) => {
    expect(parseDateRange(value)).toEqual(range);
  });

  it.each([
    "",
    "2026-01-01",
    "2026-12-31,2026-01-01",
    "2026-02-30,",
    "2025-02-29,",
    "2026-1-1,2026-2-1",
    "2026-01-01,2026-02-01,2026-03-01",
    "tomorrow",
    "This_Week",
    "2026-01-01T00:00:00Z,",
    "'; DROP TABLE jobs; --",
  ])("refuses %j", (value) => {
    expect(parseDateRange(value)).toBeNull();
  });
});

describe("named ranges", () => {
  // Wednesday 18 November 2026, 12:00 UTC.
  const now = "2026-11-18T12:00:00Z";

  it.each([
    ["today", "2026-11-18", "2026-11-18"],
    ["yesterday", "2026-11-17", "2026-11-17"],
    ["this_week", "2026-11-16", "2026-11-22"],
    ["last_week", "2026-11-09", "2026-11-15"],
    ["this_month", "2026-11-01", "2026-11-30"],
    ["last_month", "2026-10-01", "2026-10-31"],
    ["this_quarter", "2026-10-01", "2026-12-31"],
    ["last_quarter", "2026-07-01", "2026-09-30"],
    ["this_year", "2026-01-01", "2026-12-31"],
    ["last_year", "2025-01-01", "2025-12-31"],
  ])("%s on Wednesday 2026-11-18 is %s..%s", (name, from, to) => {
    expect(resolve(name, "UTC", now)).toEqual({ from, to });
  });

  it("weeks start on Monday: on a Monday this_week starts that day", () => {
    expect(resolve("this_week", "UTC", "2026-11-16T00:00:00Z")).toEqual({ from: "2026-11-16", to: "2026-11-22" });
  });

  it("weeks start on Monday: on a Sunday this_week is the six days before and that Sunday", () => {
    expect(resolve("this_week", "UTC", "2026-11-22T23:59:59Z")).toEqual({ from: "2026-11-16", to: "2026-11-22" });
    expect(resolve("last_week", "UTC", "2026-11-22T23:59:59Z")).toEqual({ from: "2026-11-09", to: "2026-11-15" });
  });

  it("a week across a year end", () => {
    expect(resolve("this_week", "UTC", "2027-01-01T10:00:00Z")).toEqual({ from: "2026-12-28", to: "2027-01-03" });
    expect(resolve("last_week", "UTC", "2027-01-01T10:00:00Z")).toEqual({ from: "2026-12-21", to: "2026-12-27" });
  });

  it("quarter boundaries: the first day of a quarter, and last quarter in January is the year before's", () => {
    expect(resolve("this_quarter", "UTC", "2026-04-01T00:00:00Z")).toEqual({ from: "2026-04-01", to: "2026-06-30" });
    expect(resolve("last_quarter", "UTC", "2026-04-01T00:00:00Z")).toEqual({ from: "2026-01-01", to: "2026-03-31" });
    expect(resolve("this_quarter", "UTC", "2026-03-31T23:59:59Z")).toEqual({ from: "2026-01-01", to: "2026-03-31" });
    expect(resolve("last_quarter", "UTC", "2026-01-15T00:00:00Z")).toEqual({ from: "2025-10-01", to: "2025-12-31" });
  });

  it("last_month in January is December of the year before; February has its leap day", () => {
    expect(resolve("last_month", "UTC", "2026-01-10T00:00:00Z")).toEqual({ from: "2025-12-01", to: "2025-12-31" });
    expect(resolve("this_month", "UTC", "2028-02-10T00:00:00Z")).toEqual({ from: "2028-02-01", to: "2028-02-29" });
    expect(resolve("last_month", "UTC", "2026-03-31T00:00:00Z")).toEqual({ from: "2026-02-01", to: "2026-02-28" });
  });

  it("is evaluated in the caller's time zone, where the date can differ from UTC", () => {
    // 23:30 UTC on Sunday 22 November is already Monday 23 November in Tokyo, and still Sunday in New York.
    const lateSunday = "2026-11-22T23:30:00Z";
    expect(resolve("today", "Asia/Tokyo", lateSunday)).toEqual({ from: "2026-11-23", to: "2026-11-23" });
    expect(resolve("this_week", "Asia/Tokyo", lateSunday)).toEqual({ from: "2026-11-23", to: "2026-11-29" });
    expect(resolve("this_week", "America/New_York", lateSunday)).toEqual({ from: "2026-11-16", to: "2026-11-22" });
    // 02:00 UTC on 1 January is still New Year's Eve in New York: this_year is the old year there.
    expect(resolve("this_year", "America/New_York", "2027-01-01T02:00:00Z")).toEqual({
      from: "2026-01-01",
      to: "2026-12-31",
    });
    expect(resolve("this_year", "Europe/London", "2027-01-01T02:00:00Z")).toEqual({
      from: "2027-01-01",
      to: "2027-12-31",
    });
  });

  it("leaves explicit ranges as they are", () => {
    expect(resolveDateRange({ from: "2026-01-01" }, "Asia/Tokyo", new Date(now))).toEqual({ from: "2026-01-01" });
  });
});

describe("database filters", () => {
  it("is inclusive at both ends and open where an end is missing", () => {
    expect(dateFilter({ from: "2026-01-01", to: "2026-01-31" }, "UTC")).toEqual({
      gte: new Date("2026-01-01T00:00:00Z"),
      lte: new Date("2026-01-31T00:00:00Z"),
    });
    expect(dateFilter({ to: "2026-01-31" }, "UTC")).toEqual({ lte: new Date("2026-01-31T00:00:00Z") });
    expect(dateFilter({}, "UTC")).toBeUndefined();
  });

  it("resolves a named range in the time zone given", () => {
    expect(dateFilter({ name: "today" }, "Asia/Tokyo", new Date("2026-11-22T23:30:00Z"))).toEqual({
      gte: new Date("2026-11-23T00:00:00Z"),
      lte: new Date("2026-11-23T00:00:00Z"),
    });
  });
});

describe("calendar dates", () => {
  it.each(["2026-11-21", "2024-02-29", "0001-01-01"])("accepts %s", (day) => expect(isCalendarDate(day)).toBe(true));
  it.each(["2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "21-11-2026", "2026-11-21 ", "2026/11/21"])(
    "refuses %j",
    (day) => expect(isCalendarDate(day)).toBe(false),
  );

  it("knows today in a time zone", () => {
    expect(todayIn("Pacific/Auckland", new Date("2026-11-21T12:00:00Z"))).toBe("2026-11-22");
    expect(todayIn("America/Los_Angeles", new Date("2026-11-21T05:00:00Z"))).toBe("2026-11-20");
    expect(todayIn("Pacific/Auckland", new Date("2026-11-21T05:00:00Z"))).toBe("2026-11-21"); // each zone keeps its own formatter
  });

  it("writes dates for people", () => {
    expect(humanDate(new Date("2026-11-21T00:00:00Z"))).toBe("21 Nov 2026");
    expect(humanDate(new Date("2026-09-05T00:00:00Z"))).toBe("5 Sep 2026");
  });
});
