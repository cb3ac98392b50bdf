// Weekly schedules: parsing, circular clock arithmetic, overlap, and the dates of
// an audit week. Pure functions, no I/O.

export const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface ScheduleEntry {
  day: Weekday;
  start_time: string; // "HH:MM", 24-hour
  end_time: string; // before start_time means it ends the next day
}
export type Schedule = ScheduleEntry[];

const MINUTES_PER_DAY = 24 * 60;
const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;

export function toMinutes(hhmm: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!match) throw new Error(`Not a 24-hour time: "${hhmm}"`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** Distance between two times of day on a 24-hour circular clock (23:30 vs 00:15 is 45). */
export function circularMinutes(a: string, b: string): number {
  const diff = Math.abs(toMinutes(a) - toMinutes(b));
  return Math.min(diff, MINUTES_PER_DAY - diff);
}

/** Length of a shift; an end at or before the start runs into the next day. */
export function durationMinutes(entry: ScheduleEntry): number {
  const length = (toMinutes(entry.end_time) - toMinutes(entry.start_time) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  return length === 0 ? MINUTES_PER_DAY : length;
}

/** Minutes two shifts share on the weekly timeline (a Sunday night shift meets Monday morning). */
export function overlapMinutes(a: ScheduleEntry, b: ScheduleEntry): number {
  const startA = WEEKDAYS.indexOf(a.day) * MINUTES_PER_DAY + toMinutes(a.start_time);
  const startB = WEEKDAYS.indexOf(b.day) * MINUTES_PER_DAY + toMinutes(b.start_time);
  const endA = startA + durationMinutes(a);
  let best = 0;
  for (const shift of [-MINUTES_PER_WEEK, 0, MINUTES_PER_WEEK]) {
    const s = startB + shift;
    const e = s + durationMinutes(b);
    best = Math.max(best, Math.min(endA, e) - Math.max(startA, s));
  }
  return best;
}

export function formatEntry(entry: ScheduleEntry): string {
  return `${entry.start_time}-${entry.end_time}`;
}

/** A canonical text form: two schedules with the same entries in any order are equal. */
export function scheduleKey(schedule: Schedule): string {
  return schedule
    .map((e) => `${WEEKDAYS.indexOf(e.day)}|${e.start_time}|${e.end_time}`)
    .sort()
    .join(",");
}

/** Human form, e.g. "Mon-Fri 07:00-15:30" or "Mon,Wed 08:00-12:30; Fri 09:00-13:00". */
export function describeSchedule(schedule: Schedule): string {
  const byTimes = new Map<string, Weekday[]>();
  for (const entry of [...schedule].sort((a, b) => WEEKDAYS.indexOf(a.day) - WEEKDAYS.indexOf(b.day))) {
    const times = formatEntry(entry);
    byTimes.set(times, [...(byTimes.get(times) ?? []), entry.day]);
  }
  return [...byTimes.entries()].map(([times, days]) => `${describeDays(days)} ${times}`).join("; ");
}

function describeDays(days: Weekday[]): string {
  const indexes = [...new Set(days.map((d) => WEEKDAYS.indexOf(d)))].sort((a, b) => a - b);
  const contiguous = indexes.length > 2 && indexes.every((d, i) => i === 0 || d === indexes[i - 1]! + 1);
  return contiguous
    ? `${WEEKDAYS[indexes[0]!]}-${WEEKDAYS[indexes.at(-1)!]}`
    : indexes.map((d) => WEEKDAYS[d]).join(",");
}

/** The audit week: `asOf` (YYYY-MM-DD) and the 6 days after it, keyed by weekday. */
export function auditWeekDates(asOf: string): Map<Weekday, string> {
  const start = parseIsoDate(asOf);
  const week = new Map<Weekday, string>();
  for (let offset = 0; offset < 7; offset++) {
    const date = new Date(start.getTime() + offset * 86_400_000);
    week.set(WEEKDAYS[(date.getUTCDay() + 6) % 7]!, date.toISOString().slice(0, 10));
  }
  return week;
}

export function parseIsoDate(value: string): Date {
  const date = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new Error(`Not a calendar date (YYYY-MM-DD): "${value}"`);
  }
  return date;
}

// Building a formatter to check a zone is slow, and an import checks one per vanpool.
const knownZones = new Map<string, boolean>();

/** Whether `value` is a time zone this runtime knows (an IANA name like America/Los_Angeles). */
export function isTimeZone(value: string): boolean {
  const known = knownZones.get(value);
  if (known !== undefined) return known;
  let valid = true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
  } catch {
    valid = false;
  }
  if (knownZones.size < 1000) knownZones.set(value, valid);
  return valid;
}

/** The calendar date of `now` in a time zone, as YYYY-MM-DD. */
// Building a formatter costs far more than using one, and a sweep asks for the same few zones
// once per rider and day.
const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function dateInTimeZone(now: Date, timeZone: string): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dateFormats.set(timeZone, format);
  }
  return format.format(now);
}
