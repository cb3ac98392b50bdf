// The `reply` kind: the reply classifier the bot would use (the configured model over the embedded classifier, or
// the embedded classifier alone) against labelled rider replies.
import { z } from "zod";
import { classifierWithout, type ReplyClassifier } from "../../src/replies/classifier.js";
import { replyClassifierFor } from "../../src/replies/model-classifier.js";
import type { EvalKind, ExampleResult } from "./kind.js";

const BUCKETS = ["acknowledgment", "question", "update", "escalation"] as const;
const inputs = z.object({ body: z.string(), subject: z.string().optional() });
const expected = z.object({ bucket: z.enum(BUCKETS), hitl_required: z.boolean() });
type Expected = z.infer<typeof expected>;
/** `language` names a reply not in English; `unread` says no reader could read it and it went to a person. */
type Actual = Expected & { confidence: number; reasons: string[]; language?: string; unread?: boolean };

/** One classifier per scored dataset, its floor trained on every other set: what it scores, it never learnt. */
const classifiers = new Map<string, ReplyClassifier>();

export const replyKind: EvalKind<z.infer<typeof inputs>, Expected, Actual> = {
  inputs,
  expected,
  async run(example, context) {
    const key = context.datasetFile ?? "";
    const classifier =
      classifiers.get(key) ?? replyClassifierFor(context.settings, classifierWithout(context.datasetFile));
    classifiers.set(key, classifier);
    const result = await classifier.classify(example.body, example.subject);
    return {
      bucket: result.bucket,
      hitl_required: result.bucket === "escalation",
      confidence: result.confidence,
      reasons: result.reasons,
      ...(result.language ? { language: result.language } : {}),
      ...(result.unread ? { unread: true } : {}),
    };
  },
  // A reply in a language no reader could read is handled right when it went to a person with its language named
  // (docs/reply-buckets.md, "Language first"); its bucket is not scored.
  passed: (e, a) => (a.unread ? Boolean(a.language) : e.bucket === a.bucket && e.hitl_required === a.hitl_required),
  metrics(results: ExampleResult<Expected, Actual>[]) {
    const confusion = Object.fromEntries(
      BUCKETS.map((b) => [b, Object.fromEntries(BUCKETS.map((p) => [p, 0]))]),
    ) as Record<string, Record<string, number>>;
    const read = results.filter((r) => !r.actual.unread);
    for (const r of read) confusion[r.expected.bucket]![r.actual.bucket]!++;
    const escalations = results.filter((r) => r.expected.bucket === "escalation");
    return {
      examples: results.length,
      // Among the replies a reader read: one in a language none could read goes to a person, counted below.
      bucket_accuracy: read.length
        ? read.filter((r) => r.expected.bucket === r.actual.bucket).length / read.length
        : null,
      hitl_match: read.length
        ? read.filter((r) => r.expected.hitl_required === r.actual.hitl_required).length / read.length
        : null,
      other_languages: results.filter((r) => r.actual.language).length,
      unread_to_person: results.length - read.length,
      escalation_recall: escalations.length
        ? escalations.filter((r) => r.actual.bucket === "escalation").length / escalations.length
        : null,
      confusion_matrix: confusion,
    };
  },
  describeMetrics(m) {
    const metrics = m as {
      examples: number;
      bucket_accuracy: number | null;
      hitl_match: number | null;
      other_languages: number;
      unread_to_person: number;
      escalation_recall: number | null;
      confusion_matrix: Record<string, Record<string, number>>;
    };
    const pct = (v: number | null) => (v === null ? "n/a" : `${(v * 100).toFixed(1)}%`);
    return [
      `bucket accuracy ${pct(metrics.bucket_accuracy)}, hitl match ${pct(metrics.hitl_match)} on the replies read; escalation recall ${pct(metrics.escalation_recall)} on all ${metrics.examples} replies`,
      `${metrics.other_languages} not in English; ${metrics.unread_to_person} of them went to a person unread, their language named`,
      "confusion matrix of the replies read (rows expected, columns predicted):",
      `  ${"".padEnd(15)}${BUCKETS.map((b) => b.slice(0, 11).padStart(12)).join("")}`,
      ...BUCKETS.map(
        (b) => `  ${b.padEnd(15)}${BUCKETS.map((p) => String(metrics.confusion_matrix[b]![p]).padStart(12)).join("")}`,
      ),
    ];
  },
};
