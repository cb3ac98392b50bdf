// The case dataset: every lifecycle scenario run through the product on a database of its own. The datasets
// that need no database are scored in the unit tier (datasets.unit.test.ts).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { evalContext, runDataset } from "../../evals/runner.js";
import { PROJECT_ROOT, parseSettings } from "../../src/config/settings.js";
import { createTestDatabase } from "../support/database.js";

const settings = parseSettings({});

describe("case dataset", () => {
  it("runs every lifecycle scenario through the product and passes them all", async () => {
    const scratch = await createTestDatabase();
    const context = evalContext(settings, scratch.url);
    try {
      const report = await runDataset(path.join(PROJECT_ROOT, "evals", "datasets", "case.jsonl"), context);
      expect(report.results.length).toBeGreaterThanOrEqual(40);
      expect(
        report.results.filter((r) => !r.pass).map((r) => ({ id: r.id, expected: r.expected, actual: r.actual })),
      ).toEqual([]);
      expect(report.metrics.cancel_precision).toBe(1);
    } finally {
      await context.close();
      await scratch.drop();
    }
  }, 240_000);
});
