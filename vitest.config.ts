import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/build-cli.ts", "test/support/global-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database cloned from a migrated template.
    fileParallelism: true,
  },
});
