// The engine against the project's own datasets: every example must pass.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseSettings, PROJECT_ROOT } from "../../src/config/settings.js";
import { evalContext, runDataset } from "../../evals/runner.js";

const settings = parseSettings({});

describe.each(["shift", "location"])("%s dataset", (kind) => {
  it("scores 100% with complete evidence", async () => {
    const report = await runDataset(path.join(PROJECT_ROOT, "evals", "datasets", `${kind}.jsonl`), evalContext(settings));
    expect(report.results.filter((r) => !r.pass).map((r) => r.id)).toEqual([]);
    expect(report.results.length).toBeGreaterThanOrEqual(kind === "shift" ? 60 : 30);
    expect(report.metrics.evidence_completeness).toBe(1);
  });
});
