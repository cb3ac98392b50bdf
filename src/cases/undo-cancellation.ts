// Undo of a carried-out cancellation, for POOLPATROL_UNDO_MINUTES after it was carried
// out: the removed riders are reinstated, each gets a retraction email (the removal
// notice is withheld if it has not gone yet), and the case is recorded as resolved.
// Claimed once: a second click, or a second process, finds nothing left to undo.
import type { AgentDeps } from "../agents/deps.js";
import { removalNoticeKey } from "../agents/outreach/removal-notices.js";
import { retractionEmail } from "../agents/outreach/templates.js";
import { type ApprovalRecord, claimUndo, getApproval } from "../data/approval-repository.js";
import { recordEvent } from "../data/audit-log.js";
import { getCase, markCancellationUndone } from "../data/case-repository.js";
import { discardQueued } from "../data/email-repository.js";
import { findEmployeeContacts } from "../data/employee-repository.js";
import { reinstateRiders } from "../data/rider-repository.js";
import { AppError, invalidInput } from "../errors.js";
import { caseJobs } from "../jobs/queues.js";
import { withLease } from "./case-lease.js";
import { emailServiceDeps, sendCaseEmail } from "./email-service.js";

/** Until when a carried-out cancellation can be undone; null when it cannot (not a removal, not carried out). */
export function undoUntil(approval: ApprovalRecord, minutes: number): Date | null {
  if (approval.kind !== "cancellation" || approval.status !== "approved" || !approval.applied_at) return null;
  return new Date(approval.applied_at.getTime() + minutes * 60_000);
}

export interface UndoResult {
  case_id: string;
  reinstated: string[];
  /** Riders whose removal notice had not gone yet and was withheld. */
  withheld: string[];
}

export async function undoCancellation(
  deps: AgentDeps,
  input: { approvalId: string; actor: string },
): Promise<UndoResult> {
  const approval = await getApproval(deps.prisma, input.approvalId);
  const until = undoUntil(approval, deps.settings.undoMinutes);
  if (!until) throw invalidInput("Only a cancellation that removed riders can be undone. Nothing was changed.");
  const now = deps.now();
  if (now > until)
    throw invalidInput(
      `The ${deps.settings.undoMinutes} minutes to undo this cancellation are over; it stays as decided. Nothing was changed.`,
    );
  const record = await getCase(deps.prisma, approval.case_id);
  const result = await withLease(deps.pool, `vanpool:${record.vanpool_id}`, async () => {
    const reinstated = await claimUndo(deps.prisma, { approvalId: approval.approval_id, actor: input.actor, now });
    if (reinstated.length === 0)
      throw new AppError("conflict", "This cancellation was already undone. Nothing was changed.");
    await reinstateRiders(deps.prisma, record.vanpool_id, reinstated);
    const withheld: string[] = [];
    for (const rider of await findEmployeeContacts(deps.prisma, reinstated)) {
      const noticeWithheld = await discardQueued(deps.prisma, removalNoticeKey(record.case_id, rider.id));
      if (noticeWithheld) withheld.push(rider.id);
      const draft = retractionEmail({ first_name: rider.firstName, vanpool_id: record.vanpool_id }, !noticeWithheld);
      await sendCaseEmail(emailServiceDeps(deps), {
        caseId: record.case_id,
        vanpoolId: record.vanpool_id,
        to: [rider.email],
        subject: draft.subject,
        body: draft.body,
        idempotencyKey: `${record.case_id}:retraction:${rider.id}`,
        actor: `person:${input.actor}`,
        now,
      });
      await recordEvent(deps.prisma, {
        actor: `person:${input.actor}`,
        action: "rider.reinstated",
        subjectType: "case",
        subjectId: record.case_id,
        at: now,
        details: {
          employee_id: rider.id,
          approval_id: approval.approval_id,
          removal_notice: noticeWithheld ? "withheld" : "already sent",
        },
      });
    }
    await markCancellationUndone(deps.prisma, record.case_id, { actor: `person:${input.actor}`, now, reinstated });
    return { case_id: record.case_id, reinstated, withheld };
  });
  if (deps.jobs) await caseJobs(deps.jobs).syncCase(record.case_id);
  return result;
}
