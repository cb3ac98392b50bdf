// The digest: posted by the digest job of each POOLPATROL_DIGEST_CRON slot, or on
// demand. A database row per slot makes it one post per slot across restarts, job
// retries and running instances.
import { listCasesNeedingPerson } from "../data/case-card-repository.js";
import { replyDeadline } from "../domain/case-lifecycle.js";
import { digestMessage } from "./blocks/digest.js";
import { programFigures } from "./program-figures.js";
import type { SlackContext } from "./slack-context.js";

export function createDigest(ctx: SlackContext) {
  const { prisma } = ctx.deps;

  async function build(since: Date) {
    const now = ctx.deps.now();
    const [opened, pending, waiting, closed, figures, needsPerson] = await Promise.all([
      prisma.case.findMany({ where: { createdAt: { gte: since } }, orderBy: { createdAt: "asc" } }),
      prisma.approvalRequest.findMany({ where: { status: "pending" }, orderBy: { createdAt: "asc" } }),
      prisma.case.findMany({ where: { status: "pending_reply" }, orderBy: { lastOutboundAt: "asc" } }),
      prisma.case.findMany({ where: { status: { in: ["resolved", "cancelled"] }, resolvedAt: { gte: since } } }),
      programFigures(prisma, since),
      listCasesNeedingPerson(prisma),
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
      needsPerson: needsPerson.map(({ record, since }) => ({
        case_id: record.case_id,
        vanpool_id: record.vanpool_id,
        since,
        reason: typeof record.meta.attention === "string" ? record.meta.attention : null,
      })),
      waiting: waiting.map((c) => ({
        case_id: c.id,
        vanpool_id: c.vanpoolId,
        deadline: c.lastOutboundAt ? replyDeadline(c.lastOutboundAt) : null,
      })),
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
