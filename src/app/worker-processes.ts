// The `poolpatrol worker` processes a bot (or the sandbox) starts beside itself, so the CPU work of a
// sweep never waits in front of an ack on the bot's event loop. Each runs the built CLI, its output
// prefixed with its name; one that dies is started again after a growing pause, and all are stopped
// (SIGTERM, then SIGKILL if they hang) when the bot stops. A worker whose bot died without stopping it
// (kill -9) sees its IPC channel close and stops itself.
import { type ChildProcess, fork } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { PROJECT_ROOT } from "../config/settings.js";

export interface WorkerProcessOptions {
  count: number;
  /** The worker's environment: the bot's own, with the database it opened. */
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

/**
 * Set ("embedded") in a worker's environment when its DATABASE_URL is the bot's embedded PostgreSQL,
 * which the person running Pool Patrol never set: a worker that can't reach it says so in those words.
 */
export const BOT_DATABASE_ENV = "POOLPATROL_BOT_DATABASE";

/** A worker's niceness (0 normal, 19 lowest); lowering a priority needs no privilege, raising it does. */
export const WORKER_NICENESS = 10;

/** Pause before restarting a worker that died: doubles on each death, back to the first after a healthy run. */
const RESTART = { firstMs: 1_000, maxMs: 30_000, healthyAfterMs: 60_000 };
/** How long a worker may take to stop after SIGTERM before it is killed. */
const STOP_TIMEOUT_MS = 30_000;

export function startWorkerProcesses(options: WorkerProcessOptions): { stop(): Promise<void> } {
  const script = path.join(PROJECT_ROOT, "bin", "poolpatrol.js");
  const slots = Array.from({ length: options.count }, (_, i) => superviseWorker(i + 1));
  let stopping = false;

  function superviseWorker(number: number) {
    const name = `worker ${number}`;
    const slot: { child?: ChildProcess; timer?: NodeJS.Timeout; pauseMs: number; exited?: Promise<void> } = {
      pauseMs: RESTART.firstMs,
    };
    const start = () => {
      slot.timer = undefined;
      const startedAt = Date.now();
      // No execArgv: the bot's own Node flags (a profiler, a preloaded probe) are not the worker's.
      const child = fork(script, ["worker"], {
        env: options.env,
        execArgv: [],
        stdio: ["ignore", "pipe", "pipe", "ipc"],
      });
      slot.child = child;
      // From its first instruction: loading its modules is seconds of CPU the bot's acks should not wait behind.
      try {
        if (child.pid) os.setPriority(child.pid, WORKER_NICENESS);
      } catch {
        // Already gone: its exit is reported (and it is restarted) below.
      }
      child.once("error", (error) => options.log(`Pool Patrol ${name}: ${error.message}`));
      for (const stream of [child.stdout!, child.stderr!])
        createInterface({ input: stream }).on("line", (line) => options.log(`[${name}] ${line}`));
      options.log(`Pool Patrol ${name} started (process ${child.pid}).`);
      slot.exited = new Promise((resolve) => {
        child.once("exit", (code, signal) => {
          slot.child = undefined;
          resolve();
          if (stopping) return;
          if (Date.now() - startedAt >= RESTART.healthyAfterMs) slot.pauseMs = RESTART.firstMs;
          options.log(
            `Pool Patrol ${name} stopped (${signal ?? `exit code ${code}`}); starting it again in ${Math.round(slot.pauseMs / 1000)} s.`,
          );
          slot.timer = setTimeout(start, slot.pauseMs);
          slot.pauseMs = Math.min(slot.pauseMs * 2, RESTART.maxMs);
        });
      });
    };
    start();
    return slot;
  }

  return {
    async stop() {
      stopping = true;
      await Promise.all(
        slots.map(async (slot) => {
          clearTimeout(slot.timer);
          const child = slot.child;
          if (!child) return;
          child.kill("SIGTERM");
          const killing = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
          await slot.exited;
          clearTimeout(killing);
        }),
      );
    },
  };
}
