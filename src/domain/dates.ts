// Dates as people read them, in the program's time zone (POOLPATROL_TIMEZONE): the one rule for the
// pages, the Case Manager's answers and the terminal, so a deadline reads as the same day everywhere.
// Slack's own date tokens render in each reader's Slack time zone (docs/web.md).

/** "Dec 4, 2026". */
export function dateInWords(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone, month: "short", day: "numeric", year: "numeric" }).format(date);
}

/** "Dec 4, 2026, 7:05 PM PST": the zone named, so a reader never has to guess it. */
export function dateTimeInWords(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(date);
}

/** "Dec 4, 7:05 PM" (the year only when it is not `now`'s). */
export function dayAndTimeInWords(date: Date, timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    month: "short",
    day: "numeric",
    ...(sameYear(date, now, timeZone) ? {} : { year: "numeric" }),
    hour: "numeric",
    minute: "2-digit",
  }).format(date);
}

/** "May 26" (with the year when it is not `now`'s). */
export function dayInWords(date: Date, timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    month: "short",
    day: "numeric",
    ...(sameYear(date, now, timeZone) ? {} : { year: "numeric" }),
  }).format(date);
}

function sameYear(a: Date, b: Date, timeZone: string): boolean {
  const year = (d: Date) => new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric" }).format(d);
  return year(a) === year(b);
}
