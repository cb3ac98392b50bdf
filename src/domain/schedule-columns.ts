// A schedule as an export writes it: its days ("Mon-Fri") and one start and end time, and back.
import type { RowReader } from "./record-import.js";
import { type Schedule, WEEKDAYS } from "./schedule.js";

/** The schedule a row's `days`, `start_time` and `end_time` describe; null when it has no days. */
export function scheduleOf(read: RowReader<"days" | "start_time" | "end_time">): Schedule | null {
  const days = read.days("days");
  if (days === null) return null;
  const start_time = read.time("start_time") ?? undefined;
  const end_time = read.time("end_time") ?? undefined;
  return days.map((day) => ({ day, start_time, end_time }) as Schedule[number]);
}

/** A stored schedule as those three columns (differing times by day are listed in day order). */
export function scheduleColumns(schedule: Schedule | null | undefined) {
  if (!schedule || schedule.length === 0) return { days: null, start_time: null, end_time: null };
  const sorted = [...schedule].sort((a, b) => WEEKDAYS.indexOf(a.day) - WEEKDAYS.indexOf(b.day));
  const distinct = (values: string[]) => [...new Set(values)].join(";");
  return {
    days: sorted.map((e) => e.day).join(";"),
    start_time: distinct(sorted.map((e) => e.start_time)),
    end_time: distinct(sorted.map((e) => e.end_time)),
  };
}
