// Every labelled set of rider replies, each written by a different person: the three training files and the
// evaluation sets, which were tuned on once measured. The classifier learns from all of them; how well it does
// on wording it has never seen is measured set by set (scripts/reply-leave-one-set-out.ts) and on fresh sets.
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../config/settings.js";
import type { ReplyBucket } from "../domain/case-lifecycle.js";

export interface LabelledReply {
  id: string;
  body: string;
  subject?: string;
  bucket: ReplyBucket;
}

export const TRAINING_SETS = [
  "reply-training.jsonl",
  "reply-train-8.jsonl",
  "reply-train-9.jsonl",
  "reply-train-10.jsonl",
].map((file) => path.join("src", "replies", file));
const EVALUATION_FOLDERS = [path.join("evals", "datasets"), path.join("evals", "heldout")];

/** The labelled reply sets, relative to the project root. */
export function replySets(): string[] {
  return [
    ...TRAINING_SETS,
    ...EVALUATION_FOLDERS.flatMap((folder) =>
      fs
        .readdirSync(path.join(PROJECT_ROOT, folder))
        .filter((file) => /^reply.*\.jsonl$/.test(file))
        .sort()
        .map((file) => path.join(folder, file)),
    ),
  ];
}

/** One set, in either line shape: `{ body, bucket }` or an evaluation example `{ id, inputs, expected }`. */
export function readReplySet(file: string): LabelledReply[] {
  return fs
    .readFileSync(path.resolve(PROJECT_ROOT, file), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line, index) => {
      const row = JSON.parse(line) as {
        id?: string;
        body?: string;
        bucket?: ReplyBucket;
        inputs?: { body: string; subject?: string };
        expected?: { bucket: ReplyBucket };
      };
      return {
        id: row.id ?? `${path.basename(file)}:${index + 1}`,
        body: row.body ?? row.inputs!.body,
        subject: row.inputs?.subject,
        bucket: row.bucket ?? row.expected!.bucket,
      };
    });
}
