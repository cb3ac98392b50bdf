// Stores what every labelled reply means (src/agents/outreach/reply-embeddings.json), so the reply classifier
// trains without encoding the whole corpus at start. Run after adding or changing a labelled reply set:
//   npm run replies:embed
import fs from "node:fs";
import path from "node:path";
import { readReplySet, replySets } from "../src/agents/outreach/reply-corpus.js";
import { replyReader } from "../src/agents/outreach/reply-rules.js";
import {
  ENCODER_NAME,
  encode,
  packVector,
  STORED_EMBEDDINGS_FILE,
  type StoredEmbeddings,
  textKey,
} from "../src/agents/outreach/sentence-encoder.js";
import { PROJECT_ROOT } from "../src/config/settings.js";

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
