// The period a report covers, as a person types it (docs/reports.md): calendar weeks and months in
// the program's time zone, the last N days, a month, or a range of days. Pure, no I/O.
import { DateTime } from "luxon";

export interface ReportPeriod {
  /** Start, included. */
  since: Date;
  /** End, excluded: now for a period still running. */
  until: Date;
  /** The period in words, with its dates: "last week (Nov 16 – Nov 22, 2026)". */
  label: string;
}

export const DEFAULT_PERIOD = "7d";
export const PERIOD_EXAMPLES = [
  "this week",
  "last week",
  "this month",
  "last month",
  "30d",
  "2026-11",
  "2026-11-01..2026-11-27",
];
const MAX_DAYS = 366;

const day = (d: DateTime) => d.toFormat("LLL d, yyyy");
const span = (from: DateTime, lastDay: DateTime) =>
  from.hasSame(lastDay, "day")
    ? day(from)
    : from.hasSame(lastDay, "year")
      ? `${from.toFormat("LLL d")} – ${day(lastDay)}`
      : `${day(from)} – ${day(lastDay)}`;

function period(name: string | null, from: DateTime, end: DateTime, now: DateTime): ReportPeriod {
  const until = end < now ? end : now;
  const dates = span(from, until > from ? until.minus({ milliseconds: 1 }) : from);
  return { since: from.toJSDate(), until: until.toJSDate(), label: name ? `${name} (${dates})` : dates };
}

function isoDay(text: string, zone: string): DateTime | undefined {
  const parsed = DateTime.fromISO(text, { zone });
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && parsed.isValid ? parsed.startOf("day") : undefined;
}

/** The period `text` names at `now` in `timeZone`, or a sentence saying what is wrong and what would do. */
export function parsePeriod(text: string, now: Date, timeZone: string): ReportPeriod | { error: string } {
  const typed = text.trim().toLowerCase().replace(/\s+/g, " ") || DEFAULT_PERIOD;
  const at = DateTime.fromJSDate(now, { zone: timeZone });
  const relative = /^(this|last) (week|month)$/.exec(typed);
  if (relative) {
    const unit = relative[2] as "week" | "month";
    const start = at.startOf(unit).minus(relative[1] === "last" ? { [unit]: 1 } : {});
    return period(typed, start, start.plus({ [unit]: 1 }), at);
  }
  const days = /^(\d{1,4}) ?d(?:ays?)?$/.exec(typed);
  if (days) {
    const n = Number(days[1]);
    if (n < 1 || n > MAX_DAYS) return { error: `A number of days goes from 1 to ${MAX_DAYS}, like \`30d\`.` };
    return period(`last ${n} ${n === 1 ? "day" : "days"}`, at.minus({ days: n }), at, at);
  }
  const month = /^(\d{4})-(\d{2})$/.exec(typed);
  if (month) {
    const start = DateTime.fromObject({ year: Number(month[1]), month: Number(month[2]), day: 1 }, { zone: timeZone });
    if (!start.isValid) return { error: `There is no month ${month[0]}; write it as YYYY-MM, like \`2026-11\`.` };
    if (start > at) return { error: `${start.toFormat("LLLL yyyy")} has not started yet.` };
    return period(start.toFormat("LLLL yyyy"), start, start.plus({ months: 1 }), at);
  }
  const range = /^(\S+) ?\.\. ?(\S+)$/.exec(typed);
  if (range) {
    const [from, to] = [isoDay(range[1]!, timeZone), isoDay(range[2]!, timeZone)];
    if (!from || !to) return { error: "A range is two days written YYYY-MM-DD, like `2026-11-01..2026-11-27`." };
    if (to < from) return { error: "A range starts with its first day: the second day is before the first." };
    if (from > at) return { error: `${day(from)} has not come yet.` };
    if (to.diff(from, "days").days >= MAX_DAYS) return { error: `A range covers at most ${MAX_DAYS} days.` };
    return period(null, from, to.plus({ days: 1 }), at);
  }
  return { error: "I don't know that period." };
}

/** What to tell someone whose period was refused: the problem, then the periods they can write. */
export function periodHelp(problem: string): string {
  return `${problem} Periods I know: ${PERIOD_EXAMPLES.map((p) => `\`${p}\``).join(", ")} (last N days as \`Nd\`; dates in the program's time zone; \`${DEFAULT_PERIOD}\` when none is given).`;
}
