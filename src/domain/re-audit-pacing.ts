// Re-audit pacing (docs/case-lifecycle.md, "At most three re-audits"): the emails tell a rider that changes
// can take a business day to show up, so a reply's re-audit counts toward the limit of three only when the
// data it ran on changed, or at least one business day after the previous counted re-audit. Pure rules.
import { createHash } from "node:crypto";
import { DateTime } from "luxon";
import type { VanpoolSnapshot } from "./snapshot.js";

/** A reply's re-audit is keyed by the reply, so reading it again decides once (`cases.re_audit_keys`). */
export const replyReAuditKey = (messageId: string): string => `reply:${messageId}`;

export function isReplyReAudit(key: string): boolean {
  return key.startsWith("reply:");
}

/**
 * The same local time on the next business day (Monday to Friday) in `timeZone`: Friday 10:00 gives
 * Monday 10:00. Public holidays are not known, so they count as business days.
 */
export function oneBusinessDayAfter(at: Date, timeZone: string): Date {
  let next = DateTime.fromJSDate(at, { zone: timeZone }).plus({ days: 1 });
  while (next.weekday > 5) next = next.plus({ days: 1 });
  return next.toJSDate();
}

/**
 * What the checks read of a vanpool, as a fingerprint: the van's work site, pickup point and schedule, and each
 * rider's home point, shift and days off. Another rider's email or name does not change it.
 */
export function reAuditBasis(snapshot: VanpoolSnapshot): string {
  const read = {
    work_site: snapshot.work_site_coords,
    pickup: snapshot.pickup_coords,
    schedule: snapshot.operating_schedule,
    time_zone: snapshot.time_zone,
    riders: [...snapshot.riders]
      .sort((a, b) => a.employee_id.localeCompare(b.employee_id))
      .map((r) => [r.employee_id, r.work_site, r.home_zip, r.home_coords, r.shift?.schedule ?? null, r.pto_dates]),
  };
  return createHash("sha256").update(JSON.stringify(read)).digest("hex").slice(0, 16);
}

/** What the case keeps of its last counted re-audit. */
export interface ReAuditPace {
  /** From when a reply's re-audit on the same data counts again; null before the first counted re-audit. */
  counts_from: Date | null;
  /** The data the last counted re-audit ran on. */
  basis: string | null;
}

/**
 * Whether a re-audit counts toward the limit of three. A timeout's (or any re-audit not asked for by a reply)
 * always counts; a reply's counts when none counted before, when the data changed since the last counted one, or
 * from one business day after it.
 */
export function countsTowardLimit(input: { key: string; at: Date; basis: string; pace: ReAuditPace }): boolean {
  const { key, at, basis, pace } = input;
  if (!isReplyReAudit(key) || pace.counts_from === null) return true;
  return basis !== pace.basis || at >= pace.counts_from;
}

/** The pace after a counted re-audit at `at` on `basis`. */
export function paceAfterCounted(at: Date, basis: string, timeZone: string): ReAuditPace {
  return { counts_from: oneBusinessDayAfter(at, timeZone), basis };
}

/** What a re-audit of an open case was for, as the case thread tells it. */
export type ReAuditCause =
  | { kind: "reply"; from: string }
  | { kind: "timeout" }
  | { kind: "import"; source: string }
  | { kind: "person"; user: string }
  | { kind: "audit" };
