// Tells the audit channel how a sweep went: one summary message (updated in place if the
// job runs again), and each new case's alert in its thread rather than in the channel. Each
// alert is a Slack job of its own (a case sync into the summary's thread, paced per channel
// and retried alone), so one failing post neither holds up nor repeats the others.
import type { WebClient } from "@slack/web-api";
import type { PrismaClient } from "../data/prisma.js";
import { casesWithoutAlert, type SweepTotals, setSweepMessage } from "../data/sweep-repository.js";
import { sweepSummary } from "../slack/blocks/sweep-summary.js";
import { caseJobs, type JobSender } from "./queues.js";

export function createSweepAnnouncer(deps: {
  prisma: PrismaClient;
  client: WebClient;
  channel: string;
  jobs: JobSender;
}) {
  const alerts = caseJobs(deps.jobs);
  return async function announce(totals: SweepTotals): Promise<void> {
    const message = sweepSummary(totals);
    let where = totals.slack;
    if (where) await deps.client.chat.update({ channel: where.channel, ts: where.ts, ...message });
    else {
      const posted = await deps.client.chat.postMessage({ channel: deps.channel, ...message });
      where = { channel: posted.channel!, ts: posted.ts! };
      await setSweepMessage(deps.prisma, totals.sweep_id, where.channel, where.ts);
    }
    for (const caseId of await casesWithoutAlert(deps.prisma, totals.new_cases))
      await alerts.syncCaseInThread(caseId, where, `sweep:${totals.sweep_id}`);
  };
}
