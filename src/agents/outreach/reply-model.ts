// A linear model of reply buckets: multinomial logistic regression over hashed word, word-pair and
// character n-gram features of the rider's own words, trained at start-up on the labelled replies.
// Character n-grams carry typos and word forms ("chnged", "moving"); negation scope marks the words a
// "not" or "no" governs, so "not correct" and "correct" are different evidence.
import type { ReplyBucket } from "../../domain/case-lifecycle.js";

export const BUCKETS: readonly ReplyBucket[] = ["acknowledgment", "question", "update", "escalation"];

export interface LabelledText {
  text: string;
  /** Named facts noticed by other means (rules), learned like any other feature. */
  signals: string[];
  bucket: ReplyBucket;
}

export interface ModelTuning {
  epochs: number;
  learningRate: number;
  /** L2 penalty per example step. */
  l2: number;
  /** How much more a missed escalation costs in training than any other mistake. */
  escalationWeight: number;
}

export const DEFAULT_MODEL_TUNING: ModelTuning = { epochs: 12, learningRate: 0.6, l2: 1e-5, escalationWeight: 1.5 };

export interface ReplyModel {
  /** Probability of each bucket, in BUCKETS order. */
  probabilities(text: string, signals: string[]): number[];
}

const DIMENSIONS = 1 << 18;
/** A signal weighs about as much as a third of the words: the rules help, the words still decide. */
const SIGNAL_VALUE = 0.3;
const NEGATORS = /^(?:not|no|never|nothing|none|nobody|cannot|without|nor|\w+n't|dont|didnt|cant|wont|isnt|doesnt)$/;
const CLAUSE_END = /^[.,;:!?]$/;

function hash(feature: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) {
    h ^= feature.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & (DIMENSIONS - 1);
}

/** Feature names of a reply, already lower case and spelled out. */
export function featureNames(text: string): string[] {
  const tokens = text.match(/[\p{L}\p{N}']+|[?!.,;:]/gu) ?? [];
  const words: string[] = [];
  let negated = false;
  for (const token of tokens) {
    if (CLAUSE_END.test(token)) {
      negated = false;
      words.push(token);
      continue;
    }
    words.push(negated ? `not_${token}` : token);
    if (NEGATORS.test(token)) negated = true;
  }
  const names: string[] = [];
  const sequence = ["<s>", ...words, "</s>"];
  for (let i = 0; i < sequence.length; i++) {
    if (i > 0 && i < sequence.length - 1) names.push(`w:${sequence[i]}`);
    if (i > 0) names.push(`b:${sequence[i - 1]}_${sequence[i]}`);
  }
  for (const token of tokens) {
    if (CLAUSE_END.test(token)) continue;
    const padded = ` ${token} `;
    for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= padded.length; i++) names.push(`c:${padded.slice(i, i + n)}`);
  }
  const wordCount = tokens.filter((t) => !CLAUSE_END.test(t)).length;
  names.push(`len:${wordCount <= 3 ? "short" : wordCount <= 12 ? "medium" : wordCount <= 40 ? "long" : "very long"}`);
  if (/\?\s*$/.test(text)) names.push("ends asking");
  if (!/\p{L}/u.test(text)) names.push("no words");
  return names;
}

interface SparseVector {
  indices: Int32Array;
  values: Float32Array;
}

function vectorise(text: string, signals: string[], idf?: Float32Array): SparseVector {
  const counts = new Map<number, number>();
  for (const name of featureNames(text)) {
    const index = hash(name);
    counts.set(index, (counts.get(index) ?? 0) + 1);
  }
  const weighted = [...counts].map(([index, count]) => (1 + Math.log(count)) * (idf ? idf[index]! : 1));
  const norm = Math.sqrt(weighted.reduce((sum, v) => sum + v * v, 0)) || 1;
  // The words are one unit vector; each signal counts on its own, whatever the length of the reply.
  const features = new Map(weighted.map((value, i) => [[...counts.keys()][i]!, value / norm]));
  for (const signal of new Set(signals)) {
    const index = hash(`signal:${signal}`);
    features.set(index, (features.get(index) ?? 0) + SIGNAL_VALUE);
  }
  return { indices: Int32Array.from(features.keys()), values: Float32Array.from(features.values()) };
}

/** A fixed-seed generator: the same training data always gives the same model. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function softmax(scores: number[]): number[] {
  const max = Math.max(...scores);
  const exp = scores.map((s) => Math.exp(s - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  return exp.map((e) => e / sum);
}

export function trainReplyModel(examples: LabelledText[], tuning: ModelTuning = DEFAULT_MODEL_TUNING): ReplyModel {
  const classes = BUCKETS.length;
  const documentFrequency = new Float32Array(DIMENSIONS);
  const raw = examples.map((example) => vectorise(example.text, []));
  for (const vector of raw) for (const index of vector.indices) documentFrequency[index]!++;
  const idf = documentFrequency.map((df) => Math.log((1 + examples.length) / (1 + df)) + 1);
  const vectors = examples.map((example) => vectorise(example.text, example.signals, idf));
  const labels = examples.map((example) => BUCKETS.indexOf(example.bucket));
  const weights = new Float32Array(classes * DIMENSIONS);
  const bias = new Float64Array(classes);
  const next = random(1);
  const order = examples.map((_, i) => i);
  let step = 0;
  const totalSteps = tuning.epochs * examples.length;
  for (let epoch = 0; epoch < tuning.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const n of order) {
      const rate = tuning.learningRate * (1 - step++ / totalSteps) + 0.01;
      const { indices, values } = vectors[n]!;
      const scores = Array.from(bias, (b, k) => {
        let score = b;
        for (let i = 0; i < indices.length; i++) score += weights[k * DIMENSIONS + indices[i]!]! * values[i]!;
        return score;
      });
      const probabilities = softmax(scores);
      const cost = labels[n] === 3 ? tuning.escalationWeight : 1;
      for (let k = 0; k < classes; k++) {
        const gradient = cost * (probabilities[k]! - (labels[n] === k ? 1 : 0));
        bias[k]! -= rate * gradient;
        for (let i = 0; i < indices.length; i++) {
          const at = k * DIMENSIONS + indices[i]!;
          weights[at] = weights[at]! * (1 - rate * tuning.l2) - rate * gradient * values[i]!;
        }
      }
    }
  }
  return {
    probabilities(text: string, signals: string[]): number[] {
      const { indices, values } = vectorise(text, signals, idf);
      return softmax(
        Array.from(bias, (b, k) => {
          let score = b;
          for (let i = 0; i < indices.length; i++) score += weights[k * DIMENSIONS + indices[i]!]! * values[i]!;
          return score;
        }),
      );
    },
  };
}
