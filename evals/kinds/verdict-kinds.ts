// The `shift` and `location` kinds: the verification engine against expected
// verdicts and flagged riders.
import { z } from "zod";
import { coordsSchema, scheduleSchema } from "../../src/domain/fixture-schema.js";
import { evaluateShift } from "../../src/domain/shift-policy.js";
import type { SpecialistResult, Verdict } from "../../src/domain/specialist-result.js";
import { createDistanceProvider } from "../../src/integrations/distance/index.js";
import { checkLocation } from "../../src/verification/location-check.js";
import type { EvalKind, ExampleResult } from "./kind.js";

const VERDICTS: Verdict[] = ["pass", "fail", "inconclusive"];
const expectedSchema = z.object({ verdict: z.enum(["pass", "fail", "inconclusive"]), flagged: z.array(z.string()) });
type Expected = z.infer<typeof expectedSchema>;
type Actual = Expected & Pick<SpecialistResult, "confidence" | "reasoning" | "evidence">;

const shiftInputs = z.object({
  vanpool: z.object({ vanpool_id: z.string(), schedule: scheduleSchema.nullable().optional() }),
  riders: z.array(
    z.object({
      employee_id: z.string(),
      shift: z.object({ name: z.string(), schedule: scheduleSchema }).nullable(),
      pto_dates: z.array(z.string()).default([]),
    }),
  ),
  as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});

const locationInputs = z.object({
  vanpool: z.object({
    vanpool_id: z.string(),
    work_site_coords: coordsSchema,
    pickup_coords: coordsSchema.nullable().optional(),
  }),
  riders: z.array(
    z.object({
      employee_id: z.string(),
      home_zip: z.string().nullable().optional(),
      home_coords: coordsSchema.nullable().optional(),
    }),
  ),
});

function toActual(result: SpecialistResult): Actual {
  return {
    verdict: result.verdict,
    flagged: result.flagged,
    confidence: result.confidence,
    reasoning: result.reasoning,
    evidence: result.evidence,
  };
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join("\u0000") === [...b].sort().join("\u0000");
}

function verdictMetrics(results: ExampleResult<Expected, Actual>[], evidenceComplete: (actual: Actual) => boolean) {
  const total = results.length;
  const perVerdict = Object.fromEntries(
    VERDICTS.map((verdict) => {
      const predicted = results.filter((r) => r.actual.verdict === verdict);
      const actualPositives = results.filter((r) => r.expected.verdict === verdict);
      const truePositives = predicted.filter((r) => r.expected.verdict === verdict).length;
      return [
        verdict,
        {
          precision: predicted.length ? truePositives / predicted.length : null,
          recall: actualPositives.length ? truePositives / actualPositives.length : null,
          support: actualPositives.length,
        },
      ];
    }),
  );
  return {
    examples: total,
    accuracy: results.filter((r) => r.pass).length / total,
    verdict_accuracy: results.filter((r) => r.expected.verdict === r.actual.verdict).length / total,
    flagged_accuracy: results.filter((r) => sameSet(r.expected.flagged, r.actual.flagged)).length / total,
    per_verdict: perVerdict,
    evidence_completeness: results.filter((r) => evidenceComplete(r.actual)).length / total,
  };
}

function describeVerdictMetrics(metrics: Record<string, unknown>): string[] {
  const m = metrics as ReturnType<typeof verdictMetrics>;
  const pct = (v: number | null) => (v === null ? "  n/a" : `${(v * 100).toFixed(1)}%`);
  return [
    `accuracy ${pct(m.accuracy)}  (verdict ${pct(m.verdict_accuracy)}, flagged riders ${pct(m.flagged_accuracy)}) on ${m.examples} examples`,
    `evidence completeness ${pct(m.evidence_completeness)}`,
    ...VERDICTS.map(
      (v) =>
        `  ${v.padEnd(13)} precision ${pct(m.per_verdict[v]!.precision)}  recall ${pct(m.per_verdict[v]!.recall)}  support ${m.per_verdict[v]!.support}`,
    ),
  ];
}

const has = (item: Record<string, unknown>, ...fields: string[]) => fields.every((f) => f in item);

/** Every rider is cited with its schedule and, when a reference exists, per-day alignment and ratio. */
function shiftEvidenceComplete(actual: Actual): boolean {
  const reference = actual.evidence.find((e) => e.type === "shift_reference");
  if (!reference || !has(reference, "source", "schedule")) return false;
  const riders = actual.evidence.filter((e) => e.type === "employee_shift");
  if (riders.length === 0) return false;
  if (reference.source === "none") return riders.every((r) => has(r, "employee_id", "schedule"));
  return riders.every(
    (r) =>
      r.verdict === "inconclusive" ||
      has(r, "employee_id", "schedule", "days", "compatible_day_ratio", "pto_days_used"),
  );
}

/** Pickup point cited; every rider has a home source and a distance against the threshold. */
function locationEvidenceComplete(actual: Actual): boolean {
  if (!actual.evidence.some((e) => e.type === "vanpool_pickup" && has(e, "pickup_coords", "point_source")))
    return false;
  const profiles = actual.evidence.filter((e) => e.type === "employee_profile");
  const distances = actual.evidence.filter((e) => e.type === "distance_check");
  return (
    profiles.length > 0 &&
    profiles.length === distances.length &&
    profiles.every((p) => has(p, "employee_id", "home_zip", "home_point_source")) &&
    distances.every((d) => has(d, "distance_miles", "threshold_miles", "verdict"))
  );
}

export const shiftKind: EvalKind<z.infer<typeof shiftInputs>, Expected, Actual> = {
  inputs: shiftInputs,
  expected: expectedSchema,
  async run(inputs, { settings }) {
    return toActual(
      evaluateShift(inputs, {
        toleranceMinutes: settings.policy.shiftToleranceMinutes,
        minCompatibleDayRatio: settings.policy.minCompatibleDayRatio,
      }),
    );
  },
  passed: (expected, actual) => expected.verdict === actual.verdict && sameSet(expected.flagged, actual.flagged),
  metrics: (results) => verdictMetrics(results, shiftEvidenceComplete),
  describeMetrics: describeVerdictMetrics,
};

export const locationKind: EvalKind<z.infer<typeof locationInputs>, Expected, Actual> = {
  inputs: locationInputs,
  expected: expectedSchema,
  async run(inputs, { settings }) {
    return toActual(
      await checkLocation(inputs, createDistanceProvider(settings), {
        maxDistanceMiles: settings.policy.maxDistanceMiles,
      }),
    );
  },
  passed: (expected, actual) => expected.verdict === actual.verdict && sameSet(expected.flagged, actual.flagged),
  metrics: (results) => verdictMetrics(results, locationEvidenceComplete),
  describeMetrics: describeVerdictMetrics,
};
