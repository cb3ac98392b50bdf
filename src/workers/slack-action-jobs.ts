// Carries out the Slack requests the listeners queued (slack-actions.ts), one job each.

import { type ApprovalDeps, createApprovalWork } from "../bot/listeners/actions/approvals.js";
import { createCaseActionWork } from "../bot/listeners/actions/case-actions.js";
import { createConversationWork } from "../bot/listeners/events/conversation.js";
import type { SlackAction } from "../bot/listeners/slack-actions.js";
import type { JobEngine } from "../queue/engine.js";
import { QUEUES } from "../queue/queues.js";
import { answerOnce } from "../slack/answer-once.js";
import type { createDigest } from "../slack/digest.js";
import type { Report } from "../slack/report.js";

export interface SlackActionWorkerDeps extends ApprovalDeps {
  messages: ApprovalDeps["messages"];
  digest: ReturnType<typeof createDigest>;
  report: Report;
  concurrency: number;
  /** Every answer through a response URL gives up after this long. */
  timeoutMs?: number;
}

export async function registerSlackActionJobs(engine: JobEngine, deps: SlackActionWorkerDeps): Promise<void> {
  const approvals = createApprovalWork(deps);
  const cases = createCaseActionWork(deps);
  const conversation = createConversationWork(deps);
  const answers = { prisma: deps.ctx.deps.prisma, log: deps.ctx.log.warn, timeoutMs: deps.timeoutMs };
  await engine.work<SlackAction>(
    QUEUES.slackAction,
    async (job) => {
      // A retry follows an attempt that may have done part of the work before it failed or its process died.
      const retried = job.retryCount > 0;
      const action = job.data;
      // One answer per job: a retry after an answer that reached Slack does not answer again.
      const respond = (url: string, text: string) => answerOnce(answers, `slack-action:${job.id}`, url, text);
      switch (action.kind) {
        case "digest":
          return respond(action.responseUrl, await deps.digest.post(false, `command:${action.key}`));
        case "report": {
          const { key, label } = action;
          const window = { since: new Date(action.since), until: new Date(action.until) };
          return respond(action.responseUrl, await deps.report.post({ key, label, ...window }));
        }
        case "question":
          return conversation.answer(action, job.id);
        case "close-resolved":
        case "email-draft":
          return cases.run(action, retried);
        default:
          return approvals.run(action, retried);
      }
    },
    { concurrency: deps.concurrency },
  );
}
