// From what is stored about a case to what its cards show: each rider's failing facts,
// their latest reply and whether it was answered, and why the case reached a cancellation.
import { createHash } from "node:crypto";
import type { ApprovalRecord } from "../../data/approval-repository.js";
import type { CaseCardData } from "../../data/case-card-repository.js";
import { MAX_RE_AUDITS, replyDeadline } from "../../domain/case-lifecycle.js";
import type { ApprovalCardFacts, CardRider, PreCancelReason } from "./approval-card.js";
import { departedInWords, riderFailingFacts } from "./rider-evidence.js";

export function firstNames(data: Pick<CaseCardData, "people">): Record<string, string> {
  return Object.fromEntries(data.people.map((p) => [p.employee_id, p.first_name]));
}

/** A flagged rider as a card shows them, with their latest reply (up to `until`: what a request was made on). */
export function cardRider(data: CaseCardData, employeeId: string, until?: Date): CardRider {
  const person = data.people.find((p) => p.employee_id === employeeId);
  const email = person?.email.toLowerCase();
  const reply = email
    ? data.emails
        .filter((m) => m.direction === "inbound" && m.from.toLowerCase() === email && (!until || m.at <= until))
        .at(-1)
    : undefined;
  const answer =
    reply &&
    data.emails.find(
      (m) => m.direction === "outbound" && m.at >= reply.at && m.to.some((to) => to.toLowerCase() === email),
    );
  return {
    employee_id: employeeId,
    first_name: person?.first_name ?? null,
    facts: riderFailingFacts(data.evidence, employeeId),
    reply: reply
      ? { message_id: reply.message_id, at: reply.at, body: reply.body, answered_at: answer?.at ?? null }
      : null,
  };
}

export function preCancelReason(data: CaseCardData): PreCancelReason {
  const { record, preCancel } = data;
  const failing = [...record.failed_checks];
  if (failing.includes("employment"))
    return { kind: "employment_ended", failing, departed: departedInWords(data.evidence.employment) };
  const afterTimeout = preCancel ? preCancel.afterTimeout : record.re_audit_count < MAX_RE_AUDITS;
  if (!afterTimeout) return { kind: "third_re_audit", count: Math.max(record.re_audit_count, MAX_RE_AUDITS), failing };
  const lastEmail = data.emails
    .filter((m) => m.direction === "outbound" && (!preCancel || m.at <= preCancel.at))
    .at(-1)?.at;
  const sentAt = lastEmail ?? record.last_outbound_at;
  return { kind: "deadline", deadline: sentAt ? replyDeadline(sentAt) : null, failing };
}

/**
 * The version of what a card shows: the case's status, evidence and email, and the request's draft.
 * A click carries the version it saw; a new reply or a new audit since changes it.
 */
export function evidenceVersion(data: CaseCardData, approval: ApprovalRecord): string {
  const { record } = data;
  const basis = {
    status: record.status,
    failed: record.failed_checks,
    flagged: record.flagged,
    re_audits: record.re_audit_count,
    evidence: data.evidence,
    emails: data.emails.map((m) => m.message_id),
    draft: approval.payload,
  };
  return createHash("sha256").update(JSON.stringify(basis)).digest("hex").slice(0, 12);
}

export function approvalCardFacts(
  data: CaseCardData,
  approval: ApprovalRecord,
  approvalsNeeded = 1,
): ApprovalCardFacts {
  const version = evidenceVersion(data, approval);
  if (approval.kind === "cancellation") {
    const ids = (approval.payload as { employee_ids?: string[] }).employee_ids ?? [];
    // A decided card stays as it was decided: a reply written after the decision is not shown on it.
    const until = approval.status === "pending" ? undefined : (approval.decided_at ?? undefined);
    return {
      riders: ids.map((id) => ({ ...cardRider(data, id, until), earlier: data.earlierCases.get(id) })),
      whyNow: preCancelReason(data),
      version,
      decisions: data.riderDecisions[approval.approval_id] ?? [],
      approvalsNeeded,
    };
  }
  const payload = approval.payload as { to?: string; reply_message_id?: string | null; reply_body?: string | null };
  const to = String(payload.to ?? "").toLowerCase();
  const sender = data.people.find((p) => p.email.toLowerCase() === to);
  if (!sender) return { riders: [], whyNow: null, version, decisions: [] };
  // One card, one request: a follow-up or a person's email shows what the rider had written when it was drafted,
  // never a later reply (that is a request of its own); a reply draft is about the reply it answers.
  const answersReply = Boolean(payload.reply_message_id || payload.reply_body);
  const rider = cardRider(data, sender.employee_id, answersReply ? undefined : approval.created_at);
  const answered = data.emails.find((m) => m.message_id === payload.reply_message_id);
  if (answered && rider.reply?.message_id !== answered.message_id)
    rider.reply = { message_id: answered.message_id, at: answered.at, body: answered.body, answered_at: null };
  return { riders: [rider], whyNow: null, version, decisions: [] };
}
