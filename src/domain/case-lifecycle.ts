// The case lifecycle (docs/case-lifecycle.md) as a state machine. Every tool that changes a case
// asks this module first; nothing here does I/O.
import { CHECK_KINDS, type CheckKind, type Verdict } from "./specialist-result.js";

export const CASE_STATUSES = [
  "open",
  "verification",
  "pending_reply",
  "re_audit",
  "hitl_review",
  "pre_cancel",
  "resolved",
  "cancelled",
] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
export const CASE_REASONS = [
  "location_mismatch",
  "shift_mismatch",
  "both",
  "inconclusive",
  "employment_ended",
] as const;
export type CaseReason = (typeof CASE_REASONS)[number];
export type ReplyBucket = "acknowledgment" | "question" | "update" | "escalation";
export type OutreachTemplate = "location_mismatch" | "shift_mismatch" | "both_mismatch";

export function isCaseStatus(value: string): value is CaseStatus {
  return (CASE_STATUSES as readonly string[]).includes(value);
}

export const MAX_RE_AUDITS = 3;
export const REPLY_TIMEOUT_DAYS = 7;
const DAY_MS = 86_400_000;

const TRANSITIONS: Record<CaseStatus, readonly CaseStatus[]> = {
  open: ["verification", "pending_reply", "hitl_review", "resolved"],
  verification: ["pending_reply", "hitl_review", "resolved", "pre_cancel"],
  pending_reply: ["pending_reply", "re_audit", "hitl_review", "resolved", "pre_cancel"],
  re_audit: ["pending_reply", "hitl_review", "resolved", "pre_cancel"],
  hitl_review: ["pending_reply", "re_audit", "resolved", "pre_cancel"],
  pre_cancel: ["cancelled", "resolved"],
  resolved: [],
  cancelled: [],
};

export class LifecycleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LifecycleError";
  }
}

/** The statuses a case ends in; nothing moves a case out of them. */
export const CLOSED_STATUSES = ["resolved", "cancelled"] as const satisfies readonly CaseStatus[];

export function isClosed(status: CaseStatus): boolean {
  return (CLOSED_STATUSES as readonly CaseStatus[]).includes(status);
}

export function canTransition(from: CaseStatus, to: CaseStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertTransition(from: CaseStatus, to: CaseStatus): void {
  if (!canTransition(from, to)) {
    const allowed = TRANSITIONS[from];
    throw new LifecycleError(
      `A case cannot go from ${from} to ${to}${allowed.length ? ` (from ${from}: ${allowed.join(", ")})` : `: ${from} is closed`}.`,
    );
  }
}

/** A rider who no longer works here decides the case: it goes to a person, not to the riders. */
export function caseReason(failedChecks: readonly CheckKind[]): CaseReason {
  if (failedChecks.includes("employment")) return "employment_ended";
  if (failedChecks.includes("location") && failedChecks.includes("shift")) return "both";
  if (failedChecks.includes("location")) return "location_mismatch";
  if (failedChecks.includes("shift")) return "shift_mismatch";
  return "inconclusive";
}

export function outreachTemplate(failedChecks: readonly CheckKind[]): OutreachTemplate {
  const reason = caseReason(failedChecks);
  if (reason === "inconclusive")
    throw new LifecycleError("No check failed: there is nothing to write to riders about.");
  if (reason === "employment_ended")
    throw new LifecycleError("A rider no longer works here: a person decides their removal, and no one is emailed.");
  return reason === "both" ? "both_mismatch" : reason;
}

export function replyDeadline(lastOutboundAt: Date): Date {
  return new Date(lastOutboundAt.getTime() + REPLY_TIMEOUT_DAYS * DAY_MS);
}

/** When the riders' time to reply ends: 7 days after the last email, or later when an out-of-office notice says so. */
export function replyDueAt(lastOutboundAt: Date, extendedUntil: Date | null = null): Date {
  return new Date(Math.max(replyDeadline(lastOutboundAt).getTime(), extendedUntil?.getTime() ?? 0));
}

/**
 * A case waiting on riders times out 7 days after the last email to them, or later when an
 * out-of-office notice extended the deadline.
 */
export function isReplyOverdue(
  status: CaseStatus,
  lastOutboundAt: Date | null,
  now: Date,
  extendedUntil: Date | null = null,
): boolean {
  if (status !== "pending_reply" || lastOutboundAt === null) return false;
  return now.getTime() >= replyDueAt(lastOutboundAt, extendedUntil).getTime();
}

/** Out of office until a date (YYYY-MM-DD): the reply deadline moves to that date plus two days. */
export function deadlineAfterReturn(returnDate: string): Date {
  return new Date(Date.parse(`${returnDate}T00:00:00Z`) + 2 * DAY_MS);
}

export type AuditDecision =
  | { kind: "no_case"; outcome: "verified" }
  | { kind: "open_case"; status: "pending_reply"; reason: CaseReason; email: true }
  | { kind: "open_case"; status: "hitl_review"; reason: "inconclusive"; email: false }
  | { kind: "open_case"; status: "pre_cancel"; reason: "employment_ended"; email: false };

/**
 * First audit of a vanpool with no open case. A rider whose employment ended is never emailed: the case
 * goes straight to an approver, who is asked to remove them (docs/verification-policy.md).
 */
export function decideAfterAudit(verdicts: Partial<Record<CheckKind, Verdict>>): AuditDecision {
  if (verdicts.employment === "fail")
    return { kind: "open_case", status: "pre_cancel", reason: "employment_ended", email: false };
  const failed = CHECK_KINDS.filter((c) => verdicts[c] === "fail");
  if (failed.length > 0) return { kind: "open_case", status: "pending_reply", reason: caseReason(failed), email: true };
  if (Object.values(verdicts).includes("inconclusive"))
    return { kind: "open_case", status: "hitl_review", reason: "inconclusive", email: false };
  return { kind: "no_case", outcome: "verified" };
}

export type ReAuditTrigger = "acknowledgment" | "update" | "timeout";

export interface ReAuditDecision {
  status: CaseStatus;
  /** The email to send the rider, if any. */
  email: "confirmation" | "follow_up" | null;
  requestCancellation: boolean;
}

/**
 * After a re-audit. `reAuditCount` includes this one. A rider's word never overrides
 * the data, and the third failing re-audit always goes to pre-cancel.
 */
export function decideAfterReAudit(trigger: ReAuditTrigger, passed: boolean, reAuditCount: number): ReAuditDecision {
  if (passed)
    return { status: "resolved", email: trigger === "update" ? "confirmation" : null, requestCancellation: false };
  if (trigger === "timeout" || reAuditCount >= MAX_RE_AUDITS)
    return { status: "pre_cancel", email: null, requestCancellation: true };
  if (trigger === "update") return { status: "pending_reply", email: "follow_up", requestCancellation: false };
  return { status: "hitl_review", email: null, requestCancellation: false };
}

/** Which checks a re-audit repeats: the failed ones, or just the one a reply speaks of. */
export function checksToReAudit(failedChecks: readonly CheckKind[], mentioned?: CheckKind): CheckKind[] {
  if (mentioned && failedChecks.includes(mentioned)) return [mentioned];
  return failedChecks.length > 0 ? [...failedChecks] : [...CHECK_KINDS];
}

/**
 * Each status in the words people read, the one definition: `label` heads a list or a field in Slack
 * and the CLI ("Needs a person"); `words` ends a sentence ("CASE-1 is waiting for a person to review it").
 */
const STATUS_WORDING: Record<CaseStatus, { label: string; words: string }> = {
  open: { label: "Open", words: "open" },
  verification: { label: "Verifying", words: "being verified" },
  pending_reply: { label: "Waiting for riders", words: "waiting for the riders' replies" },
  re_audit: { label: "Re-auditing", words: "being re-audited" },
  hitl_review: { label: "Needs a person", words: "waiting for a person to review it" },
  pre_cancel: { label: "Cancellation pending", words: "waiting for an approver to decide on cancellation" },
  resolved: { label: "Resolved", words: "resolved" },
  cancelled: { label: "Cancelled", words: "cancelled" },
};

/** Each status as people read it, in Slack and the CLI. */
export const STATUS_LABEL: Record<string, string> = Object.fromEntries(
  Object.entries(STATUS_WORDING).map(([status, { label }]) => [status, label]),
);

/** A status as a sentence says it, after "is": "waiting for the riders' replies"; never a snake_case name. */
export function statusInWords(status: string | null | undefined): string {
  if (!status) return "unknown";
  return STATUS_WORDING[status as CaseStatus]?.words ?? status.replace(/_/g, " ");
}
