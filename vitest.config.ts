import { defineConfig } from "vitest/config";

// Two tiers, both run by `npm test`:
// - unit: pure code (test/domain/, and any `*.unit.test.ts`: builders, listeners with a fake
//   ack/client): no database, no build, seconds. `npm run test:unit`.
// - integration: everything else, against one embedded PostgreSQL per run (each file clones
//   its own database from a migrated template) and the compiled CLI. `npm run test:integration`.
const UNIT = ["test/domain/**/*.test.ts", "test/**/*.unit.test.ts"];
// The tiers run one after the other, unit first (sequence.groupOrder), so each has its own workers and
// the summary reporter prints each one's wall time. Vitest's default on this 2-core machine is one
// worker (cores - 1): the unit tier is CPU-bound and takes both cores; integration files mostly wait
// on PostgreSQL, child processes and timers, so two run at once (three made the kill -9 trials
// and the classifier's first training race for the cores). Vitest runs projects of one groupOrder in one
// pool with one maxWorkers, so files that mostly wait cannot get a third worker beside these two; their waits
// are shortened instead (settings such as POOLPATROL_SLACK_POST_INTERVAL_MS=0 and
// POOLPATROL_SWEEP_RETRY_DELAY_SECONDS=0), and the summary names the files that still wait most.

export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "unit",
          include: UNIT,
          // The reply classifier trains on its first call: seconds, more on a busy machine.
          testTimeout: 30_000,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          exclude: UNIT,
          globalSetup: ["test/support/build-cli.ts", "test/support/global-setup.ts"],
          setupFiles: ["test/support/file-cpu.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
