// Child of scripts/bench.ts: a sweep worker against DATABASE_URL. With BENCH_START=1 it
// starts the sweep BENCH_SWEEP_ID; every worker works its jobs until the sweep is finished
// and every first-email job has run, then prints the sweep's totals, the times, its own
// peak resident memory and the emails sent as a JSON line.
import { setTimeout as sleep } from "node:timers/promises";
import { openContext } from "../src/cli/context.js";
import { parseSettings } from "../src/config/settings.js";
import { countSweepEmailsSent, findSweepTotals, isSweepFinished } from "../src/data/sweep-repository.js";
import { QUEUES } from "../src/jobs/queues.js";
import { registerSweepJobs, requestSweep, SWEEP_QUEUES } from "../src/jobs/sweep-jobs.js";

const sweepId = process.env.BENCH_SWEEP_ID!;
const ctx = await openContext(parseSettings(), () => {}, { jobs: "worker" });
const engine = ctx.jobs!;
await registerSweepJobs(engine, { agent: ctx.agentDeps, settings: ctx.settings.sweep, log: () => {} });
if (process.env.BENCH_START === "1") await requestSweep(engine, { slot: sweepId, trigger: "bench" });
// Polls one row: reading every page's totals ten times a second costs the worker CPU at 100,000 vanpools.
while (!(await isSweepFinished(ctx.db.prisma, sweepId))) await sleep(100);
const totals = (await findSweepTotals(ctx.db.prisma, sweepId))!;
const sinceStart = () => ((Date.now() - totals.started_at.getTime()) / 1000).toFixed(0);
process.stderr.write(
  `  sweep ${sweepId} finished after ${sinceStart()} s; ${totals.new_cases.length} first-email job(s)\n`,
);
const unsent = async () =>
  (await engine.boss.getQueueSize(SWEEP_QUEUES.outreach, { before: "completed" })) +
  (await engine.boss.getQueueSize(QUEUES.sendEmail, { before: "completed" }));
let lastProgress = Date.now();
for (let left = await unsent(); left > 0; left = await unsent()) {
  if (Date.now() - lastProgress > 60_000) {
    process.stderr.write(`  ${sinceStart()} s: ${left} email job(s) left\n`);
    lastProgress = Date.now();
  }
  await sleep(200);
}
const emailsDone = new Date();
const emailsSent = await countSweepEmailsSent(ctx.db.prisma, sweepId);
await ctx.close();
const seconds = (totals.finished_at!.getTime() - totals.started_at.getTime()) / 1000;
// Some timer of the stopped engine keeps the event loop alive: exit once the line is written.
process.stdout.write(
  `${JSON.stringify({
    checked: totals.checked,
    newCases: totals.new_cases.length,
    stillFailing: totals.still_failing,
    errors: totals.errors.length,
    firstError: totals.errors[0] ?? null,
    seconds,
    emailSeconds: (emailsDone.getTime() - totals.started_at.getTime()) / 1000,
    emailsSent,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    cpuSeconds: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
  })}\n`,
  () => process.exit(0),
);
