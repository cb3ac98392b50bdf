// Undo of a carried-out cancellation, for POOLPATROL_UNDO_MINUTES after it was carried
// out: the removed riders are reinstated, each gets a retraction email (the removal
// notice is withheld if it has not gone yet), and the case goes back to a person to decide again
// (keep them with an exception, or propose removal again later; docs/exceptions.md).
// Claimed once: a second click, or a second process, finds nothing left to undo. A run
// killed halfway is finished by the next one: the retraction emails are keyed per rider.
import type { AgentDeps } from "../agents/deps.js";
import { removalNoticeKey } from "../agents/outreach/removal-notices.js";
import { retractionEmail } from "../agents/outreach/templates.js";
import { getApproval } from "../data/approval-repository.js";
import { undoMemberships } from "../data/cancellation-repository.js";
import { withLease } from "../data/case-lease.js";
import { getCase } from "../data/case-repository.js";
import { findEmployeeContacts } from "../data/employee-repository.js";
import { undoUntil } from "../domain/undo-window.js";
import { AppError, invalidInput } from "../errors.js";
import { emailServiceDeps, sendCaseEmail } from "../integrations/email/email-service.js";
import { caseJobs } from "../queue/queues.js";

export interface UndoResult {
  case_id: string;
  reinstated: string[];
  /** Riders whose removal notice had not gone yet and was withheld. */
  withheld: string[];
  /** The approver who undid it; when `already`, an earlier run did (a second click, or a run killed halfway). */
  undoneBy: string;
  already: boolean;
}

export async function undoCancellation(
  deps: Pick<AgentDeps, "jobs" | "now" | "pool" | "prisma" | "sender" | "settings">,
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
  const result = await withLease(deps, `vanpool:${record.vanpool_id}`, async () => {
    const undone = await undoMemberships(deps.prisma, {
      approvalId: approval.approval_id,
      caseId: record.case_id,
      noticeKey: (employeeId) => removalNoticeKey(record.case_id, employeeId),
      actor: input.actor,
      now,
    });
    if (undone.riders.length === 0)
      throw new AppError(
        "conflict",
        "This cancellation removed no one; there is nothing to undo. Nothing was changed.",
      );
    // Whichever run claimed the undo, the retractions are queued (again, keyed per rider: each goes once).
    for (const rider of await findEmployeeContacts(
      deps.prisma,
      undone.riders.map((r) => r.employee_id),
    )) {
      const withheld = undone.riders.some((r) => r.employee_id === rider.id && r.notice_withheld);
      const draft = retractionEmail({ first_name: rider.firstName, vanpool_id: record.vanpool_id }, !withheld);
      await sendCaseEmail(emailServiceDeps(deps), {
        caseId: record.case_id,
        vanpoolId: record.vanpool_id,
        to: [rider.email],
        subject: draft.subject,
        body: draft.body,
        idempotencyKey: `${record.case_id}:retraction:${rider.id}`,
        actor: `person:${undone.undoneBy}`,
        now,
      });
    }
    return {
      case_id: record.case_id,
      reinstated: undone.riders.map((r) => r.employee_id),
      withheld: undone.riders.filter((r) => r.notice_withheld).map((r) => r.employee_id),
      undoneBy: undone.undoneBy,
      already: !undone.claimed,
    };
  });
  if (deps.jobs) await caseJobs(deps.jobs).syncCase(record.case_id);
  return result;
}
