// A moment as a person reads it: in their time zone (their profile's), and saying which, so that "04:41" for the
// Owner in London and "23:41" for an Admin in New York are seen to be the same moment (decisions.md: times shown to
// a person name their zone). Server and client components alike render it.

/** "21 Nov 2026, 14:02 GMT" (seconds: "14:02:11 GMT"): day, month, year, 24-hour time, the zone's short name. */
export function formatTime(date: Date | string, timezone: string, seconds = false): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    ...(seconds ? { second: "2-digit" } : {}),
    hourCycle: "h23",
    timeZone: timezone,
    timeZoneName: "short",
  }).format(typeof date === "string" ? new Date(date) : date);
}

/** The <time> element of formatTime; its title names the zone in full (America/New_York). */
export function Time({ value, timezone, seconds }: { value: Date | string; timezone: string; seconds?: boolean }) {
  const date = typeof value === "string" ? new Date(value) : value;
  return (
    <time dateTime={date.toISOString()} title={timezone}>
      {formatTime(date, timezone, seconds)}
    </time>
  );
}
