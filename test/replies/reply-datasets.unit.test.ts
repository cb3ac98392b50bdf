// The classifier is trained on its training files and measured on the evaluation sets; an example that appears
// (or nearly appears) in both would make the measured accuracy a memory test.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../src/config/settings.js";
import { TRAINING_SETS } from "../../src/replies/reply-corpus.js";
import { extractReplyText } from "../../src/replies/reply-text.js";

const NEAR_DUPLICATE = 0.75;

interface Reply {
  file: string;
  line: number;
  body: string;
}

function readReplies(relative: string): Reply[] {
  return fs
    .readFileSync(path.join(PROJECT_ROOT, relative), "utf8")
    .split("\n")
    .map((text, index) => ({ text, line: index + 1 }))
    .filter(({ text }) => text.trim())
    .map(({ text, line }) => {
      const row = JSON.parse(text) as { body?: string; inputs?: { body: string } };
      return { file: path.basename(relative), line, body: row.body ?? row.inputs!.body };
    });
}

/** Words only, lower case; a reply without words ("👍", "?") is compared as it is. */
function normalise(body: string): string {
  const reply = extractReplyText(body).reply;
  return (
    reply
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim() || reply
  );
}

function trigrams(text: string): Set<string> {
  const padded = ` ${text} `;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
}

function similarity(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const gram of a) if (b.has(gram)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Pairs across the two lists that are the same reply, or nearly (trigram Jaccard at or above the bar). */
function overlaps(left: Reply[], right: Reply[]): string[] {
  const rightGrams = right.map((reply) => {
    const text = normalise(reply.body);
    return { reply, text, grams: trigrams(text) };
  });
  const found: string[] = [];
  for (const reply of left) {
    const text = normalise(reply.body);
    const grams = trigrams(text);
    for (const other of rightGrams) {
      // Jaccard is at most the smaller set's size over the larger's: below the bar, it need not be counted.
      const couldBeNear =
        Math.min(grams.size, other.grams.size) >= NEAR_DUPLICATE * Math.max(grams.size, other.grams.size);
      if (text === other.text || (couldBeNear && similarity(grams, other.grams) >= NEAR_DUPLICATE))
        found.push(
          `${reply.file}:${reply.line} "${reply.body}" ~ ${other.reply.file}:${other.reply.line} "${other.reply.body}"`,
        );
    }
  }
  return found;
}

const training = TRAINING_SETS.flatMap(readReplies);
const tuned = readReplies("evals/datasets/reply.jsonl");
const unseen = fs
  .readdirSync(path.join(PROJECT_ROOT, "evals", "datasets"))
  .filter((file) => /^reply-unseen.*\.jsonl$/.test(file))
  .flatMap((file) => readReplies(path.join("evals", "datasets", file)));

describe("reply datasets", () => {
  it("share no reply, word for word or nearly, between training and either evaluation set", () => {
    expect(overlaps(training, tuned)).toEqual([]);
    expect(overlaps(training, unseen)).toEqual([]);
  });

  it("keep the held-out set apart from the tuned evaluation set", () => {
    expect(overlaps(tuned, unseen)).toEqual([]);
  });

  it("would notice a copied reply with different punctuation or a signature", () => {
    const copy = [{ file: "copy", line: 1, body: `${tuned[0]!.body.toUpperCase()}!!\n\nSent from my iPhone` }];
    expect(overlaps(copy, tuned)).toHaveLength(1);
  });
});
