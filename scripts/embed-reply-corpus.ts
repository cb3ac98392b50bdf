// Stores what every labelled reply means (src/replies/reply-embeddings.json), so the reply classifier
// trains without encoding the whole corpus at start. Run after adding or changing a labelled reply set:
//   npm run replies:embed
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../src/config/settings.js";
import { readReplySet, replySets } from "../src/replies/reply-corpus.js";
import { replyReader } from "../src/replies/reply-rules.js";
import {
  ENCODER_NAME,
  encode,
  packVector,
  STORED_EMBEDDINGS_FILE,
  type StoredEmbeddings,
  textKey,
} from "../src/replies/sentence-encoder.js";

const read = replyReader([]);
const texts = [
  ...new Set(
    replySets()
      .flatMap(readReplySet)
      .map((reply) => read(reply.body).text),
  ),
];
const started = Date.now();
const vectors = await encode(texts);
const stored: StoredEmbeddings = {
  encoder: ENCODER_NAME,
  vectors: Object.fromEntries(
    texts.map((text, i) => [textKey(text), packVector(vectors[i]!)] as const).sort(([a], [b]) => a.localeCompare(b)),
  ),
};
fs.writeFileSync(path.join(PROJECT_ROOT, STORED_EMBEDDINGS_FILE), `${JSON.stringify(stored, null, 0)}\n`);
console.log(
  `${texts.length} replies encoded in ${((Date.now() - started) / 1000).toFixed(1)} s: ${STORED_EMBEDDINGS_FILE}`,
);
