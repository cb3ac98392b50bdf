// A rider's failing facts as Slack lines, from stored results: a city or ZIP3 and a
// distance band, or their shift against the van's. Never a street address.
import { type EmploymentEnded, endedInWords } from "../../domain/employment-policy.js";
import {
  CHECK_ICONS,
  CHECK_KINDS,
  type CheckKind,
  type EvidenceItem,
  type SpecialistResult,
} from "../../domain/specialist-result.js";
import { band, homeLabel } from "./format.js";

export type CheckResult = Pick<
  SpecialistResult,
  "verdict" | "confidence" | "reasoning" | "evidence" | "flagged" | "policy"
>;
export type LatestResults = Partial<Record<CheckKind, CheckResult>>;

/** The riders a result is about: its failing riders, or those it could not decide. */
export function concernedRiders(result: CheckResult): string[] {
  if (result.verdict === "fail") return result.flagged;
  return result.evidence.filter((e) => e.verdict === "inconclusive" && e.employee_id).map((e) => String(e.employee_id));
}

/** The confidence of what went wrong: the failed checks, else the undecided ones; null when all pass. */
export function failedConfidence(results: LatestResults): number | null {
  const present = CHECK_KINDS.flatMap((c) => (results[c] ? [results[c]] : []));
  const failed = present.filter((r) => r.verdict === "fail");
  const concerned = failed.length ? failed : present.filter((r) => r.verdict === "inconclusive");
  return concerned.length ? Math.min(...concerned.map((r) => r.confidence)) : null;
}

export function riderLine(check: CheckKind, result: CheckResult, employeeId: string): string | undefined {
  const find = (type: string) => result.evidence.find((e) => e.type === type && e.employee_id === employeeId);
  if (check === "location") {
    const profile = find("employee_profile");
    if (!profile) return undefined;
    const miles = find("distance_check")?.distance_miles as number | null | undefined;
    const where = homeLabel(profile.home_city as string | null, profile.home_zip as string | null);
    const distance = typeof miles === "number" ? `${band(miles)} from the pickup` : "cannot be located";
    return `${where} · ${distance} (limit ${result.policy.max_distance_miles} mi)`;
  }
  if (check === "employment") {
    const ended = endedOf(find("employment_status"));
    return ended ? `no longer works here (${ended})` : undefined;
  }
  const rider = find("employee_shift");
  if (!rider) return undefined;
  const reference = result.evidence.find((e: EvidenceItem) => e.type === "shift_reference");
  return rider.days
    ? `${rider.shift_name} ${rider.schedule} vs the van's ${reference?.description ?? "schedule"} · matches ${rider.compatible_days} of ${rider.operating_days} days`
    : "no shift on record";
}

/** One rider's facts from every check that failed (or could not decide) for them. */
export function riderFailingFacts(results: LatestResults, employeeId: string): string[] {
  return CHECK_KINDS.flatMap((check) => {
    const result = results[check];
    if (!result || result.verdict === "pass" || !concernedRiders(result).includes(employeeId)) return [];
    const line = riderLine(check, result, employeeId);
    return line ? [`${CHECK_ICONS[check]} ${line}`] : [];
  });
}

/** "terminated on November 20", read back from a rider's stored employment evidence. */
function endedOf(evidence: EvidenceItem | undefined): string | undefined {
  if (!evidence?.ended_reason) return undefined;
  const ended = {
    reason: evidence.ended_reason as EmploymentEnded["reason"],
    on: (evidence.ended_on as string | null) ?? null,
  };
  return endedInWords(ended, String(evidence.today));
}

/** Each flagged rider of a failed employment check with when their employment ended, in words. */
export function departedInWords(result: CheckResult | undefined): Record<string, string> {
  if (result?.verdict !== "fail") return {};
  return Object.fromEntries(
    result.flagged.map((id) => [
      id,
      endedOf(result.evidence.find((e) => e.type === "employment_status" && e.employee_id === id)) ?? "terminated",
    ]),
  );
}
