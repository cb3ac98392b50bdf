// Sweeps as pg-boss jobs: a start job per slot plans the pages, page jobs (spread over
// every worker process) audit and open cases, and a finish job announces the result.
// A sweep's id is its slot, so N replicas firing the same schedule make one sweep.
import cron from "node-cron";
import type PgBoss from "pg-boss";
import type { AgentDeps } from "../agents/deps.js";
import type { PrismaClient } from "../data/prisma.js";
import {
  allPagesFinished,
  createSweep,
  findSweepTotals,
  findUnfinishedSweep,
  listActiveVanpoolIds,
  markSweepFinished,
  type SweepTotals,
} from "../data/sweep-repository.js";
import { runSweepPage, type SweepPageJob } from "./sweep-page.js";

export const SWEEP_QUEUES = { start: "sweep-start", page: "sweep-page", finish: "sweep-finish" } as const;

/** Page jobs each process works on at once: one audits while the other waits on the database. */
const PAGE_WORKERS = 2;

export interface SweepSettings {
  concurrency: number;
  pageSize: number;
  pageTimeoutSeconds: number;
}

export interface SweepJobDeps {
  agent: AgentDeps;
  settings: SweepSettings;
  /** Posts or updates the sweep's summary (Slack); absent where no Slack is connected. */
  announce?: (totals: SweepTotals) => Promise<void>;
  log: (line: string) => void;
}

interface StartJob {
  sweepId: string;
  trigger: string;
}

export async function registerSweepJobs(boss: PgBoss, deps: SweepJobDeps): Promise<void> {
  const retries = { retryLimit: 5, retryDelay: 5, retryBackoff: true };
  await boss.createQueue(SWEEP_QUEUES.start, { name: SWEEP_QUEUES.start, policy: "stately", ...retries });
  await boss.createQueue(SWEEP_QUEUES.page, {
    name: SWEEP_QUEUES.page,
    expireInSeconds: deps.settings.pageTimeoutSeconds,
    ...retries,
  });
  await boss.createQueue(SWEEP_QUEUES.finish, { name: SWEEP_QUEUES.finish, policy: "stately", ...retries });

  const polling = { pollingIntervalSeconds: 0.5 };
  await boss.work<StartJob>(SWEEP_QUEUES.start, polling, async ([job]) => {
    const { sweepId, trigger } = job!.data;
    const ids = await listActiveVanpoolIds(deps.agent.prisma);
    const pages: SweepPageJob[] = [];
    for (let at = 0; at < ids.length; at += deps.settings.pageSize)
      pages.push({ sweepId, page: pages.length, vanpoolIds: ids.slice(at, at + deps.settings.pageSize) });
    const created = await createSweep(deps.agent.prisma, {
      id: sweepId,
      trigger,
      pageCount: pages.length,
      vanpoolCount: ids.length,
      now: deps.agent.now(),
    });
    if (!created) return;
    deps.log(`Sweep ${sweepId}: ${ids.length} vanpools in ${pages.length} page(s).`);
    if (pages.length === 0) await finishIfDone(sweepId);
    for (let at = 0; at < pages.length; at += 100)
      await boss.insert(pages.slice(at, at + 100).map((data) => ({ name: SWEEP_QUEUES.page, data })));
  });

  for (let i = 0; i < PAGE_WORKERS; i++)
    await boss.work<SweepPageJob>(SWEEP_QUEUES.page, polling, async ([job]) => {
      await runSweepPage(deps.agent, deps.settings.concurrency, job!.data);
      await finishIfDone(job!.data.sweepId);
    });

  await boss.work<{ sweepId: string }>(SWEEP_QUEUES.finish, polling, async ([job]) => {
    const totals = await findSweepTotals(deps.agent.prisma, job!.data.sweepId);
    if (!totals) return;
    deps.log(
      `Sweep ${totals.sweep_id} done: ${totals.checked} checked, ${totals.new_cases.length} new case(s), ${totals.errors.length} error(s).`,
    );
    await deps.announce?.(totals);
  });

  async function finishIfDone(sweepId: string): Promise<void> {
    if (!(await allPagesFinished(deps.agent.prisma, sweepId))) return;
    await markSweepFinished(deps.agent.prisma, sweepId, deps.agent.now());
    await boss.send(SWEEP_QUEUES.finish, { sweepId }, { singletonKey: sweepId });
  }
}

/** Starts the sweep of `slot` (one per slot, whoever asks); resolves to its id. */
export async function requestSweep(boss: PgBoss, request: { slot: string; trigger: string }): Promise<string> {
  await boss.send(SWEEP_QUEUES.start, { sweepId: request.slot, trigger: request.trigger } satisfies StartJob, {
    singletonKey: request.slot,
  });
  return request.slot;
}

/** The slot of a scheduled firing: its minute in UTC, the same on every replica. */
export function scheduledSlot(at: Date): string {
  return `scheduled-${at.toISOString().slice(0, 16)}Z`;
}

/** A sweep asked for by a person joins the one under way, if any, rather than starting a second. */
export async function requestManualSweep(
  boss: PgBoss,
  prisma: PrismaClient,
  request: { trigger: string; now: Date },
): Promise<{ sweepId: string; joined: boolean }> {
  const running = await findUnfinishedSweep(prisma);
  if (running) return { sweepId: running, joined: true };
  const slot = `manual-${request.now.toISOString().slice(0, 19)}Z`;
  return { sweepId: await requestSweep(boss, { slot, trigger: request.trigger }), joined: false };
}

/** node-cron is the clock; each firing asks for the sweep of its slot. */
export function scheduleSweeps(
  boss: PgBoss,
  options: { cron: string; timezone: string; log: (line: string) => void },
): { stop(): void } {
  const task = cron.schedule(
    options.cron,
    (context) => {
      requestSweep(boss, { slot: scheduledSlot(context.date), trigger: "schedule" }).catch((error) =>
        options.log(`Could not start the scheduled sweep: ${(error as Error).message}`),
      );
    },
    { timezone: options.timezone, name: "poolpatrol-sweep" },
  );
  return { stop: () => task.stop() };
}
