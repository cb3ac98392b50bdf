// Whether the reply classifier's confidence means what it says. Each labelled set is read by a model trained on all
// the OTHER sets (as scripts/reply-leave-one-set-out.ts does), and its English replies' probabilities are kept.
// Prints reliability bins (stated confidence against how often the answer was right) with the model's raw
// probabilities and with them scaled by each temperature, the temperature that fits best (least log loss), and
// what each answerable floor would do with it.
//   npx tsx scripts/reply-calibration.ts [--cache file.json]
// --cache keeps the held-out probabilities in a file and reads them from it on the next run.
import fs from "node:fs";
import { bucketModelFrom } from "../src/replies/classifier.js";
import { readReplySet, replySets } from "../src/replies/reply-corpus.js";
import { readLanguage } from "../src/replies/reply-language.js";
import { BUCKETS } from "../src/replies/reply-model.js";

interface HeldOut {
  set: string;
  label: number;
  probabilities: number[];
}

const args = process.argv.slice(2);
const cache = args.includes("--cache") ? args[args.indexOf("--cache") + 1] : undefined;

async function heldOutProbabilities(): Promise<HeldOut[]> {
  if (cache && fs.existsSync(cache)) return JSON.parse(fs.readFileSync(cache, "utf8")) as HeldOut[];
  const sets = replySets();
  const labelled = new Map(sets.map((set) => [set, readReplySet(set)]));
  const held: HeldOut[] = [];
  for (const set of sets) {
    const model = await bucketModelFrom(sets.filter((other) => other !== set).flatMap((other) => labelled.get(other)!));
    for (const reply of labelled.get(set)!) {
      const { probabilities, text } = await model(reply.body);
      if (readLanguage(text).english) held.push({ set, label: BUCKETS.indexOf(reply.bucket), probabilities });
    }
    console.error(`read ${set}`);
  }
  if (cache) fs.writeFileSync(cache, JSON.stringify(held));
  return held;
}

const ESCALATION = BUCKETS.indexOf("escalation");

/** Probabilities with the model's scores divided by `temperature`: above 1 less sure, below 1 surer. */
function calibrated(probabilities: number[], temperature: number): number[] {
  const scores = probabilities.map((p) => Math.log(Math.max(p, 1e-300)) / temperature);
  const top = Math.max(...scores);
  const exp = scores.map((score) => Math.exp(score - top));
  const sum = exp.reduce((a, b) => a + b, 0);
  return exp.map((e) => e / sum);
}

/** The likeliest bucket and its probability. */
function best(probabilities: number[]): [number, number] {
  const at = probabilities.indexOf(Math.max(...probabilities));
  return [at, probabilities[at]!];
}

function logLoss(held: HeldOut[], temperature: number): number {
  return (
    -held.reduce((sum, h) => sum + Math.log(Math.max(1e-12, calibrated(h.probabilities, temperature)[h.label]!)), 0) /
    held.length
  );
}

/**
 * Stated confidence against how often it was right, in bins of 0.1: of the likeliest bucket, or (answerable) of the
 * likeliest answerable bucket among the replies the model does not read as an escalation, which the floor judges.
 */
function reliability(held: HeldOut[], temperature: number, answerable = false): void {
  const bins = Array.from({ length: 10 }, () => ({ n: 0, right: 0, stated: 0 }));
  let gap = 0;
  let counted = 0;
  for (const h of held) {
    const p = calibrated(h.probabilities, temperature);
    if (answerable && p[ESCALATION]! >= 0.25) continue;
    counted++;
    const [bucket, confidence] = best(answerable ? p.map((value, i) => (i === ESCALATION ? -1 : value)) : p);
    const bin = bins[Math.min(9, Math.floor(confidence * 10))]!;
    bin.n++;
    bin.stated += confidence;
    if (bucket === h.label) bin.right++;
  }
  console.log(
    answerable
      ? `the likeliest answerable bucket, replies whose escalation is under 0.25 (temperature ${temperature.toFixed(2)}):`
      : `the likeliest bucket, temperature ${temperature.toFixed(2)}: log loss ${logLoss(held, temperature).toFixed(3)}`,
  );
  console.log(`  ${"confidence".padEnd(12)}${"replies".padStart(8)}${"stated".padStart(8)}${"right".padStart(8)}`);
  for (const [i, bin] of bins.entries()) {
    if (bin.n === 0) continue;
    gap += Math.abs(bin.stated - bin.right);
    console.log(
      `  ${`${(i / 10).toFixed(1)}-${((i + 1) / 10).toFixed(1)}`.padEnd(12)}${String(bin.n).padStart(8)}${(bin.stated / bin.n).toFixed(2).padStart(8)}${(bin.right / bin.n).toFixed(2).padStart(8)}`,
    );
  }
  console.log(`  expected calibration error ${(gap / counted).toFixed(3)}`);
}

/** What a floor and an escalation threshold would do on the held-out replies: right answers and escalations caught. */
function decisions(held: HeldOut[], temperature: number, escalationThreshold: number, floor: number) {
  let right = 0;
  let caught = 0;
  let escalations = 0;
  let answeredWrong = 0;
  for (const h of held) {
    const p = calibrated(h.probabilities, temperature);
    const answerable = p.map((value, i) => (i === ESCALATION ? -1 : value));
    const [bucket, confidence] = best(answerable);
    const decided = p[ESCALATION]! >= escalationThreshold || confidence < floor ? ESCALATION : bucket;
    if (decided === h.label) right++;
    else if (decided !== ESCALATION) answeredWrong++;
    if (h.label === ESCALATION) {
      escalations++;
      if (decided === ESCALATION) caught++;
    }
  }
  return { right: right / held.length, caught, escalations, answeredWrong };
}

const held = await heldOutProbabilities();
console.log(`${held.length} English replies, each read by a model trained without its set\n`);
reliability(held, 1);
let fitted = 1;
for (let step = 6; step <= 80; step++) if (logLoss(held, step / 20) < logLoss(held, fitted)) fitted = step / 20;
console.log();
if (fitted !== 1) reliability(held, fitted);
console.log(`\nfitted temperature ${fitted.toFixed(2)}\n`);
reliability(held, fitted, true);
console.log();
console.log(
  `${"escalate at".padEnd(12)}${"floor".padStart(6)}${"right".padStart(8)}${"escalations".padStart(13)}${"answered wrong".padStart(16)}`,
);
for (const threshold of [0.15, 0.2, 0.25, 0.3, 0.35, 0.4])
  for (const floor of [0.5, 0.6, 0.7, 0.8]) {
    const d = decisions(held, fitted, threshold, floor);
    console.log(
      `${threshold.toFixed(2).padEnd(12)}${floor.toFixed(2).padStart(6)}${(100 * d.right).toFixed(1).padStart(7)}%${`${d.caught}/${d.escalations}`.padStart(13)}${String(d.answeredWrong).padStart(16)}`,
    );
  }
