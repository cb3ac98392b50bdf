// A sweep's one summary message, posted once whoever gets there first: the sweep's finish job,
// or a new case of the sweep whose alert belongs in the summary's thread before the sweep is done
// (the summary then shows the pages done so far and is updated in place when the sweep finishes).
import type { SlackLocation } from "../data/slack-message-repository.js";
import { sweepSummaryLocation } from "../data/slack-message-repository.js";
import { findSweepTotals, type SweepTotals, setSweepMessage } from "../data/sweep-repository.js";
import { sweepSummary } from "./blocks/sweep-summary.js";
import { type PostOnceDeps, postOnce } from "./post-once.js";

/** `gone`: the summary Slack said no longer exists (deleted), which this post replaces. */
export function postSweepSummary(
  deps: PostOnceDeps,
  channel: string,
  totals: SweepTotals,
  gone?: SlackLocation,
): Promise<SlackLocation> {
  return postOnce(deps, {
    key: `sweep:${totals.sweep_id}`,
    args: { channel, ...sweepSummary(totals) },
    posted: async () => {
      const now = await sweepSummaryLocation(deps.prisma, totals.sweep_id);
      return now && now.ts !== gone?.ts ? now : undefined;
    },
    record: (at) => setSweepMessage(deps.prisma, totals.sweep_id, at.channel, at.ts),
  });
}

/** The thread a sweep's new case's alert goes in, posting the summary first if need be; undefined: no such sweep. */
export async function sweepThread(
  deps: PostOnceDeps,
  channel: string,
  sweepId: string,
): Promise<SlackLocation | undefined> {
  const where = await sweepSummaryLocation(deps.prisma, sweepId);
  if (where) return where;
  const totals = await findSweepTotals(deps.prisma, sweepId);
  return totals && postSweepSummary(deps, channel, totals);
}
