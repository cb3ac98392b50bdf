// The digest: posted by the digest job of each POOLPATROL_DIGEST_CRON slot, or on
// demand. A database row per slot makes it one post per slot across restarts, job
// retries and running instances.
import { replyDeadline } from "../domain/case-lifecycle.js";
import { digestMessage } from "./blocks/digest.js";
import { programFigures } from "./program-figures.js";
import type { SlackContext } from "./slack-context.js";

export function createDigest(ctx: SlackContext) {
  const { prisma } = ctx.deps;

  async function build(since: Date) {
    const now = ctx.deps.now();
    const [opened, pending, waiting, closed, figures, review] = await Promise.all([
      prisma.case.findMany({ where: { createdAt: { gte: since } }, orderBy: { createdAt: "asc" } }),
      prisma.approvalRequest.findMany({ where: { status: "pending" }, orderBy: { createdAt: "asc" } }),
      prisma.case.findMany({ where: { status: "pending_reply" }, orderBy: { lastOutboundAt: "asc" } }),
      prisma.case.findMany({ where: { status: { in: ["resolved", "cancelled"] }, resolvedAt: { gte: since } } }),
      programFigures(prisma, since),
      prisma.case.findMany({ where: { status: "hitl_review" }, orderBy: { updatedAt: "asc" } }),
    ]);
    return digestMessage({
      since,
      now,
      opened: opened.map((c) => ({ case_id: c.id, vanpool_id: c.vanpoolId, reason: c.reason })),
      pending: pending.map((a) => ({
        approval_id: a.id,
        case_id: a.caseId,
        kind: a.kind,
        hours: (now.getTime() - a.createdAt.getTime()) / 3_600_000,
      })),
      waiting: waiting.map((c) => ({
        case_id: c.id,
        vanpool_id: c.vanpoolId,
        deadline: c.lastOutboundAt ? replyDeadline(c.lastOutboundAt) : null,
      })),
      attention: review.map((c) => {
        const reason = (c.meta as Record<string, unknown>).attention;
        return { case_id: c.id, vanpool_id: c.vanpoolId, reason: typeof reason === "string" ? reason : null };
      }),
      resolved: closed.filter((c) => c.status === "resolved").map((c) => c.id),
      cancelled: closed.filter((c) => c.status === "cancelled").map((c) => c.id),
      figures,
    });
  }

  /** Posts for `periodKey` unless some instance already has; `force` posts regardless (the /poolpatrol digest command). */
  async function post(force: boolean, periodKey = `manual:${ctx.deps.now().toISOString()}`): Promise<string> {
    const last = await prisma.digestRun.findFirst({ where: { ts: { not: null } }, orderBy: { postedAt: "desc" } });
    const since = last?.postedAt ?? new Date(ctx.deps.now().getTime() - 7 * 86_400_000);
    if (!force) {
      await prisma.$executeRaw`INSERT INTO digest_runs (period_key, channel, posted_at) VALUES (${periodKey}, ${ctx.slack.auditChannel}, ${ctx.deps.now()}) ON CONFLICT (period_key) DO NOTHING`;
      // A claimed slot without a ts is a post that did not finish (a crash, a Slack error): the retry posts it.
      const claimed = await prisma.digestRun.findUniqueOrThrow({ where: { periodKey } });
      if (claimed.ts) return `The digest for ${periodKey} was already posted.`;
    }
    const message = await build(since);
    const posted = await ctx.client.chat.postMessage({ channel: ctx.slack.auditChannel, ...message });
    if (force)
      await prisma.digestRun.create({
        data: { periodKey, channel: ctx.slack.auditChannel, ts: posted.ts ?? null, postedAt: ctx.deps.now() },
      });
    else await prisma.digestRun.update({ where: { periodKey }, data: { ts: posted.ts ?? null } });
    return `Digest posted in <#${ctx.slack.auditChannel}>.`;
  }

  return { post, build };
}
