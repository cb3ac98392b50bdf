// Sweeps as jobs of the one job engine: a start job per slot plans the pages, page jobs
// (spread over every worker process) audit and open cases, and a finish job announces the
// result. A sweep's id is its slot, so N replicas firing the same schedule make one sweep.
import { randomBytes } from "node:crypto";
import type { AgentDeps } from "../agents/deps.js";
import { sendFirstEmails } from "../cases/first-emails.js";
import type { PrismaClient } from "../data/prisma.js";
import {
  allPagesFinished,
  createSweep,
  findSweepTotals,
  findUnfinishedSweep,
  isSweepFinished,
  listActiveVanpoolIds,
  markSweepFinished,
  type SweepTotals,
} from "../data/sweep-repository.js";
import { scheduleSlots } from "../queue/clock.js";
import { type JobEngine, jobIdFor, type QueueDefaults } from "../queue/engine.js";
import { type JobSender, sweepJobs } from "../queue/queues.js";
import {
  finishPageNotChecked,
  runSweepPage,
  type SweepOutreachJob,
  type SweepPageDeps,
  type SweepPageJob,
} from "./sweep-page.js";

const outreachJobId = (sweepId: string, page: number) => jobIdFor(`sweep-outreach:${sweepId}:${page}`);

export const SWEEP_QUEUES = {
  start: "sweep-start",
  page: "sweep-page",
  outreach: "sweep-outreach",
  finish: "sweep-finish",
} as const;

/** Page jobs each process works on at once: one audits while the other waits on the database. */
const PAGE_WORKERS = 2;

export interface SweepSettings {
  /** First emails of a page handed to the provider at once (and open cases of a page resolved at once). */
  concurrency: number;
  pageSize: number;
  pageTimeoutSeconds: number;
  /** A failed page or first-email job is tried again after this, doubling each time, five times; 0: at once. */
  retryDelaySeconds: number;
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

/** Page and first-email jobs time out after the page timeout; the announcement posts each new case's alert, paced per channel. */
export function sweepQueueOptions(settings: SweepSettings): Record<string, QueueDefaults> {
  // pg-boss waits at least 1 s between tries that back off: a delay of 0 means no pause at all.
  const delay = settings.retryDelaySeconds;
  const retries = { retryLimit: 5, retryDelay: delay, retryBackoff: delay > 0 };
  return {
    [SWEEP_QUEUES.start]: { ...retries, policy: "stately" },
    [SWEEP_QUEUES.page]: { ...retries, expireInSeconds: settings.pageTimeoutSeconds },
    [SWEEP_QUEUES.outreach]: { ...retries, expireInSeconds: settings.pageTimeoutSeconds },
    [SWEEP_QUEUES.finish]: { ...retries, policy: "stately", expireInSeconds: 3600 },
  };
}

/**
 * Works on sweeps in this process: `plan` (start and finish jobs, where the announcement can be
 * posted) and `audit` (page and first-email jobs, the CPU work). A bot that must answer Slack
 * quickly can leave `audit` to worker processes.
 */
export async function registerSweepJobs(
  engine: JobEngine,
  deps: SweepJobDeps,
  roles: { plan: boolean; audit: boolean } = { plan: true, audit: true },
): Promise<void> {
  for (const [name, options] of Object.entries(sweepQueueOptions(deps.settings)))
    await engine.defineQueue(name, options);
  if (roles.audit) await registerAuditWork(engine, deps);
  if (!roles.plan) return;

  await engine.work<StartJob>(SWEEP_QUEUES.start, async (job) => {
    const { sweepId, trigger } = job.data;
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
    // A start job retried after a crash queues the pages it may not have queued; their ids make it once.
    if (!created && (await isSweepFinished(deps.agent.prisma, sweepId))) return;
    if (created) deps.log(`Sweep ${sweepId}: ${ids.length} vanpools in ${pages.length} page(s).`);
    if (pages.length === 0) await finishIfDone(engine, deps, sweepId);
    // One statement for every page: each worker process sees them all at once.
    await engine.insert(
      pages.map((page) => ({
        name: SWEEP_QUEUES.page,
        data: page,
        id: jobIdFor(`sweep-page:${sweepId}:${page.page}`),
      })),
    );
  });

  await engine.work<{ sweepId: string }>(SWEEP_QUEUES.finish, async (job) => {
    const totals = await findSweepTotals(deps.agent.prisma, job.data.sweepId);
    if (!totals) return;
    deps.log(
      `Sweep ${totals.sweep_id} done: ${totals.checked} checked, ${totals.new_cases.length} new case(s), ${totals.errors.length} error(s).`,
    );
    await deps.announce?.(totals);
  });
}

async function registerAuditWork(engine: JobEngine, deps: SweepJobDeps): Promise<void> {
  const pageDeps = sweepPageDeps(engine, deps);
  await engine.work<SweepPageJob>(
    SWEEP_QUEUES.page,
    async (job) => {
      let queued: string[];
      try {
        queued = await runSweepPage(pageDeps, job.data);
      } catch (error) {
        if (job.retryCount < job.retryLimit) throw error;
        deps.log(
          `Sweep ${job.data.sweepId}: page ${job.data.page + 1} failed on its last try: ${(error as Error).message}`,
        );
        await finishPageNotChecked(pageDeps, job.data, error as Error);
        queued = [];
      }
      if (queued.length > 0) engine.track(SWEEP_QUEUES.outreach, outreachJobId(job.data.sweepId, job.data.page));
      await finishIfDone(engine, deps, job.data.sweepId);
    },
    { concurrency: PAGE_WORKERS },
  );

  // A retried job runs its page's cases again: each email is stored and sent under its key, so none goes twice.
  await engine.work<SweepOutreachJob>(SWEEP_QUEUES.outreach, (job) =>
    sendFirstEmails(deps.agent, engine, job.data.caseIds, deps.settings.concurrency),
  );
}

async function finishIfDone(engine: JobEngine, deps: SweepJobDeps, sweepId: string): Promise<void> {
  if (!(await allPagesFinished(deps.agent.prisma, sweepId))) return;
  await markSweepFinished(deps.agent.prisma, sweepId, deps.agent.now());
  // Two last pages finishing at once both get here: the job's id makes one announcement.
  await engine.send(SWEEP_QUEUES.finish, { sweepId }, { id: jobIdFor(`sweep-finish:${sweepId}`) });
}

/** What a page job needs: the first-email jobs of its new cases go in with its transaction. */
export function sweepPageDeps(
  engine: JobEngine,
  deps: { agent: AgentDeps; settings: Pick<SweepSettings, "concurrency"> },
): SweepPageDeps {
  return {
    agent: deps.agent,
    concurrency: deps.settings.concurrency,
    queueOutreach: async (db, job) => {
      await engine.send(SWEEP_QUEUES.outreach, job, { id: outreachJobId(job.sweepId, job.page), db });
    },
    queueHandOff: async (db, vanpoolId, sweepId) => {
      await sweepJobs(engine).handOff(vanpoolId, sweepId, db);
    },
  };
}

/** Starts the sweep of `slot` (one per slot, whoever asks); resolves to its id. */
export async function requestSweep(jobs: JobSender, request: { slot: string; trigger: string }): Promise<string> {
  await jobs.send(SWEEP_QUEUES.start, { sweepId: request.slot, trigger: request.trigger } satisfies StartJob, {
    singletonKey: request.slot,
  });
  return request.slot;
}

/** The slot of a scheduled firing: its minute in UTC, the same on every replica. */
export function scheduledSlot(at: Date): string {
  return `scheduled-${at.toISOString().slice(0, 16)}Z`;
}

/**
 * A sweep asked for by a person joins the one under way, if any, rather than starting a second. Otherwise it is
 * a sweep of its own, even when the last one finished within the same second (its id once had the second only,
 * and a second request then found that finished sweep's job and started nothing).
 */
export async function requestManualSweep(
  jobs: JobSender,
  prisma: PrismaClient,
  request: { trigger: string; now: Date },
): Promise<{ sweepId: string; joined: boolean }> {
  const running = await findUnfinishedSweep(prisma);
  if (running) return { sweepId: running, joined: true };
  const slot = `manual-${request.now.toISOString().slice(0, 23)}Z-${randomBytes(3).toString("hex")}`;
  return { sweepId: await requestSweep(jobs, { slot, trigger: request.trigger }), joined: false };
}

/** node-cron is the clock; each firing asks for the sweep of its slot. */
export const scheduleSweeps = (
  jobs: JobSender,
  options: { cron: string; timezone: string; log: (line: string) => void },
) =>
  scheduleSlots("poolpatrol-sweep", options, "the scheduled sweep", (at) =>
    requestSweep(jobs, { slot: scheduledSlot(at), trigger: "schedule" }),
  );
