// A linear model of reply buckets: multinomial logistic regression over word, word-pair and character
// n-gram features (tf-idf, unit length) of the rider's own words, the sentence encoder's vector of what they
// mean (unit length too) and the rules' signals, trained by
// stochastic gradient descent on the labelled replies. Same data, same model: the shuffle has a fixed seed.
// Character n-grams carry typos and word forms ("chnged", "moving"); negation scope marks the words a
// "not" or "no" governs, so "not correct" and "correct" are different evidence.
import type { ReplyBucket } from "../domain/case-lifecycle.js";

export const BUCKETS: readonly ReplyBucket[] = ["acknowledgment", "question", "update", "escalation"];

export interface LabelledText {
  text: string;
  /** Named facts noticed by other means (rules), learned like any other feature. */
  signals: string[];
  /** What the reply means, from the sentence encoder: about unit length. */
  meaning: number[];
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
  probabilities(text: string, signals: string[], meaning: number[]): number[];
  /** The trained model as data, to be read back by `replyModelOf` without training. */
  saved(): SavedReplyModel;
}

/** A trained model: its features by number, their idf, and one weight per bucket for each feature (float32, base64). */
export interface SavedReplyModel {
  features: string[];
  idf: number[];
  weights: string;
  bias: number[];
}

/** A signal weighs about as much as a third of the words: the rules help, the words still decide. */
const SIGNAL_VALUE = 0.3;
/**
 * The meaning weighs a little less than the words. Chosen by leave-one-set-out: at the words' weight it sends fewer
 * confirmations to a person but misses more escalations; at half, it gains less on either.
 */
const MEANING_VALUE = 0.6;
const NEGLIGIBLE_GRADIENT = 1e-3;
const NEGATORS = /^(?:not|no|never|nothing|none|nobody|cannot|without|nor|\w+n't|dont|didnt|cant|wont|isnt|doesnt)$/;
const CLAUSE_END = /^[.,;:!?]$/;

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
  values: Float64Array;
}

/** Feature numbers, each feature numbered the first time training meets it; a feature it never met is left out. */
type Vocabulary = Map<string, number>;

function numberOf(name: string, vocabulary: Vocabulary, grow: boolean): number | undefined {
  if (!vocabulary.has(name) && grow) vocabulary.set(name, vocabulary.size);
  return vocabulary.get(name);
}

function countsOf(text: string, vocabulary: Vocabulary, grow: boolean): Map<number, number> {
  const counts = new Map<number, number>();
  for (const name of featureNames(text)) {
    const index = numberOf(name, vocabulary, grow);
    if (index !== undefined) counts.set(index, (counts.get(index) ?? 0) + 1);
  }
  return counts;
}

function vectorise(
  counts: Map<number, number>,
  signals: string[],
  idf: Float64Array,
  vocabulary: Vocabulary,
  grow: boolean,
  meaning: number[],
): SparseVector {
  const weighted = [...counts].map(([index, count]): [number, number] => [index, (1 + Math.log(count)) * idf[index]!]);
  const norm = Math.sqrt(weighted.reduce((sum, [, value]) => sum + value * value, 0)) || 1;
  // The words are one unit vector and the meaning a shorter one; each signal counts on its own, whatever the
  // length of the reply.
  const features = new Map(weighted.map(([index, value]) => [index, value / norm]));
  meaning.forEach((value, dimension) => {
    const index = numberOf(`meaning:${dimension}`, vocabulary, grow);
    if (index !== undefined) features.set(index, value * MEANING_VALUE);
  });
  for (const signal of new Set(signals)) {
    const index = numberOf(`signal:${signal}`, vocabulary, grow);
    if (index !== undefined) features.set(index, SIGNAL_VALUE);
  }
  return { indices: Int32Array.from(features.keys()), values: Float64Array.from(features.values()) };
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
  const vocabulary: Vocabulary = new Map();
  const counts = examples.map((example) => countsOf(example.text, vocabulary, true));
  const documentFrequency = new Float64Array(vocabulary.size);
  for (const count of counts) for (const index of count.keys()) documentFrequency[index]!++;
  const idf = documentFrequency.map((df) => Math.log((1 + examples.length) / (1 + df)) + 1);
  const vectors = counts.map((count, n) =>
    vectorise(count, examples[n]!.signals, idf, vocabulary, true, examples[n]!.meaning),
  );
  const labels = examples.map((example) => BUCKETS.indexOf(example.bucket));
  // One row of a weight per bucket for each feature, side by side.
  const weights = new Float64Array(classes * vocabulary.size);
  const bias = new Float64Array(classes);
  const probabilitiesOf = ({ indices, values }: SparseVector): number[] => {
    const scores = Array.from(bias);
    for (let i = 0; i < indices.length; i++)
      for (let k = 0; k < classes; k++) scores[k]! += weights[indices[i]! * classes + k]! * values[i]!;
    return softmax(scores);
  };
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
      const probabilities = probabilitiesOf(vectors[n]!);
      const cost = labels[n] === 3 ? tuning.escalationWeight : 1;
      for (let k = 0; k < classes; k++) {
        const gradient = cost * (probabilities[k]! - (labels[n] === k ? 1 : 0));
        // A reply the model already gets right teaches it nearly nothing: skipping it keeps training quick.
        if (Math.abs(gradient) < NEGLIGIBLE_GRADIENT) continue;
        bias[k]! -= rate * gradient;
        for (let i = 0; i < indices.length; i++) {
          const at = indices[i]! * classes + k;
          weights[at] = weights[at]! * (1 - rate * tuning.l2) - rate * gradient * values[i]!;
        }
      }
    }
  }
  return modelOf(vocabulary, idf, weights, bias);
}

/** The model `saved` holds, as trained: reading it back costs milliseconds where training costs seconds. */
export function replyModelOf(saved: SavedReplyModel): ReplyModel {
  const bytes = Buffer.from(saved.weights, "base64");
  const weights = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  return modelOf(
    new Map(saved.features.map((name, index) => [name, index])),
    Float64Array.from(saved.idf),
    weights,
    Float64Array.from(saved.bias),
  );
}

function modelOf(
  vocabulary: Vocabulary,
  idf: Float64Array,
  weights: Float64Array | Float32Array,
  bias: Float64Array,
): ReplyModel {
  const classes = BUCKETS.length;
  const probabilitiesOf = ({ indices, values }: SparseVector): number[] => {
    const scores = Array.from(bias);
    for (let i = 0; i < indices.length; i++)
      for (let k = 0; k < classes; k++) scores[k]! += weights[indices[i]! * classes + k]! * values[i]!;
    return softmax(scores);
  };
  return {
    probabilities: (text, signals, meaning) =>
      probabilitiesOf(vectorise(countsOf(text, vocabulary, false), signals, idf, vocabulary, false, meaning)),
    saved: () => ({
      features: [...vocabulary.keys()],
      idf: Array.from(idf),
      weights: Buffer.from(Float32Array.from(weights).buffer).toString("base64"),
      bias: Array.from(bias),
    }),
  };
}
