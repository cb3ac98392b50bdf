import type { AgentDeps } from "../agents/deps.js";
import { recordEvent } from "../data/audit-log.js";
import { withLease } from "../data/case-lease.js";
import { getCase } from "../data/case-repository.js";
import { isReplyOverdue, replyDueAt } from "../domain/case-lifecycle.js";
import { replyTimeoutKey } from "../queue/queues.js";
import { type CaseManagerResult, type CaseManagerRunner, caseThreadId } from "./case-manager-run.js";

export function createTimeouts(deps: AgentDeps, { runCaseManager, taskCase, changed }: CaseManagerRunner) {
  /** Runs the reply timeout of a case if it is still due at `now`: a reply or a newer email supersedes it. */
  async function replyTimeout(caseId: string, now: Date, sentAt?: Date): Promise<CaseManagerResult> {
    const { vanpool_id } = await getCase(deps.prisma, caseId);
    return withLease(deps.pool, `vanpool:${vanpool_id}`, async () => {
      const record = await getCase(deps.prisma, caseId);
      const superseded = sentAt && record.last_outbound_at?.getTime() !== sentAt.getTime();
      if (superseded || !isReplyOverdue(record.status, record.last_outbound_at, now, record.reply_extended_until))
        return {
          vanpool_id: record.vanpool_id,
          case_id: record.case_id,
          status: record.status,
          outcome: record.outcome,
          reasoning: "Handled meanwhile.",
          tools_used: [],
        };
      await recordEvent(deps.prisma, {
        actor: "scheduler",
        action: "case.reply_timeout",
        subjectType: "case",
        subjectId: record.case_id,
        at: now,
        details: { last_outbound_at: record.last_outbound_at },
      });
      // Keyed like its job: the job's retry and a `tick` re-audit this timeout once.
      const due = replyDueAt(record.last_outbound_at!, record.reply_extended_until);
      const result = await runCaseManager(
        { task: "timeout", vanpool_id: record.vanpool_id, case: taskCase(record) },
        caseThreadId(record.case_id),
        replyTimeoutKey(record.case_id, record.last_outbound_at!, due),
      );
      await changed(record.case_id);
      return result;
    });
  }

  return { replyTimeout };
}
