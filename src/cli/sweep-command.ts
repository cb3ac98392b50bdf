// `poolpatrol audit --all`: starts a sweep (the same one the schedule and Slack start),
// works on it in this process alongside any running bot, and waits for its result.
import { setTimeout as sleep } from "node:timers/promises";
import type { CliContext } from "../app/context.js";
import { findSweepTotals, type SweepTotals } from "../data/sweep-repository.js";
import { registerSweepJobs, requestManualSweep } from "../workers/sweep-jobs.js";
import { keptText } from "./format.js";

/** How often a waiting command runs the engine's maintenance, so pages of a killed process are retried without a bot. */
const MAINTENANCE_EVERY_MS = 15_000;

export async function runSweepAndWait(
  ctx: CliContext,
  options: { log: (line: string) => void; onProgress?: (done: number, total: number) => void },
): Promise<SweepTotals> {
  const engine = ctx.jobs;
  if (!engine) throw new Error('A sweep needs the job engine: open the context with jobs: "worker".');
  await registerSweepJobs(engine, { agent: ctx.agentDeps, settings: ctx.settings.sweep, log: options.log });
  const { sweepId, joined } = await requestManualSweep(engine, ctx.db.prisma, {
    trigger: "cli",
    now: ctx.agentDeps.now(),
  });
  if (joined) options.log(`A sweep is under way (${sweepId}); waiting for it instead of starting another.`);
  let maintained = Date.now();
  for (;;) {
    const totals = await findSweepTotals(ctx.db.prisma, sweepId);
    if (totals) options.onProgress?.(totals.pages_done, totals.pages);
    if (totals?.finished_at) return totals;
    if (Date.now() - maintained > MAINTENANCE_EVERY_MS) {
      maintained = Date.now();
      await engine.boss.maintain();
    }
    await sleep(250);
  }
}

export function formatSweep(totals: SweepTotals, timeZone: string): string {
  const seconds = ((totals.finished_at ?? new Date()).getTime() - totals.started_at.getTime()) / 1000;
  const lines = [
    `Sweep ${totals.sweep_id}: ${totals.checked} of ${totals.vanpools} vanpools checked in ${seconds.toFixed(1)} s.`,
    `  new cases      ${totals.new_cases.length}`,
    `  still failing  ${totals.still_failing}`,
    `  resolved       ${totals.resolved}`,
    `  errors         ${totals.errors.length}`,
    ...totals.errors.slice(0, 20).map((e) => `    ${e}`),
    `  kept           ${totals.kept.length}`,
    ...totals.kept.slice(0, 20).map((e) => `    ${keptText(e, timeZone, totals.started_at)}`),
  ];
  if (totals.new_cases.length > 0)
    lines.push(`New cases: ${totals.new_cases.slice(0, 50).join(", ")}${totals.new_cases.length > 50 ? ", …" : ""}`);
  return `${lines.join("\n")}\n`;
}
