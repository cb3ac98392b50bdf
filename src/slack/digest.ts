// The digest: posted on POOLPATROL_DIGEST_CRON, or on demand. A database row per
// period makes it one post per period across restarts and running instances.
import cron from "node-cron";
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
      const claimed =
        await prisma.$executeRaw`INSERT INTO digest_runs (period_key, channel, posted_at) VALUES (${periodKey}, ${ctx.slack.auditChannel}, ${ctx.deps.now()}) ON CONFLICT (period_key) DO NOTHING`;
      if (claimed === 0) return `The digest for ${periodKey} was already posted.`;
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

  /** Schedules the digest; the period key is the minute the schedule fired, the same for every instance. */
  function schedule(expression: string, timezone: string) {
    return cron.schedule(
      expression,
      async (context) => {
        const fired = context.triggeredAt ?? new Date();
        const key = `scheduled:${new Date(Math.floor(fired.getTime() / 60_000) * 60_000).toISOString()}`;
        ctx.background("scheduled digest", () => post(false, key));
      },
      { timezone, name: "poolpatrol-digest" },
    );
  }

  return { post, build, schedule };
}
