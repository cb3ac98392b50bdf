// What a click, a modal or a message asks for is a job, queued before Slack is
// acknowledged: once the person saw their click taken, the work is done even if this
// process dies a moment later (another process, or this one restarted, runs it). The job
// id comes from Slack's trigger or event id, so a redelivered request queues nothing new.
import type { JobEngine } from "../../queue/engine.js";
import { jobIdFor } from "../../queue/engine.js";
import { QUEUES } from "../../queue/queues.js";
import type { createDigest } from "../../slack/digest.js";
import type { SlackContext } from "../slack-context.js";
import { type ApprovalAction, type ApprovalDeps, createApprovalWork } from "./actions/approvals.js";
import { type CaseAction, createCaseActionWork } from "./actions/case-actions.js";
import { type ConversationAction, createConversationWork } from "./events/conversation.js";

export type DigestAction = { kind: "digest"; responseUrl: string; key: string };
export type SlackAction = ApprovalAction | CaseAction | ConversationAction | DigestAction;

/** Queues what a Slack request asks for; `key` is unique to the request (its trigger or event id). */
export async function queueSlackAction(ctx: SlackContext, key: string, action: SlackAction): Promise<void> {
  const jobs = ctx.deps.jobs;
  if (!jobs) throw new Error("Slack actions are carried out by the job engine; start the bot with it.");
  await jobs.send(QUEUES.slackAction, action, { id: jobIdFor(`slack:${key}`) });
}

export interface SlackActionWorkerDeps extends ApprovalDeps {
  messages: ApprovalDeps["messages"];
  digest: ReturnType<typeof createDigest>;
  concurrency: number;
}

export async function registerSlackActionJobs(engine: JobEngine, deps: SlackActionWorkerDeps): Promise<void> {
  const approvals = createApprovalWork(deps);
  const cases = createCaseActionWork(deps);
  const conversation = createConversationWork(deps);
  await engine.work<SlackAction>(
    QUEUES.slackAction,
    async (job) => {
      // A retry follows an attempt that may have done part of the work before it failed or its process died.
      const retried = job.retryCount > 0;
      const action = job.data;
      switch (action.kind) {
        case "digest":
          return respond(action.responseUrl, await deps.digest.post(false, `command:${action.key}`));
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

async function respond(url: string, text: string): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ response_type: "ephemeral", text }),
    signal: AbortSignal.timeout(15_000),
  });
  if (!response.ok) throw new Error(`Slack refused the answer to the response URL (HTTP ${response.status}).`);
}
