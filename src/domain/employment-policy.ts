// Employment policy (docs/verification-policy.md): each rider must still work here. A rider's employment
// has ended when the HR record says terminated (an import marks an employee who left the HR export
// terminated: src/domain/employee-import.ts), or when their separation date is before today.
import {
  combineVerdicts,
  type EvidenceItem,
  plural,
  type SpecialistResult,
  type Verdict,
} from "./specialist-result.js";

/** The statuses of someone who still works here; on leave is employed. */
const EMPLOYED = new Set(["active", "on_leave"]);

export interface EmploymentRiderInput {
  employee_id: string;
  first_name: string;
  last_name: string;
  /** employees.status: active, on_leave or terminated. */
  status: string;
  /** The last day of employment from the HR export (YYYY-MM-DD), when it gives one. */
  separation_date: string | null;
  /** When the stored status last changed, and by which import: the day someone left the HR export. */
  status_since: { on: string; source: string } | null;
}

export interface EmploymentCheckInput {
  vanpool: { vanpool_id: string };
  riders: EmploymentRiderInput[];
  /** Today in the vanpool's time zone, YYYY-MM-DD. */
  today: string;
}

/** Why a rider's employment ended, and since when. */
export interface EmploymentEnded {
  reason: "terminated" | "separation_date";
  /** YYYY-MM-DD, when known. */
  on: string | null;
}

export function employmentEnded(rider: EmploymentRiderInput, today: string): EmploymentEnded | null {
  if (!EMPLOYED.has(rider.status))
    return { reason: "terminated", on: rider.separation_date ?? rider.status_since?.on ?? null };
  if (rider.separation_date !== null && rider.separation_date < today)
    return { reason: "separation_date", on: rider.separation_date };
  return null;
}

/** "terminated on November 20" / "employment ended on November 20" (the year when it is not today's). */
export function endedInWords(ended: EmploymentEnded, today: string): string {
  const what = ended.reason === "terminated" ? "terminated" : "employment ended";
  return ended.on ? `${what} on ${isoDayInWords(ended.on, today)}` : what;
}

/** "November 20", or "November 20, 2025" in another year than `today`'s. */
export function isoDayInWords(day: string, today: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  return new Intl.DateTimeFormat("en-US", {
    timeZone: "UTC",
    month: "long",
    day: "numeric",
    ...(day.slice(0, 4) === today.slice(0, 4) ? {} : { year: "numeric" }),
  }).format(date);
}

export function evaluateEmployment(input: EmploymentCheckInput): SpecialistResult {
  const { vanpool, riders, today } = input;
  if (riders.length === 0)
    return {
      check: "employment",
      verdict: "inconclusive",
      confidence: 1,
      flagged: [],
      policy: {},
      reasoning: `${vanpool.vanpool_id} has no active riders, so there is nothing to check.`,
      evidence: [],
    };
  const assessed = riders.map((rider) => {
    const ended = employmentEnded(rider, today);
    const verdict: Verdict = ended ? "fail" : "pass";
    return { rider, ended, verdict };
  });
  const failing = assessed.filter((a) => a.ended);
  const name = (r: EmploymentRiderInput) => `${r.first_name} ${r.last_name} (${r.employee_id})`;
  const reasoning =
    failing.length > 0
      ? `${plural(failing.length, "rider")} of ${riders.length} no longer work${failing.length === 1 ? "s" : ""} here: ${failing.map((a) => `${name(a.rider)}, ${endedInWords(a.ended!, today)}`).join("; ")}.`
      : `All ${plural(riders.length, "rider")} still work here according to the HR records.`;
  return {
    check: "employment",
    verdict: combineVerdicts(assessed.map((a) => a.verdict)),
    confidence: 5,
    reasoning,
    evidence: assessed.map(
      ({ rider, ended, verdict }): EvidenceItem => ({
        type: "employment_status",
        employee_id: rider.employee_id,
        status: rider.status,
        separation_date: rider.separation_date,
        status_since: rider.status_since?.on ?? null,
        source_file: rider.status_since?.source ?? null,
        ended_on: ended?.on ?? null,
        ended_reason: ended?.reason ?? null,
        today,
        verdict,
      }),
    ),
    flagged: failing.map((a) => a.rider.employee_id),
    policy: {},
  };
}
