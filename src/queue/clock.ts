// The clock: node-cron fires in every running instance, and each firing sends one
// job per *scheduled slot* (the time the schedule was due, not when this instance
// fired), with a job id derived from the slot. N instances, or one that fires late,
// make one job per slot.
import cron, { type ScheduledTask } from "node-cron";
import { outageLog } from "../data/pg-pool.js";
import type { JobEngine } from "./engine.js";
import { jobIdFor } from "./engine.js";
import { QUEUES } from "./queues.js";

const MINUTE = 60_000;
const LOOK_BACK_MINUTES = 8 * 24 * 60;

/** The latest minute at or before `at` that `task`'s expression matches (the slot a late firing belongs to). */
export function scheduledSlot(task: Pick<ScheduledTask, "match">, at: Date): Date {
  const minute = new Date(Math.floor(at.getTime() / MINUTE) * MINUTE);
  for (let i = 0; i < LOOK_BACK_MINUTES; i++) {
    const candidate = new Date(minute.getTime() - i * MINUTE);
    if (task.match(candidate)) return candidate;
  }
  return minute;
}

/**
 * node-cron as the clock of a schedule of its own (the sweep, the import sync): each firing asks for
 * the job of its slot with `request`, which sends it with a slot-derived id (one job per slot, whoever asks).
 */
export function scheduleSlots(
  name: string,
  options: { cron: string; timezone: string; log: (line: string) => void },
  what: string,
  request: (firedAt: Date) => Promise<unknown>,
): { stop(): void } {
  const task = cron.schedule(
    options.cron,
    (context) => {
      request(context.date).catch((error) => options.log(`Could not start ${what}: ${(error as Error).message}`));
    },
    { timezone: options.timezone, name },
  );
  return { stop: () => task.stop() };
}

export interface ClockOptions {
  digestCron: string;
  timezone: string;
  /** Where a schedule that could not be queued is told (a database outage once, not every minute). */
  log: (line: string) => void;
  /** Tests: when this instance's firing happens, relative to the slot. */
  now?: () => Date;
}

export function startClock(engine: JobEngine, options: ClockOptions) {
  const now = options.now ?? (() => new Date());
  const tasks: ScheduledTask[] = [];
  const outage = outageLog(options.log, "clock");
  const every = (name: string, expression: string, queue: string, timezone = options.timezone) => {
    // The next firing queues its own slot: a firing lost to an outage needs no retry here.
    const onTime = () => fire(task, queue).then(outage.answered, (error) => outage.failed(error, `clock (${name})`));
    const task = cron.schedule(expression, onTime, { name, timezone, noOverlap: true });
    tasks.push(task);
    return task;
  };

  async function fire(task: ScheduledTask, queue: string, at = now()): Promise<string | null> {
    const slot = scheduledSlot(task, at).toISOString();
    return engine.send(queue, { slot }, { id: jobIdFor(`${queue}:${slot}`) });
  }

  const digest = every("poolpatrol-digest", options.digestCron, QUEUES.digest);
  const approvals = every("poolpatrol-approvals", "* * * * *", QUEUES.approvalsDue);
  const retention = every("poolpatrol-retention", "17 3 * * *", QUEUES.retention);

  return {
    /** Fires a schedule now, as node-cron would at `at` (tests, start-up catch-up). */
    fireDigest: (at?: Date) => fire(digest, QUEUES.digest, at),
    fireApprovals: (at?: Date) => fire(approvals, QUEUES.approvalsDue, at),
    fireRetention: (at?: Date) => fire(retention, QUEUES.retention, at),
    stop() {
      for (const task of tasks) task.stop();
    },
  };
}

export type Clock = ReturnType<typeof startClock>;
