// Keeps Slack in step with a case: posts (or updates in place) its alert in the
// audit channel (or, for a case a sweep opened, in the sweep summary's thread), posts approval
// cards in the alert's thread, and rebuilds a card whenever what it shows changes. Where each
// message lives is stored on the case / approval row; a message deleted in Slack is posted again.
// Each post is made once across crashes and replicas (post-once.ts), work on one case's messages
// is serialised across processes, and posts are paced per channel across processes.
import type { KnownBlock } from "@slack/types";
import type { ChatPostMessageArguments, ChatUpdateArguments } from "@slack/web-api";
import { type ApprovalRecord, listApprovals } from "../data/approval-repository.js";
import { findCaseCardData } from "../data/case-card-repository.js";
import { withLease } from "../data/case-lease.js";
import { getCase } from "../data/case-repository.js";
import {
  approvalCardLocation,
  caseAlertLocation,
  type SlackLocation,
  setApprovalCardLocation,
  setCaseAlertLocation,
} from "../data/slack-message-repository.js";
import { undoUntil } from "../domain/undo-window.js";
import { type AnswerFeed, type AnswerPlace, postAnswerOnce } from "./answer-stream.js";
import { approvalCard } from "./blocks/approval-card.js";
import { approvalCardFacts, firstNames } from "./blocks/card-facts.js";
import { caseAlert } from "./blocks/case-alert.js";
import type { SlackMessage } from "./blocks/format.js";
import { threadStory } from "./blocks/thread-story.js";
import type { ChannelContext } from "./channel-context.js";
import { channelPacerFor } from "./channel-pacer.js";
import { type PostOnceDeps, postKeptOnce, postOnce } from "./post-once.js";
import { sweepThread } from "./sweep-summary-post.js";
import { updateInPlace } from "./update-in-place.js";

export function createCaseMessages(ctx: ChannelContext, options: { channelIntervalMs?: number } = {}) {
  const { prisma } = ctx.deps;
  const pacer = channelPacerFor(ctx, options.channelIntervalMs);
  const once: PostOnceDeps = { prisma, client: ctx.client, pacer, holdMs: ctx.deps.settings.claimMs };

  const update = (args: ChatUpdateArguments) => updateInPlace(ctx.client, pacer, args);

  /** A case a sweep opened (its actor is "sweep:<id>") has its alert in that sweep's summary thread. */
  async function homeOf(openedBy: unknown): Promise<SlackLocation | undefined> {
    if (typeof openedBy !== "string" || !openedBy.startsWith("sweep:")) return undefined;
    return sweepThread(once, ctx.slack.auditChannel, openedBy.slice("sweep:".length));
  }

  /** `thread`: where a new alert goes instead of the channel (a sweep's summary thread). */
  async function syncAlert(caseId: string, thread?: SlackLocation): Promise<SlackLocation> {
    const data = await findCaseCardData(prisma, caseId);
    const message = caseAlert({
      record: data.record,
      vanpoolName: data.vanpoolName,
      results: data.evidence,
      firstNames: firstNames(data),
      statusSince: data.statusSince,
      earlierExceptions: data.earlierExceptions,
      earlierCases: data.earlierCases,
      pageUrl: `${ctx.slack.webUrl}/web/cases/${caseId}`,
    });
    const where = await caseAlertLocation(prisma, caseId);
    if (where && (await update({ ...where, ...message }))) return where;
    const home = thread ?? (await homeOf(data.record.meta.opened_by));
    return postOnce(once, {
      key: `alert:${caseId}`,
      args: {
        channel: home?.channel ?? ctx.slack.auditChannel,
        ...(home ? { thread_ts: home.ts } : {}),
        ...message,
        unfurl_links: false,
      },
      // A location stored meanwhile is news only if it is not the one Slack just said is gone.
      posted: async () => {
        const now = await caseAlertLocation(prisma, caseId);
        return now && now.ts !== where?.ts ? now : undefined;
      },
      record: (at) => setCaseAlertLocation(prisma, caseId, at),
    });
  }

  const oneAtATime = <T>(caseId: string, work: () => Promise<T>) => withLease(ctx.deps, `slack:${caseId}`, work);

  /** The alert, then a card for each pending approval not yet in Slack, and refreshed cards for decided ones. */
  async function syncCase(caseId: string, options: { thread?: SlackLocation } = {}): Promise<void> {
    await oneAtATime(caseId, async () => {
      const alert = await syncAlert(caseId, options.thread);
      const record = await getCase(prisma, caseId);
      const data = await findCaseCardData(prisma, caseId);
      // The thread tells what happened by email, each line once (before the cards it may have led to).
      for (const line of threadStory(data))
        await postKeptOnce(once, line.key, { channel: alert.channel, thread_ts: alert.ts, text: line.text });
      for (const approval of await listApprovals(prisma, { caseId })) {
        const where = await approvalCardLocation(prisma, approval.approval_id);
        const facts = approvalCardFacts(data, approval, ctx.deps.settings.cancelApprovals);
        const until = undoUntil(approval, ctx.deps.settings.undoMinutes);
        if (until && until > ctx.deps.now() && facts.decisions?.some((d) => d.outcome === "removed"))
          facts.undoUntil = until;
        const card = approvalCard(approval, record.vanpool_id, { facts });
        // Pending cards are refreshed too: a rider decided, a first approval, a new reply or audit.
        if (where ? !(await update({ ...where, ...card })) : approval.status === "pending")
          await postCard(alert, card, approval);
      }
    });
  }

  async function postCard(alert: SlackLocation, card: SlackMessage, approval: ApprovalRecord): Promise<void> {
    const gone = await approvalCardLocation(prisma, approval.approval_id);
    // Posted in the case thread and shown in the channel too, so approvers see it.
    await postOnce(once, {
      key: `card:${approval.approval_id}`,
      args: { channel: alert.channel, thread_ts: alert.ts, reply_broadcast: approval.status === "pending", ...card },
      posted: async () => {
        const now = await approvalCardLocation(prisma, approval.approval_id);
        return now && now.ts !== gone?.ts ? now : undefined;
      },
      record: (at) => setApprovalCardLocation(prisma, approval.approval_id, at),
    });
  }

  /** Where the case's alert is now, posting it first if Slack does not have it yet. */
  async function syncCaseAlert(caseId: string, options: { thread?: SlackLocation } = {}): Promise<SlackLocation> {
    return oneAtATime(caseId, () => syncAlert(caseId, options.thread));
  }

  /** `key`: names the note for good (a job's id, a click), so a retry does not post it twice. */
  async function postInThread(caseId: string, text: string, key: string): Promise<void> {
    const alert = await syncCaseAlert(caseId);
    await postKeptOnce(once, `note:${key}`, { channel: alert.channel, thread_ts: alert.ts, text });
  }

  /** A message of its own (an answer, a notice), posted once for `key` and paced with the case messages. */
  const postKept = (key: string, args: ChatPostMessageArguments) => postKeptOnce(once, key, args);

  /** A Case Manager answer, streamed into its thread as it is written, once for `key`, paced with the case messages. */
  const postAnswer = (key: string, place: AnswerPlace, answer: AnswerFeed, after: () => Promise<KnownBlock[]>) =>
    postAnswerOnce(once, key, place, answer, after);

  return { syncCase, syncCaseAlert, postInThread, postKept, postAnswer };
}

export type CaseMessages = ReturnType<typeof createCaseMessages>;
