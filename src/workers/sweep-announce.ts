// Tells the audit channel how a sweep went: one summary message (posted once across crashes and
// replicas, updated in place if the job runs again, posted again if deleted in Slack), and each
// new case's alert in its thread rather than in the channel. Each alert is a Slack job of its own
// (a case sync into the summary's thread, paced per channel and retried alone), so one failing
// post neither holds up nor repeats the others.
import type { WebClient } from "@slack/web-api";
import type { PrismaClient } from "../data/prisma.js";
import { casesWithoutAlert, type SweepTotals } from "../data/sweep-repository.js";
import { caseJobs, type JobSender } from "../queue/queues.js";
import { sweepSummary } from "../slack/blocks/sweep-summary.js";
import { createChannelPacer } from "../slack/channel-pacer.js";
import { postSweepSummary } from "../slack/sweep-summary-post.js";
import { updateInPlace } from "../slack/update-in-place.js";

export function createSweepAnnouncer(deps: {
  prisma: PrismaClient;
  client: WebClient;
  channel: string;
  jobs: JobSender;
  /** Spacing of posts to one channel, shared with every process (Slack allows about one a second). */
  channelIntervalMs?: number;
  /** How long the claim on the summary's post keeps other processes away (POOLPATROL_CLAIM_SECONDS). */
  claimMs: number;
}) {
  const alerts = caseJobs(deps.jobs);
  const pacer = createChannelPacer(deps.prisma, { intervalMs: deps.channelIntervalMs, client: deps.client });
  const once = { prisma: deps.prisma, client: deps.client, pacer, holdMs: deps.claimMs };
  return async function announce(totals: SweepTotals): Promise<void> {
    let where = totals.slack;
    // A summary deleted in Slack is posted again, and the sweep points at the new one.
    if (!where || !(await updateInPlace(deps.client, pacer, { ...where, ...sweepSummary(totals) })))
      where = await postSweepSummary(once, deps.channel, totals, where ?? undefined);
    for (const caseId of await casesWithoutAlert(deps.prisma, totals.new_cases))
      await alerts.syncCaseInThread(caseId, where, `sweep:${totals.sweep_id}`);
  };
}
