// Workers for the case queues: carrying out decisions, sending emails, reply
// timeouts, approval reminders and expiry, retention. They need no Slack, so a CLI
// command can run them too; what Slack should show is queued as Slack jobs.
import type { AgentDeps } from "../agents/deps.js";
import type { CaseWorkflow } from "../cases/case-workflow.js";
import { failAbandonedRuns } from "../data/agent-run-repository.js";
import { claimReminders, expirePendingBefore, getApproval } from "../data/approval-repository.js";
import { expiredCaseThreads } from "../data/checkpoint-repository.js";
import { findThread } from "../data/email-repository.js";
import { pruneKeptPosts } from "../data/slack-post-repository.js";
import { undoUntil } from "../domain/undo-window.js";
import { deliverCaseEmail, emailServiceDeps, giveUpOnEmail } from "../integrations/email/email-service.js";
import type { JobEngine } from "../queue/engine.js";
import { caseJobs, QUEUES } from "../queue/queues.js";
import { decisionNote } from "../slack/blocks/decision-note.js";

const HOUR = 3_600_000;

export interface CaseJobDeps {
  deps: AgentDeps;
  workflow: CaseWorkflow;
  log(line: string): void;
}

export async function registerCaseJobs(engine: JobEngine, { deps, workflow, log }: CaseJobDeps): Promise<void> {
  const jobs = caseJobs(engine);
  const concurrency = deps.settings.jobs.concurrency;
  const emailDeps = emailServiceDeps({ ...deps, jobs: engine });

  await engine.work<{ approvalId: string }>(
    QUEUES.applyDecision,
    async (job) => {
      const result = await workflow.applyDecision(await getApproval(deps.prisma, job.data.approvalId));
      const { approval } = result;
      await jobs.threadNote(approval.case_id, `decision:${approval.approval_id}`, decisionNote(approval, result.note));
      const undoEnds = undoUntil(approval, deps.settings.undoMinutes);
      if (undoEnds) await jobs.syncCaseAt(approval.case_id, undoEnds);
      return { note: result.note };
    },
    { concurrency },
  );

  await engine.work<{ messageId: string; actor: string }>(
    QUEUES.sendEmail,
    async (job) => {
      try {
        const sent = await deliverCaseEmail(emailDeps, job.data.messageId, job.data.actor, deps.now());
        // The case thread tells every email sent (thread-story.ts): the sync posts its line.
        const thread = await findThread(deps.prisma, sent.thread_id);
        if (thread?.case_id && sent.status === "sent") await jobs.syncCase(thread.case_id);
      } catch (error) {
        if (job.retryCount >= job.retryLimit) {
          const failed = await giveUpOnEmail(emailDeps, job.data.messageId, (error as Error).message, deps.now());
          if (failed) {
            await jobs.syncCase(failed.caseId);
            await jobs.threadNote(
              failed.caseId,
              `email-failed:${job.data.messageId}`,
              `⚠️ ${capitalise(failed.reason)}.`,
            );
          }
        }
        throw error;
      }
    },
    { concurrency },
  );

  await engine.work<{ caseId: string; lastOutboundAt: string }>(
    QUEUES.replyTimeout,
    async (job) => {
      const result = await workflow.replyTimeout(job.data.caseId, deps.now(), new Date(job.data.lastOutboundAt));
      return { status: result.status, note: result.reasoning };
    },
    { concurrency },
  );

  await engine.work<{ slot: string }>(QUEUES.approvalsDue, async () => {
    const now = deps.now();
    const { reminderHours, approvalExpiryHours } = deps.settings.schedule;
    const expired = await expirePendingBefore(deps.prisma, {
      cutoff: new Date(now.getTime() - approvalExpiryHours * HOUR),
      now,
      note: `No decision within ${approvalExpiryHours} h; nothing was done.`,
    });
    for (const approval of expired) {
      await jobs.syncCase(approval.case_id);
      await jobs.threadNote(
        approval.case_id,
        `expired:${approval.approval_id}`,
        `⌛ ${approval.approval_id} expired after ${approvalExpiryHours} h without a decision. Nothing was done; the case stays as it is.`,
      );
    }
    const reminded = await claimReminders(deps.prisma, { cutoff: new Date(now.getTime() - reminderHours * HOUR), now });
    for (const approval of reminded)
      await jobs.threadNote(
        approval.case_id,
        `reminder:${approval.approval_id}`,
        `⏰ Reminder: ${approval.approval_id} has waited ${Math.floor((now.getTime() - approval.created_at.getTime()) / HOUR)} h for an approver.`,
      );
    // Replies whose reading never finished are read again here, not only when Resend delivers them again.
    const stranded = await workflow.readStrandedReplies(now);
    return { expired: expired.length, reminded: reminded.length, ...stranded };
  });

  await engine.work<{ slot: string }>(QUEUES.retention, async () => {
    const days = deps.settings.jobs.checkpointRetentionDays;
    const cutoff = new Date(deps.now().getTime() - days * 24 * HOUR);
    const threads = await expiredCaseThreads(deps.pool, cutoff);
    for (const threadId of threads) await deps.checkpointer.deleteThread(threadId);
    if (threads.length > 0)
      log(`retention: deleted ${threads.length} checkpoint thread(s) of cases closed ${days}+ days`);
    const keptPosts = await pruneKeptPosts(deps.prisma, cutoff);
    return { deletedThreads: threads.length, deletedPostRecords: keptPosts };
  });
}

/**
 * On start: agent runs still `running` long after any live process would have finished them
 * belong to a crashed process. They are marked failed, and their case is queued for a Slack
 * sync so people see where it stands.
 */
export async function recoverAbandonedRuns(
  engine: JobEngine,
  deps: Pick<AgentDeps, "now" | "prisma" | "settings">,
): Promise<number> {
  const now = deps.now();
  const abandoned = await failAbandonedRuns(deps.prisma, {
    cutoff: new Date(now.getTime() - Math.max(15 * 60_000, 10 * deps.settings.modelTimeoutMs)),
    now,
  });
  const jobs = caseJobs(engine);
  for (const caseId of new Set(abandoned.flatMap((r) => (r.caseId ? [r.caseId] : [])))) await jobs.syncCase(caseId);
  return abandoned.length;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
