// The bot's clockwork: every minute, carry out due work (reply timeouts, decisions
// not yet applied), keep Slack in step with cases worked elsewhere (the CLI, another
// instance), remind approvers and expire stale requests; and the digest on its cron.
import cron from "node-cron";
import { recordEvent } from "../data/audit-log.js";
import type { SlackApp } from "../slack/app.js";

const HOUR = 3_600_000;

export function startScheduler(
  bot: SlackApp,
  options: { reminderHours: number; expiryHours: number; digestCron: string; timezone: string },
) {
  const { ctx, messages } = bot;
  const { prisma } = ctx.deps;
  let running = false;

  async function minute(): Promise<void> {
    if (running) return;
    running = true;
    try {
      const now = ctx.deps.now();
      await expireAndRemind(now);
      const { applied, timeouts } = await ctx.workflow.tick(now);
      const touched = new Set([
        ...applied.map((d) => d.approval.case_id),
        ...timeouts.flatMap((t) => (t.case_id ? [t.case_id] : [])),
      ]);
      // Cases opened or advanced outside the bot (CLI, startup audit) get their alert and cards too.
      const unseen = await prisma.case.findMany({
        where: {
          OR: [
            { slackTs: null, status: { notIn: ["resolved", "cancelled"] } },
            { approvals: { some: { status: "pending", slackTs: null } } },
          ],
        },
        select: { id: true },
      });
      for (const { id } of unseen) touched.add(id);
      for (const caseId of touched) await messages.syncCase(caseId);
    } finally {
      running = false;
    }
  }

  async function expireAndRemind(now: Date): Promise<void> {
    const pending = await prisma.approvalRequest.findMany({ where: { status: "pending" } });
    for (const approval of pending) {
      const age = now.getTime() - approval.createdAt.getTime();
      if (age >= options.expiryHours * HOUR) {
        // Expired is recorded as such: a timeout is never a decision.
        const expired = await prisma.approvalRequest.updateMany({
          where: { id: approval.id, status: "pending" },
          data: {
            status: "expired",
            decidedBy: "system",
            decidedAt: now,
            appliedAt: now,
            resultNote: `No decision within ${options.expiryHours} h; nothing was done.`,
          },
        });
        if (expired.count === 1) {
          await recordEvent(prisma, {
            actor: "scheduler",
            action: "approval.expired",
            subjectType: "case",
            subjectId: approval.caseId,
            at: now,
            details: { approval_id: approval.id, hours: options.expiryHours },
          });
          await messages.syncCase(approval.caseId);
          await messages.postInThread(
            approval.caseId,
            `⌛ ${approval.id} expired after ${options.expiryHours} h without a decision. Nothing was done; the case stays as it is.`,
          );
        }
      } else if (
        age >= options.reminderHours * HOUR &&
        !approval.remindedAt &&
        approval.slackChannel &&
        approval.slackTs
      ) {
        const claimed = await prisma.approvalRequest.updateMany({
          where: { id: approval.id, remindedAt: null },
          data: { remindedAt: now },
        });
        if (claimed.count === 1)
          await messages.postInThread(
            approval.caseId,
            `⏰ Reminder: ${approval.id} has waited ${Math.floor(age / HOUR)} h for an approver.`,
          );
      }
    }
  }

  const every = cron.schedule("* * * * *", () => ctx.background("scheduler minute", minute), {
    name: "poolpatrol-minute",
  });
  const digest = bot.digest.schedule(options.digestCron, options.timezone);
  return {
    minute,
    stop: () => {
      every.stop();
      digest.stop();
    },
  };
}
