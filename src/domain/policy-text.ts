// The program's rules in the words riders and auditors read, from the policy a check recorded.
import type { CheckKind } from "./specialist-result.js";

/** Where riders appeal a decision, as the policy (policy/program-policy.md, "Appeals") says. */
export const APPEAL_ADDRESS = "vanpool-program@northwind.example";

/** 60 -> "an hour", 90 -> "90 minutes", 120 -> "2 hours" */
export function toleranceText(minutes: number): string {
  if (minutes === 60) return "an hour";
  if (minutes > 60 && minutes % 60 === 0) return `${minutes / 60} hours`;
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** The rule a check applied, e.g. "homes within 50 miles of the pickup". */
export function recordedPolicyText(check: CheckKind, policy: Record<string, unknown>): string {
  if (check === "employment") return "a rider still works here: not terminated, and any separation date not yet passed";
  if (check === "location") return `homes within ${Number(policy.max_distance_miles)} miles of the pickup`;
  const percent = Math.round(Number(policy.min_compatible_day_ratio) * 100);
  return `a shift starting and ending within ${toleranceText(Number(policy.tolerance_minutes))} of the van's on at least ${percent}% of its days`;
}
