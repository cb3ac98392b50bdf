// Child of scripts/bench.ts: a sweep worker against DATABASE_URL. With BENCH_START=1 it
// starts the sweep BENCH_SWEEP_ID; every worker works its jobs until the sweep is finished
// and every first-email job has run, then prints the sweep's totals, the times, its own
// peak resident memory and the emails sent as a JSON line.
import { constants, PerformanceObserver } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { openContext } from "../src/app/context.js";
import { parseSettings } from "../src/config/settings.js";
import { countSweepEmailsSent, findSweepTotals, isSweepFinished } from "../src/data/sweep-repository.js";
import { QUEUES } from "../src/queue/queues.js";
import { registerSweepJobs, requestSweep, SWEEP_QUEUES } from "../src/workers/sweep-jobs.js";

const sweepId = process.env.BENCH_SWEEP_ID!;
const ctx = await openContext(parseSettings(), () => {}, { jobs: "worker" });
const engine = ctx.jobs!;
await registerSweepJobs(engine, { agent: ctx.agentDeps, settings: ctx.settings.sweep, log: () => {} });
if (process.env.BENCH_START === "1") await requestSweep(engine, { slot: sweepId, trigger: "bench" });
// Polls one row once a second (the times come from the sweep's own row): polling costs the worker CPU too.
const memory = watchMemory(sweepId);
while (!(await isSweepFinished(ctx.db.prisma, sweepId))) await sleep(1000);
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
memory.stop();
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
    maxHeapMb: memory.maxHeapMb(),
    maxLiveHeapMb: memory.maxLiveHeapMb(),
    cpuSeconds: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
  })}\n`,
  () => process.exit(0),
);

/**
 * This worker's heap: the largest seen (sampled every second, garbage included) and the largest left
 * live after a full garbage collection, which grows only if the sweep keeps something per vanpool.
 * With BENCH_MEMORY=1 it prints resident and heap memory with the pages done every 30 s.
 */
function watchMemory(id: string) {
  let maxHeap = 0;
  let maxLive = 0;
  let lastPrinted = Date.now();
  const collections = new PerformanceObserver((list) => {
    // Node puts a gc entry's kind in `detail`, which its types leave out.
    for (const entry of list.getEntries())
      if ((entry.toJSON() as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)
        maxLive = Math.max(maxLive, process.memoryUsage().heapUsed);
  });
  collections.observe({ entryTypes: ["gc"] });
  const timer = setInterval(async () => {
    const { rss, heapUsed } = process.memoryUsage();
    maxHeap = Math.max(maxHeap, heapUsed);
    if (process.env.BENCH_MEMORY !== "1" || Date.now() - lastPrinted < 30_000) return;
    lastPrinted = Date.now();
    const totals = await findSweepTotals(ctx.db.prisma, id);
    process.stderr.write(
      `  memory: ${totals?.pages_done ?? 0}/${totals?.pages ?? "?"} pages, RSS ${mb(rss)} MB, heap ${mb(heapUsed)} MB, live after full GC so far ${mb(maxLive)} MB\n`,
    );
  }, 1000);
  return {
    stop() {
      clearInterval(timer);
      collections.disconnect();
    },
    maxHeapMb: () => maxHeap / 2 ** 20,
    maxLiveHeapMb: () => maxLive / 2 ** 20,
  };
}

function mb(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(0);
}
