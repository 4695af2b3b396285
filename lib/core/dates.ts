// Calendar dates on the wire (`YYYY-MM-DD`) and in the database (`@db.Date`, read back as UTC midnight).
import { z } from "zod";

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** True for `YYYY-MM-DD` naming a day that exists (no 2026-02-30) in the years 0001–9999 (no year 0000). */
export function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match || +match[1] < 1) return false;
  const date = new Date(0);
  date.setUTCFullYear(+match[1], +match[2] - 1, +match[3]); // unlike Date.UTC, keeps years 0-99 as they are
  return date.getUTCFullYear() === +match[1] && date.getUTCMonth() === +match[2] - 1 && date.getUTCDate() === +match[3];
}

/** A `YYYY-MM-DD` field of a body or query: the one input date validator. */
export const calendarDate = () =>
  z
    .string()
    .refine(isCalendarDate, "Must be a real date written as YYYY-MM-DD, in the years 0001 to 9999.")
    .meta({ format: "date" })
    .describe("Date, YYYY-MM-DD");

/** A date in an answer: the one output date schema. */
export const dateOutput = () => z.iso.date().describe("YYYY-MM-DD");

/** `updated_at` in an answer: ISO 8601 UTC with milliseconds. */
export const updatedAtOutput = () =>
  z.iso.datetime().describe("When the record or one of its nested parts last changed (ISO 8601, UTC)");

/** The database value of a calendar date. */
export const toDbDate = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** The `YYYY-MM-DD` of a database date. */
export const fromDbDate = (date: Date) => date.toISOString().slice(0, 10);

export const fromDbDateOrNull = (date: Date | null) => (date ? fromDbDate(date) : null);

/** The day `days` after (or before) a calendar date. */
export const addDays = (day: string, days: number) => fromDbDate(new Date(toDbDate(day).getTime() + days * DAY_MS));

// One formatter per time zone: building one costs far more than using it. Only valid IANA names get here (an
// unknown one throws), so the map stays small.
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date at `now` in an IANA time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // en-CA formats dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, format);
  }
  return format.format(now);
}

/** A date as people read it, e.g. `21 Nov 2026` (fixed month names: ICU's short names vary by version). */
export function humanDate(date: Date): string {
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}
