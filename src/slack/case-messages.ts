// Keeps Slack in step with a case: posts (or updates in place) its alert in the
// audit channel, posts approval cards in the alert's thread, and rebuilds a card
// once decided. Where each message lives is stored on the case / approval row.
import { listApprovals } from "../data/approval-repository.js";
import { findCaseCardData } from "../data/case-card-repository.js";
import { getCase } from "../data/case-repository.js";
import { approvalCard } from "./blocks/approval-card.js";
import { approvalCardFacts, firstNames } from "./blocks/card-facts.js";
import { caseAlert } from "./blocks/case-alert.js";
import type { SlackContext } from "./slack-context.js";

export function createCaseMessages(ctx: Pick<SlackContext, "deps" | "client" | "slack">) {
  const { prisma } = ctx.deps;

  async function syncCaseAlert(caseId: string): Promise<{ channel: string; ts: string }> {
    const data = await findCaseCardData(prisma, caseId);
    const message = caseAlert({
      record: data.record,
      vanpoolName: data.vanpoolName,
      results: data.evidence,
      firstNames: firstNames(data),
      statusSince: data.statusSince,
    });
    const row = await prisma.case.findUniqueOrThrow({
      where: { id: caseId },
      select: { slackChannel: true, slackTs: true },
    });
    if (row.slackChannel && row.slackTs) {
      await ctx.client.chat.update({ channel: row.slackChannel, ts: row.slackTs, ...message });
      return { channel: row.slackChannel, ts: row.slackTs };
    }
    const posted = await ctx.client.chat.postMessage({
      channel: ctx.slack.auditChannel,
      ...message,
      unfurl_links: false,
    });
    await prisma.case.update({ where: { id: caseId }, data: { slackChannel: posted.channel!, slackTs: posted.ts! } });
    return { channel: posted.channel!, ts: posted.ts! };
  }

  /** The alert, then a card for each pending approval not yet in Slack, and refreshed cards for decided ones. */
  async function syncCase(caseId: string): Promise<void> {
    const alert = await syncCaseAlert(caseId);
    const record = await getCase(prisma, caseId);
    const data = await findCaseCardData(prisma, caseId);
    for (const approval of await listApprovals(prisma, { caseId })) {
      const row = await prisma.approvalRequest.findUniqueOrThrow({
        where: { id: approval.approval_id },
        select: { slackChannel: true, slackTs: true },
      });
      if (!row.slackTs && approval.status === "pending") {
        const card = approvalCard(approval, record.vanpool_id, { facts: approvalCardFacts(data, approval) });
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
        await ctx.client.chat.update({
          channel: row.slackChannel,
          ts: row.slackTs,
          ...approvalCard(approval, record.vanpool_id, { facts: approvalCardFacts(data, approval) }),
        });
      }
    }
  }

  async function postInThread(caseId: string, text: string): Promise<void> {
    const alert = await syncCaseAlert(caseId);
    await ctx.client.chat.postMessage({ channel: alert.channel, thread_ts: alert.ts, text });
  }

  return { syncCase, syncCaseAlert, postInThread };
}

export type CaseMessages = ReturnType<typeof createCaseMessages>;
