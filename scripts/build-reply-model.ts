// Trains the embedded reply reader on every labelled set and writes it to dist/reply-model.json (run by `npm run
// build`), so that no process trains it at its first reply. Does nothing when the file is already trained from the
// sets and code as they are.   npx tsx scripts/build-reply-model.ts
import { bucketModelFrom } from "../src/replies/classifier.js";
import { readReplySet, replySets } from "../src/replies/reply-corpus.js";
import {
  readSavedModel,
  SAVED_MODEL_FILE,
  trainingFingerprint,
  writeSavedModel,
} from "../src/replies/reply-model-file.js";

const fingerprint = trainingFingerprint();
if (readSavedModel(fingerprint)) {
  console.log(`${SAVED_MODEL_FILE} is up to date`);
} else {
  const started = Date.now();
  const corpus = replySets().flatMap(readReplySet);
  const model = await bucketModelFrom(corpus);
  writeSavedModel(model.saved(), fingerprint);
  console.log(
    `${SAVED_MODEL_FILE}: trained on ${corpus.length} replies in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}
