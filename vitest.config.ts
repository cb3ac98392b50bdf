import { defineConfig } from "vitest/config";

// Two tiers, both run by `npm test`:
// - unit: pure code (test/domain/, and any `*.unit.test.ts`: builders, listeners with a fake
//   ack/client): no database, no build, seconds. `npm run test:unit`.
// - integration: everything else, against one embedded PostgreSQL per run (each file clones
//   its own database from a migrated template) and the compiled CLI. `npm run test:integration`.
const UNIT = ["test/domain/**/*.test.ts", "test/**/*.unit.test.ts"];

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
        },
      },
      {
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          exclude: UNIT,
          globalSetup: ["test/support/build-cli.ts", "test/support/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: true,
        },
      },
    ],
  },
});
