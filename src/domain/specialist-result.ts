// The check-result contract (docs/verification-policy.md), shared by every check and by every consumer
// of stored results (CLI, evals, agents, Slack).

export type Verdict = "pass" | "fail" | "inconclusive";
/** Every check, in the order people read them. */
export const CHECK_KINDS = ["location", "shift", "employment"] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];
/** Each check's name and icon as people read them. */
export const CHECK_TITLES: Record<CheckKind, string> = {
  location: "Location",
  shift: "Shift",
  employment: "Employment",
};
export const CHECK_ICONS: Record<CheckKind, string> = { location: "📍", shift: "🕒", employment: "🪪" };

export interface EvidenceItem {
  type: string;
  [field: string]: unknown;
}

export interface SpecialistResult {
  check: CheckKind;
  verdict: Verdict;
  /** 1 (a guess) .. 5 (certain from exact data). */
  confidence: number;
  reasoning: string;
  evidence: EvidenceItem[];
  /** The failing riders. Riders without data are never flagged; they make the result inconclusive. */
  flagged: string[];
  /** The thresholds this result was decided with. */
  policy: Record<string, number>;
}

/** fail when any rider fails, else inconclusive when any rider lacks data, else pass. */
export function combineVerdicts(verdicts: Iterable<Verdict>): Verdict {
  let sawInconclusive = false;
  for (const verdict of verdicts) {
    if (verdict === "fail") return "fail";
    if (verdict === "inconclusive") sawInconclusive = true;
  }
  return sawInconclusive ? "inconclusive" : "pass";
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** One vanpool's audit: every check and their combined verdict. */
export interface VanpoolAudit {
  vanpool_id: string;
  as_of: string;
  verdict: Verdict;
  location: SpecialistResult;
  shift: SpecialistResult;
  employment: SpecialistResult;
  started_at: Date;
  finished_at: Date;
}

export function failedChecks(audit: Partial<Pick<VanpoolAudit, CheckKind>>): CheckKind[] {
  return CHECK_KINDS.filter((check) => audit[check]?.verdict === "fail");
}
