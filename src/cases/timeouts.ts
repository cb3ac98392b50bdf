import type { AgentDeps } from "../agents/deps.js";
import { listApprovals } from "../data/approval-repository.js";
import { recordEvent } from "../data/audit-log.js";
import { withLease } from "../data/case-lease.js";
import { getCase } from "../data/case-repository.js";
import { isReplyOverdue, replyDueAt } from "../domain/case-lifecycle.js";
import { replyTimeoutKey } from "../queue/queues.js";
import { type CaseManagerResult, type CaseManagerRunner, caseThreadId } from "./case-manager-run.js";

export function createTimeouts(
  deps: Pick<AgentDeps, "pool" | "prisma" | "settings">,
  { runCaseManager, taskCase, changed }: CaseManagerRunner,
) {
  /**
   * Runs the reply timeout of a case if it is still due at `now`: a reply or a newer email supersedes it. A retry
   * after a run that died between proposing the cancellation and storing its request proposes it (once).
   */
  async function replyTimeout(caseId: string, now: Date, sentAt?: Date): Promise<CaseManagerResult> {
    const { vanpool_id } = await getCase(deps.prisma, caseId);
    return withLease(deps, `vanpool:${vanpool_id}`, async () => {
      const record = await getCase(deps.prisma, caseId);
      const lastSent = record.last_outbound_at;
      const current = lastSent !== null && (!sentAt || lastSent.getTime() === sentAt.getTime());
      const due = current && isReplyOverdue(record.status, lastSent, now, record.reply_extended_until);
      const unproposed = current && record.status === "pre_cancel" && !(await hasCancellationRequest(record.case_id));
      if (!due && !unproposed)
        return {
          vanpool_id: record.vanpool_id,
          case_id: record.case_id,
          status: record.status,
          outcome: record.outcome,
          reasoning: "Handled meanwhile.",
          tools_used: [],
        };
      if (due)
        await recordEvent(deps.prisma, {
          actor: "scheduler",
          action: "case.reply_timeout",
          subjectType: "case",
          subjectId: record.case_id,
          at: now,
          details: { last_outbound_at: lastSent },
        });
      // Keyed like its job: the job's retry and a `tick` re-audit this timeout once.
      const dueAt = replyDueAt(lastSent!, record.reply_extended_until);
      const result = await runCaseManager(
        { task: "timeout", vanpool_id: record.vanpool_id, case: taskCase(record) },
        caseThreadId(record.case_id),
        replyTimeoutKey(record.case_id, lastSent!, dueAt),
      );
      await changed(record.case_id);
      return result;
    });
  }

  /** Any cancellation request of the case, whatever became of it: a request expired unanswered is not proposed again. */
  async function hasCancellationRequest(caseId: string): Promise<boolean> {
    return (await listApprovals(deps.prisma, { caseId })).some((a) => a.kind === "cancellation");
  }

  return { replyTimeout };
}
