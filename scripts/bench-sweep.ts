// Child of scripts/bench.ts: a sweep worker against DATABASE_URL. With SWEEP_ID set it
// starts that sweep; every worker works pages until the sweep is finished, then prints
// the sweep's totals, its own peak resident memory and the wall time as a JSON line.
import { setTimeout as sleep } from "node:timers/promises";
import { openContext } from "../src/cli/context.js";
import { parseSettings } from "../src/config/settings.js";
import { findSweepTotals } from "../src/data/sweep-repository.js";
import { registerSweepJobs, requestSweep } from "../src/jobs/sweep-jobs.js";

const sweepId = process.env.BENCH_SWEEP_ID!;
const ctx = await openContext(parseSettings(), () => {}, { jobs: "worker" });
const engine = ctx.jobs!;
await registerSweepJobs(engine, { agent: ctx.agentDeps, settings: ctx.settings.sweep, log: () => {} });
if (process.env.BENCH_START === "1") await requestSweep(engine, { slot: sweepId, trigger: "bench" });
let totals = await findSweepTotals(ctx.db.prisma, sweepId);
while (!totals?.finished_at) {
  await sleep(100);
  totals = await findSweepTotals(ctx.db.prisma, sweepId);
}
await ctx.close();
const seconds = (totals.finished_at!.getTime() - totals.started_at.getTime()) / 1000;
process.stdout.write(
  `${JSON.stringify({
    checked: totals.checked,
    newCases: totals.new_cases.length,
    stillFailing: totals.still_failing,
    errors: totals.errors.length,
    firstError: totals.errors[0] ?? null,
    seconds,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  })}\n`,
);
