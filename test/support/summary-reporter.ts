// Ends a run with the plain "N passed, N failed" line that CI logs are read for, after one line per
// tier (vitest project) with its wall time: from its first file's start to its last file's end, and
// the slowest files with theirs (where a shorter suite has to start) and, for integration files, their
// CPU time (test/support/file-cpu.ts), then the files whose wall time most exceeds their CPU time.
// The tiers run one after the other (sequence.groupOrder in vitest.config.ts), so these add up,
// with the global setup (compiling the CLI, starting PostgreSQL) before them. Each tier's line also says how
// busy the machine's cores were meanwhile (Linux /proc/stat, every process, the tests' children and
// PostgreSQL included): well under 100% means a tier waits more than it computes, and more workers could help.
import fs from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import type { Reporter, TestModule } from "vitest/node";

interface TierTime {
  first: number;
  last: number;
  files: number;
  cpuAtFirst?: CpuTicks;
  cpuAtLast?: CpuTicks;
}

/** The machine's CPU time so far, busy and all, in clock ticks; undefined where /proc/stat is not. */
interface CpuTicks {
  busy: number;
  total: number;
}
function cpuTicks(): CpuTicks | undefined {
  try {
    const [, ...fields] = fs.readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/);
    // user nice system idle iowait irq softirq steal (guest time is counted in user already)
    const ticks = fields.slice(0, 8).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    return { busy: total - ticks[3]! - (ticks[4] ?? 0), total };
  } catch {
    return undefined;
  }
}
const busyWords = (t: TierTime) => {
  if (!t.cpuAtFirst || !t.cpuAtLast || t.cpuAtLast.total <= t.cpuAtFirst.total) return "";
  const share = (t.cpuAtLast.busy - t.cpuAtFirst.busy) / (t.cpuAtLast.total - t.cpuAtFirst.total);
  return `, CPU busy ${(share * 100).toFixed(0)}% of ${os.availableParallelism()} cores`;
};

interface FileTime {
  file: string;
  ms: number;
  cpuSeconds?: number;
}

const SLOWEST_FILES = 8;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export default class SummaryReporter implements Reporter {
  private runStart = performance.now();
  private tiers = new Map<string, TierTime>();
  private fileStarts = new Map<string, number>();
  private fileTimes: FileTime[] = [];

  onTestRunStart(): void {
    this.runStart = performance.now();
    this.tiers.clear();
    this.fileStarts.clear();
    this.fileTimes = [];
  }

  onTestModuleStart(module: TestModule): void {
    const name = module.project.name || "tests";
    const tier = this.tiers.get(name);
    const now = performance.now();
    this.fileStarts.set(module.moduleId, now);
    if (tier) tier.first = Math.min(tier.first, now);
    else this.tiers.set(name, { first: now, last: now, files: 0, cpuAtFirst: cpuTicks() });
  }

  onTestModuleEnd(module: TestModule): void {
    const started = this.fileStarts.get(module.moduleId);
    if (started !== undefined)
      this.fileTimes.push({
        file: module.relativeModuleId,
        ms: performance.now() - started,
        cpuSeconds: module.meta().cpuSeconds,
      });
    const tier = this.tiers.get(module.project.name || "tests");
    if (!tier) return;
    tier.last = Math.max(tier.last, performance.now());
    tier.cpuAtLast = cpuTicks();
    tier.files++;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) failed++;
    }
    const end = performance.now();
    const firstStart = Math.min(...[...this.tiers.values()].map((t) => t.first));
    const lines = [...this.tiers.entries()]
      .sort(([, a], [, b]) => a.first - b.first)
      .map(([name, t]) => `${name} tier: ${seconds(t.last - t.first)} (${t.files} files${busyWords(t)})`);
    if (Number.isFinite(firstStart)) lines.unshift(`setup and collection: ${seconds(firstStart - this.runStart)}`);
    const slowest = [...this.fileTimes].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_FILES);
    const cpu = (f: { cpuSeconds?: number }) =>
      f.cpuSeconds === undefined ? "" : ` (CPU ${f.cpuSeconds.toFixed(1)} s)`;
    if (slowest.length > 1)
      lines.push(`slowest files: ${slowest.map((f) => `${f.file} ${seconds(f.ms)}${cpu(f)}`).join(", ")}`);
    // Wall time well past CPU time: the file waits (timers, retries, pacing) or waits for a busy core.
    const waiting = this.fileTimes
      .filter((f): f is FileTime & { cpuSeconds: number } => f.cpuSeconds !== undefined)
      .map((f) => ({ ...f, waitMs: f.ms - f.cpuSeconds * 1000 }))
      .sort((a, b) => b.waitMs - a.waitMs)
      .slice(0, SLOWEST_FILES);
    if (waiting.length > 1)
      lines.push(
        `most waiting (wall minus CPU): ${waiting.map((f) => `${f.file} ${seconds(f.waitMs)} (wall ${seconds(f.ms)})`).join(", ")}`,
      );
    lines.push(`whole run: ${seconds(end - this.runStart)}`);
    process.stdout.write(`\n${lines.join("\n")}\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
