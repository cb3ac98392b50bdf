// Each integration file runs in a worker process of its own: that process's CPU time when the file
// ends, its child processes' (bots, CLI commands) included, is the file's CPU time (PostgreSQL's is
// shared and not in it). The summary reporter shows it beside the slowest files' wall time, where a
// shorter suite has to start. Linux only (/proc); elsewhere nothing is recorded.
import fs from "node:fs";
import { afterAll } from "vitest";

/** Clock ticks per second on Linux. */
const TICKS = 100;

declare module "@vitest/runner" {
  interface TaskMeta {
    /** CPU seconds of the process that ran the file, its reaped child processes included. */
    cpuSeconds?: number;
  }
}

// biome-ignore lint/correctness/noEmptyPattern: vitest reads fixtures from a first parameter, which must be destructured
afterAll(({}, file) => {
  let stat: string;
  try {
    stat = fs.readFileSync("/proc/self/stat", "utf8");
  } catch {
    return;
  }
  // utime stime cutime cstime, after the parenthesised command name.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  file.meta.cpuSeconds = fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / TICKS;
});
