// Keeps Slack in step with a case: posts (or updates in place) its alert in the
// audit channel, posts approval cards in the alert's thread, and rebuilds a card
// once decided. Where each message lives is stored on the case / approval row.
import { type ApprovalRecord, listApprovals } from "../data/approval-repository.js";
import { getCase } from "../data/case-repository.js";
import { findLatestResults } from "../data/verification-repository.js";
import { approvalCard } from "./blocks/approval-card.js";
import { caseAlert } from "./blocks/case-alert.js";
import type { SlackContext } from "./slack-context.js";

export function createCaseMessages(ctx: Pick<SlackContext, "deps" | "client" | "slack">) {
  const { prisma } = ctx.deps;

  /** `thread`: where a new alert goes instead of the channel (a sweep's summary thread). */
  async function syncCaseAlert(
    caseId: string,
    options: { thread?: { channel: string; ts: string } } = {},
  ): Promise<{ channel: string; ts: string }> {
    const record = await getCase(prisma, caseId);
    const [results, vanpool] = await Promise.all([
      findLatestResults(prisma, record.vanpool_id),
      prisma.vanpool.findUnique({ where: { id: record.vanpool_id }, select: { name: true } }),
    ]);
    const message = caseAlert({ record, vanpoolName: vanpool?.name ?? null, results });
    const row = await prisma.case.findUniqueOrThrow({
      where: { id: caseId },
      select: { slackChannel: true, slackTs: true },
    });
    if (row.slackChannel && row.slackTs) {
      await ctx.client.chat.update({ channel: row.slackChannel, ts: row.slackTs, ...message });
      return { channel: row.slackChannel, ts: row.slackTs };
    }
    const posted = await ctx.client.chat.postMessage({
      channel: options.thread?.channel ?? ctx.slack.auditChannel,
      ...(options.thread ? { thread_ts: options.thread.ts } : {}),
      ...message,
      unfurl_links: false,
    });
    await prisma.case.update({ where: { id: caseId }, data: { slackChannel: posted.channel!, slackTs: posted.ts! } });
    return { channel: posted.channel!, ts: posted.ts! };
  }

  /** The alert, then a card for each pending approval not yet in Slack, and refreshed cards for decided ones. */
  async function syncCase(caseId: string, options: { thread?: { channel: string; ts: string } } = {}): Promise<void> {
    const alert = await syncCaseAlert(caseId, options);
    const record = await getCase(prisma, caseId);
    for (const approval of await listApprovals(prisma, { caseId })) {
      const row = await prisma.approvalRequest.findUniqueOrThrow({
        where: { id: approval.approval_id },
        select: { slackChannel: true, slackTs: true },
      });
      if (!row.slackTs && approval.status === "pending") {
        const card = approvalCard(approval, record.vanpool_id);
        // Posted in the case thread and shown in the channel too, so approvers see it.
        const posted = await ctx.client.chat.postMessage({
          channel: alert.channel,
          thread_ts: alert.ts,
          reply_broadcast: true,
          ...card,
        });
        await prisma.approvalRequest.update({
          where: { id: approval.approval_id },
          data: { slackChannel: posted.channel!, slackTs: posted.ts! },
        });
      } else if (row.slackTs && row.slackChannel && approval.status !== "pending") {
        await refreshCard(approval, row.slackChannel, row.slackTs, record.vanpool_id);
      }
    }
  }

  async function refreshCard(approval: ApprovalRecord, channel: string, ts: string, vanpoolId: string): Promise<void> {
    await ctx.client.chat.update({ channel, ts, ...approvalCard(approval, vanpoolId) });
  }

  async function postInThread(caseId: string, text: string): Promise<void> {
    const alert = await syncCaseAlert(caseId);
    await ctx.client.chat.postMessage({ channel: alert.channel, thread_ts: alert.ts, text });
  }

  return { syncCase, syncCaseAlert, postInThread };
}

export type CaseMessages = ReturnType<typeof createCaseMessages>;
