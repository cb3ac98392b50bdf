// Shift policy (docs/verification-policy.md): each rider must work a shift the van serves.
import {
  auditWeekDates,
  circularMinutes,
  describeSchedule,
  formatEntry,
  overlapMinutes,
  type Schedule,
  type ScheduleEntry,
  scheduleKey,
  WEEKDAYS,
  type Weekday,
} from "./schedule.js";
import {
  combineVerdicts,
  type EvidenceItem,
  plural,
  type SpecialistResult,
  type Verdict,
} from "./specialist-result.js";

export interface ShiftPolicy {
  /** Start and end must each be within this many minutes of the reference (inclusive). */
  toleranceMinutes: number;
  /** Share of the reference's operating days a rider must be compatible on. */
  minCompatibleDayRatio: number;
}

export interface ShiftRiderInput {
  employee_id: string;
  shift: { name: string; schedule: Schedule } | null;
  pto_dates: string[];
}

export interface ShiftCheckInput {
  vanpool: { vanpool_id: string; schedule?: Schedule | null };
  riders: ShiftRiderInput[];
  /** First day of the audit week, YYYY-MM-DD. */
  as_of: string;
}

export type ReferenceSource = "vanpool_schedule" | "plurality" | "none";

interface Reference {
  source: ReferenceSource;
  schedule: Schedule | null;
  /** For plurality: the riders whose schedule is the reference, and the tied groups when there is none. */
  members: string[];
  tiedGroups: { schedule: string; riders: string[] }[];
}

interface DayAlignment {
  day: Weekday;
  date: string;
  reference: string;
  rider: string | null;
  start_diff_minutes: number | null;
  end_diff_minutes: number | null;
  overlap_minutes: number;
  compatible: boolean;
  via: "schedule" | "pto" | null;
}

interface RiderAssessment {
  employeeId: string;
  verdict: Verdict;
  evidence: EvidenceItem;
  ratio: number | null;
  /** How close the rider came to the opposite verdict, for confidence. */
  borderline: boolean;
  shiftName: string | null;
}

export function evaluateShift(input: ShiftCheckInput, policy: ShiftPolicy): SpecialistResult {
  const recordedPolicy = {
    tolerance_minutes: policy.toleranceMinutes,
    min_compatible_day_ratio: policy.minCompatibleDayRatio,
  };
  const vanpoolId = input.vanpool.vanpool_id;
  if (input.riders.length === 0) {
    return {
      check: "shift",
      verdict: "inconclusive",
      confidence: 1,
      flagged: [],
      policy: recordedPolicy,
      reasoning: `${vanpoolId} has no active riders, so there is nothing to compare.`,
      evidence: [{ type: "vanpool_roster", vanpool_id: vanpoolId, active_riders: 0 }],
    };
  }

  const reference = chooseReference(input);
  const referenceEvidence: EvidenceItem = {
    type: "shift_reference",
    vanpool_id: vanpoolId,
    source: reference.source,
    schedule: reference.schedule,
    description: reference.schedule ? describeSchedule(reference.schedule) : null,
    ...(reference.source === "plurality" ? { group: reference.members } : {}),
    ...(reference.tiedGroups.length > 0 ? { tied_groups: reference.tiedGroups } : {}),
    audit_week_start: input.as_of,
  };

  if (!reference.schedule) {
    const reason =
      reference.tiedGroups.length > 0
        ? `no single schedule is shared by most riders (${reference.tiedGroups.map((g) => `${g.riders.length} on ${g.schedule}`).join(" vs ")})`
        : "no rider has shift data and the van has no operating schedule";
    return {
      check: "shift",
      verdict: "inconclusive",
      confidence: 1,
      flagged: [],
      policy: recordedPolicy,
      reasoning: `Cannot check shifts for ${vanpoolId}: ${reason}. A human should confirm which shift the van serves.`,
      evidence: [referenceEvidence, ...input.riders.map((r) => riderScheduleEvidence(r))],
    };
  }

  const week = auditWeekDates(input.as_of);
  const assessments = input.riders.map((rider) => assessRider(rider, reference.schedule!, week, policy));
  const verdict = combineVerdicts(assessments.map((a) => a.verdict));
  const failing = assessments.filter((a) => a.verdict === "fail");
  const missing = assessments.filter((a) => a.verdict === "inconclusive");
  const referenceText = `${describeSchedule(reference.schedule)} (${reference.source === "vanpool_schedule" ? "the van's operating schedule" : `the schedule most riders share: ${plural(reference.members.length, "rider")}`})`;
  const need = Math.round(policy.minCompatibleDayRatio * 100);

  let reasoning: string;
  if (verdict === "fail") {
    reasoning =
      `${plural(failing.length, "rider")} of ${input.riders.length} cannot share the van's hours ${referenceText}: ` +
      failing
        .map(
          (a) =>
            `${a.employeeId} (${a.shiftName ?? "shift"}, compatible on ${percent(a.ratio)} of operating days, needs ${need}%)`,
        )
        .join("; ") +
      "." +
      (missing.length > 0
        ? ` ${plural(missing.length, "rider")} without shift data could not be checked: ${missing.map((a) => a.employeeId).join(", ")}.`
        : "");
  } else if (verdict === "inconclusive") {
    reasoning = `No rider conflicts with ${referenceText}, but ${plural(missing.length, "rider")} without shift data could not be checked: ${missing.map((a) => a.employeeId).join(", ")}.`;
  } else {
    reasoning = `All ${plural(input.riders.length, "rider")} work shifts within ${policy.toleranceMinutes} minutes of ${referenceText} on at least ${need}% of operating days.`;
  }

  return {
    check: "shift",
    verdict,
    confidence: shiftConfidence(verdict, reference.source, verdict === "fail" ? failing : assessments),
    reasoning,
    evidence: [referenceEvidence, ...assessments.map((a) => a.evidence)],
    flagged: failing.map((a) => a.employeeId),
    policy: recordedPolicy,
  };
}

function chooseReference(input: ShiftCheckInput): Reference {
  const vanSchedule = input.vanpool.schedule;
  if (vanSchedule && vanSchedule.length > 0) {
    return { source: "vanpool_schedule", schedule: vanSchedule, members: [], tiedGroups: [] };
  }
  const groups = new Map<string, { schedule: Schedule; riders: string[] }>();
  for (const rider of input.riders) {
    if (!rider.shift || rider.shift.schedule.length === 0) continue;
    const key = scheduleKey(rider.shift.schedule);
    const group = groups.get(key) ?? { schedule: rider.shift.schedule, riders: [] };
    group.riders.push(rider.employee_id);
    groups.set(key, group);
  }
  const largest = Math.max(0, ...[...groups.values()].map((g) => g.riders.length));
  const leaders = [...groups.values()].filter((g) => g.riders.length === largest);
  if (leaders.length === 1)
    return { source: "plurality", schedule: leaders[0]!.schedule, members: leaders[0]!.riders, tiedGroups: [] };
  return {
    source: "none",
    schedule: null,
    members: [],
    tiedGroups: leaders.map((g) => ({ schedule: describeSchedule(g.schedule), riders: g.riders })),
  };
}

function assessRider(
  rider: ShiftRiderInput,
  reference: Schedule,
  week: Map<Weekday, string>,
  policy: ShiftPolicy,
): RiderAssessment {
  if (!rider.shift || rider.shift.schedule.length === 0) {
    return {
      employeeId: rider.employee_id,
      verdict: "inconclusive",
      ratio: null,
      borderline: false,
      shiftName: null,
      evidence: { ...riderScheduleEvidence(rider), verdict: "inconclusive", note: "no shift on record" },
    };
  }
  const pto = new Set(rider.pto_dates);
  const referenceDays = groupByDay(reference);
  const days: DayAlignment[] = [];
  let compatibleDays = 0;
  let nearMiss = false;
  for (const [day, referenceEntries] of referenceDays) {
    const date = week.get(day)!;
    const riderEntries = rider.shift.schedule.filter((e) => e.day === day);
    // A day counts when every reference slot that day is matched (split shifts have two).
    const alignments = referenceEntries.map((ref) => alignEntry(ref, riderEntries, policy.toleranceMinutes));
    const bySchedule = alignments.every((a) => a.compatible);
    const byPto = !bySchedule && pto.has(date);
    for (const a of alignments) {
      const worst = Math.max(a.startDiff ?? Infinity, a.endDiff ?? Infinity);
      if (Number.isFinite(worst) && Math.abs(worst - policy.toleranceMinutes) <= 15) nearMiss = true;
      days.push({
        day,
        date,
        reference: formatEntry(a.reference),
        rider: a.rider ? formatEntry(a.rider) : null,
        start_diff_minutes: a.startDiff,
        end_diff_minutes: a.endDiff,
        overlap_minutes: a.overlap,
        compatible: bySchedule || byPto,
        via: bySchedule ? "schedule" : byPto ? "pto" : null,
      });
    }
    if (bySchedule || byPto) compatibleDays++;
  }
  const operatingDays = referenceDays.size;
  const ratio = compatibleDays / operatingDays;
  const verdict: Verdict = ratio >= policy.minCompatibleDayRatio ? "pass" : "fail";
  const oneDay = 1 / operatingDays;
  const borderline = nearMiss || Math.abs(ratio - policy.minCompatibleDayRatio) < oneDay;
  return {
    employeeId: rider.employee_id,
    verdict,
    ratio,
    borderline,
    shiftName: rider.shift.name,
    evidence: {
      ...riderScheduleEvidence(rider),
      verdict,
      days,
      compatible_days: compatibleDays,
      operating_days: operatingDays,
      compatible_day_ratio: round(ratio, 3),
      pto_days_used: days.filter((d) => d.via === "pto").map((d) => d.date),
    },
  };
}

interface EntryAlignment {
  reference: ScheduleEntry;
  rider: ScheduleEntry | null;
  startDiff: number | null;
  endDiff: number | null;
  overlap: number;
  compatible: boolean;
}

function alignEntry(reference: ScheduleEntry, candidates: ScheduleEntry[], tolerance: number): EntryAlignment {
  let best: EntryAlignment = { reference, rider: null, startDiff: null, endDiff: null, overlap: 0, compatible: false };
  let bestScore = Infinity;
  for (const rider of candidates) {
    const startDiff = circularMinutes(rider.start_time, reference.start_time);
    const endDiff = circularMinutes(rider.end_time, reference.end_time);
    const compatible = startDiff <= tolerance && endDiff <= tolerance;
    const score = (compatible ? 0 : 10_000) + Math.max(startDiff, endDiff);
    if (score < bestScore) {
      bestScore = score;
      best = { reference, rider, startDiff, endDiff, overlap: overlapMinutes(reference, rider), compatible };
    }
  }
  return best;
}

function groupByDay(schedule: Schedule): Map<Weekday, ScheduleEntry[]> {
  const days = new Map<Weekday, ScheduleEntry[]>();
  for (const day of WEEKDAYS) {
    const entries = schedule.filter((e) => e.day === day);
    if (entries.length > 0) days.set(day, entries);
  }
  return days;
}

function riderScheduleEvidence(rider: ShiftRiderInput): EvidenceItem {
  return {
    type: "employee_shift",
    employee_id: rider.employee_id,
    shift_name: rider.shift?.name ?? null,
    // The readable form cites every entry; the raw list stays on the shift record.
    schedule: rider.shift ? describeSchedule(rider.shift.schedule) : null,
  };
}

function shiftConfidence(verdict: Verdict, source: ReferenceSource, decisive: RiderAssessment[]): number {
  if (verdict === "inconclusive") return 2;
  const base = source === "vanpool_schedule" ? 5 : 4;
  return decisive.some((a) => a.borderline) ? base - 1 : base;
}

function percent(ratio: number | null): string {
  return ratio === null ? "n/a" : `${Math.round(ratio * 100)}%`;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
