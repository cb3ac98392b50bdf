// What one kind of evaluation (shift, location, and later reply and case) provides
// to the runner.
import type { z } from "zod";
import type { Settings } from "../../src/config/settings.js";
import type { ScenarioStore } from "../scenario-store.js";

export interface EvalContext {
  settings: Settings;
  /** The dataset being scored: a kind that learns from labelled sets leaves this one out. */
  datasetFile?: string;
  /** A scratch database for kinds that run the whole product (opened on first use). */
  scenarioStore(): Promise<ScenarioStore>;
}

export interface ExampleResult<Expected, Actual> {
  id: string;
  pass: boolean;
  expected: Expected;
  actual: Actual;
}

export interface EvalKind<Inputs, Expected, Actual> {
  inputs: z.ZodType<Inputs>;
  expected: z.ZodType<Expected>;
  run(inputs: Inputs, context: EvalContext): Promise<Actual>;
  passed(expected: Expected, actual: Actual): boolean;
  metrics(results: ExampleResult<Expected, Actual>[]): Record<string, unknown>;
  /** A few readable lines for the text report. */
  describeMetrics(metrics: Record<string, unknown>): string[];
}
