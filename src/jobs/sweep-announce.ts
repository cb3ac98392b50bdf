// Tells the audit channel how a sweep went: one summary message (updated in place if the
// job runs again), and each new case's alert in its thread rather than in the channel.
import type { WebClient } from "@slack/web-api";
import type { PrismaClient } from "../data/prisma.js";
import { casesWithoutAlert, type SweepTotals, setSweepMessage } from "../data/sweep-repository.js";
import { sweepSummary } from "../slack/blocks/sweep-summary.js";
import type { CaseMessages } from "../slack/case-messages.js";

export function createSweepAnnouncer(deps: {
  prisma: PrismaClient;
  client: WebClient;
  channel: string;
  messages: CaseMessages;
}) {
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
      await deps.messages.syncCase(caseId, { thread: where });
  };
}
