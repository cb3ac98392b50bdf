// The embedded reader's trained model as a file the build writes (scripts/build-reply-model.ts, run by `npm run
// build`), so that a process's first reply reads it in milliseconds instead of training for seconds. The file names
// what it was trained from: the labelled sets, the stored vectors and the code that turns a reply into features. A
// file trained from anything else is not read, and the classifier trains as before.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../config/settings.js";
import { replySets } from "./reply-corpus.js";
import { DEFAULT_MODEL_TUNING, type SavedReplyModel } from "./reply-model.js";
import { STORED_EMBEDDINGS_FILE } from "./sentence-encoder.js";

export const SAVED_MODEL_FILE = path.join("dist", "reply-model.json");

/** What makes a reply's features and the model's training: a change to any of them makes a new model. */
const SOURCES = ["reply-rules.ts", "reply-model.ts", "reply-spelling.ts", "reply-text.ts", "sentence-encoder.ts"].map(
  (file) => path.join("src", "replies", file),
);

export interface SavedBucketModel {
  /** The words of the labelled replies and how often each is written, for the spelling corrector. */
  words: [string, number][];
  model: SavedReplyModel;
}

interface ModelFile extends SavedBucketModel {
  trainedFrom: string;
}

/** A digest of everything the model is trained from; a file missing counts as a change. */
export function trainingFingerprint(): string {
  const hash = createHash("sha256").update(JSON.stringify(DEFAULT_MODEL_TUNING));
  for (const file of [...replySets(), STORED_EMBEDDINGS_FILE, ...SOURCES]) {
    const full = path.join(PROJECT_ROOT, file);
    hash.update(`\n${file}\n`).update(fs.existsSync(full) ? fs.readFileSync(full) : "(missing)");
  }
  return hash.digest("hex");
}

/** The saved model when it was trained from the sets and code as they are now. */
export function readSavedModel(fingerprint = trainingFingerprint()): SavedBucketModel | undefined {
  const file = path.join(PROJECT_ROOT, SAVED_MODEL_FILE);
  if (!fs.existsSync(file)) return undefined;
  const saved = JSON.parse(fs.readFileSync(file, "utf8")) as ModelFile;
  return saved.trainedFrom === fingerprint ? saved : undefined;
}

export function writeSavedModel(model: SavedBucketModel, fingerprint: string): void {
  const file = path.join(PROJECT_ROOT, SAVED_MODEL_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ trainedFrom: fingerprint, ...model } satisfies ModelFile)}\n`);
}
