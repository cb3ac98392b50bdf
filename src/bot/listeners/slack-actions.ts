// What a click, a modal or a message asks for is a job, queued before Slack is
// acknowledged: once the person saw their click taken, the work is done even if this
// process dies a moment later (another process, or this one restarted, runs it). The job
// id comes from Slack's trigger or event id, so a redelivered request queues nothing new.
import type { ExceptionChoice } from "../../domain/exceptions.js";
// The job is queued only if the database takes it before the ack's deadline (before-ack.ts).
import type { RiderChoice } from "../../domain/rider-decisions.js";
import { jobIdFor } from "../../queue/engine.js";
import { QUEUES } from "../../queue/queues.js";
import type { ClickPlace } from "../../slack/tell-clicker.js";
import type { SlackContext } from "../slack-context.js";

/** A decision taken in Slack, carried out by its job. `value` is the clicked button's value. */
export type ApprovalAction =
  | { kind: "approve"; place: ClickPlace; value: string }
  | { kind: "rider"; choice: RiderChoice; place: ClickPlace; value: string }
  | { kind: "undo"; place: ClickPlace; approvalId: string }
  | {
      kind: "modal-decision";
      userId: string;
      value: string;
      /** `keep`: Keep … on one rider of a cancellation (the button's value names them). */
      decision: "edit" | "reject" | "keep";
      body?: string;
      reason?: string;
      /** Keep everyone, Keep …: why the riders are kept, and for how long. */
      exception?: ExceptionChoice;
    };

/** What a "needs a person" modal asks for, carried out by its job. */
export type CaseAction =
  | {
      kind: "close-resolved";
      key: string;
      userId: string;
      caseId: string;
      reason: string;
      /** Why the riders still flagged are kept (docs/exceptions.md). */
      exception?: ExceptionChoice;
    }
  | { kind: "email-draft"; key: string; userId: string; caseId: string; employeeId: string; body: string };

export interface Asked {
  channel: string;
  /** Where the answer goes; undefined answers a DM at the top level. */
  threadTs: string | undefined;
  conversationId: string;
  caseId: string | null;
  userId: string;
  /** The asker's team: Slack streams an answer in a channel to one person of one team. */
  teamId?: string;
  text: string;
}

export type ConversationAction = { kind: "question"; asked: Asked };

export type DigestAction = { kind: "digest"; responseUrl: string; key: string };
/** A report of [since, until) (ISO times, fixed when asked, so a retry reports the same window). */
export type ReportAction = {
  kind: "report";
  responseUrl: string;
  key: string;
  since: string;
  until: string;
  label: string;
};
export type SlackAction = ApprovalAction | CaseAction | ConversationAction | DigestAction | ReportAction;

/**
 * Queues what a Slack request asks for before `deadline` (see before-ack.ts), or throws; `key` is
 * unique to the request (its trigger or event id).
 */
export async function queueSlackAction(
  ctx: SlackContext,
  key: string,
  action: SlackAction,
  deadline: number,
): Promise<void> {
  const jobs = ctx.deps.jobs;
  if (!jobs) throw new Error("Slack actions are carried out by the job engine; start the bot with it.");
  await jobs.sendBy(deadline, QUEUES.slackAction, action, { id: jobIdFor(`slack:${key}`) });
}
