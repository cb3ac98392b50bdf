// `poolpatrol audit --all`: starts a sweep (the same one the schedule and Slack start),
// works on it in this process alongside any running bot, and waits for its result.
import { setTimeout as sleep } from "node:timers/promises";
import { findSweepTotals, type SweepTotals } from "../data/sweep-repository.js";
import { startJobBoss } from "../jobs/sweep-boss.js";
import { registerSweepJobs, requestManualSweep } from "../jobs/sweep-jobs.js";
import type { CliContext } from "./context.js";

export async function runSweepAndWait(
  ctx: CliContext,
  options: { log: (line: string) => void; onProgress?: (done: number, total: number) => void },
): Promise<SweepTotals> {
  const boss = await startJobBoss(ctx.db.url, (error) => options.log(`Job engine: ${error.message}`));
  try {
    await registerSweepJobs(boss, { agent: ctx.agentDeps, settings: ctx.settings.sweep, log: options.log });
    const { sweepId, joined } = await requestManualSweep(boss, ctx.db.prisma, {
      trigger: "cli",
      now: ctx.agentDeps.now(),
    });
    if (joined) options.log(`A sweep is under way (${sweepId}); waiting for it instead of starting another.`);
    for (;;) {
      const totals = await findSweepTotals(ctx.db.prisma, sweepId);
      if (totals) options.onProgress?.(totals.pages_done, totals.pages);
      if (totals?.finished_at) return totals;
      await sleep(250);
    }
  } finally {
    await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
  }
}

export function formatSweep(totals: SweepTotals): string {
  const seconds = ((totals.finished_at ?? new Date()).getTime() - totals.started_at.getTime()) / 1000;
  const lines = [
    `Sweep ${totals.sweep_id}: ${totals.checked} of ${totals.vanpools} vanpools checked in ${seconds.toFixed(1)} s.`,
    `  new cases      ${totals.new_cases.length}`,
    `  still failing  ${totals.still_failing}`,
    `  resolved       ${totals.resolved}`,
    `  errors         ${totals.errors.length}`,
    ...totals.errors.slice(0, 20).map((e) => `    ${e}`),
  ];
  if (totals.new_cases.length > 0)
    lines.push(`New cases: ${totals.new_cases.slice(0, 50).join(", ")}${totals.new_cases.length > 50 ? ", …" : ""}`);
  return `${lines.join("\n")}\n`;
}
