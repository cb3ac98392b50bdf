// Google's Universal Sentence Encoder (lite) computed in plain JavaScript from its weight files: two transformer
// layers over the text's pieces, their mean, a tanh layer, and unit length. The matrices and vectors are read once,
// each into a float32 array of its own (20 MB); the table of piece vectors (8 MB) stays in its file, and a text's rows
// are read as it is encoded. The same network on TensorFlow.js's WebAssembly backend took twice the memory (its code,
// the weights copied into WebAssembly memory, and a second, repacked copy of every matrix made at the first reading).
import fs from "node:fs";
import path from "node:path";
import { setImmediate } from "node:timers/promises";

interface ModelFile {
  weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: string }[] }[];
}

const MAX_PIECES = 128;
const HEADS = 4;
const NORM_EPSILON = Math.fround(1e-6);
const UNIT_EPSILON = Math.fround(1e-12);

/** The graph's weight names, which the model file lists in the order of their bytes. */
const APPLY = "module_apply_default/Encoder_en/KonaTransformer/Encode/";
const MODULE = "module/Encoder_en/KonaTransformer/Encode/";

interface Layer {
  norm: Norm;
  qkv: Dense;
  queryScale: number;
  output: Dense;
  /** The first layer widens its input for the residual sum; the second adds its input as it is. */
  residual?: Dense;
  ffnNorm: Norm;
  ffnIn: Dense;
  ffnOut: Dense;
}
interface Norm {
  scale: Float32Array;
  bias: Float32Array;
}
interface Dense {
  kernel: Float32Array;
  bias: Float32Array;
}

export interface EncoderNetwork {
  /** The text's 512 numbers, of unit length, from its vocabulary ids. */
  embed(ids: number[]): Promise<Float32Array>;
}

export function readEncoderNetwork(folder: string): EncoderNetwork {
  const { float32: weight, kernel, rows: tableRows } = weightFiles(folder);
  const norm = (at: string): Norm => ({
    scale: weight(`${at}/layer_norm_scale/ConcatPartitions/concat`),
    bias: weight(`${at}/layer_norm_bias/ConcatPartitions/concat`),
  });
  const layer = (i: number): Layer => {
    const at = `${APPLY}Layer_${i}/TransformerLayer`;
    const attention = (part: string): Dense => ({
      kernel: kernel(`${MODULE}Layer_${i}/TransformerLayer/MultiheadAttention/${part}/kernel/part_0`),
      bias: weight(`${at}/MultiheadAttention/${part}/bias/ConcatPartitions/concat`),
    });
    const ffn = (part: string): Dense => ({
      kernel: kernel(`${APPLY}TransformerStack/Layer_${i}/TransformerLayer/FFN/${part}/Tensordot/Reshape_1`),
      bias: weight(`${at}/FFN/${part}/bias/ConcatPartitions/concat`),
    });
    return {
      norm: norm(`${at}/layer_prepostprocess/layer_norm`),
      qkv: attention("qkv_transform_single"),
      queryScale: weight(`${APPLY}TransformerStack/Layer_${i}/TransformerLayer/MultiheadAttention/mul/y`)[0]!,
      output: attention("output_transform_single"),
      residual:
        i === 0
          ? {
              kernel: kernel(`${at}/dense/kernel/ConcatPartitions/concat`),
              bias: weight(`${at}/dense/bias/ConcatPartitions/concat`),
            }
          : undefined,
      ffnNorm: norm(`${at}/FFN/layer_prepostprocess/layer_norm`),
      ffnIn: ffn("conv1"),
      ffnOut: ffn("conv2"),
    };
  };
  // 8 MB of which a text needs a few rows.
  const embeddingsOf = tableRows("module/Embeddings_en");
  const timescales = weight(`${APPLY}TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`);
  const layers = [layer(0), layer(1)];
  const top: Dense = {
    kernel: kernel("module/Encoder_en/hidden_layers/tanh_layer_0/weights"),
    bias: weight("module/Encoder_en/hidden_layers/tanh_layer_0/bias"),
  };
  return {
    async embed(allIds) {
      const ids = allIds.slice(0, MAX_PIECES);
      const rows = ids.length;
      // Each piece's vector, added twice as the graph adds it, with the sinusoid of its position: half sines, half
      // cosines.
      let x = embeddingsOf(ids);
      const half = timescales.length;
      for (let t = 0; t < rows; t++) {
        const at = t * 2 * half;
        for (let i = 0; i < 2 * half; i++) x[at + i] = x[at + i]! + x[at + i]!;
        for (let i = 0; i < half; i++) {
          const angle = Math.fround(t * timescales[i]!);
          x[at + i] = x[at + i]! + Math.fround(Math.sin(angle));
          x[at + half + i] = x[at + half + i]! + Math.fround(Math.cos(angle));
        }
      }
      // The event loop gets a turn after each half layer: a long text takes a tenth of a second or more.
      for (const step of layers) {
        x = selfAttention(step, x, rows);
        await setImmediate();
        x = feedForward(step, x, rows);
        await setImmediate();
      }
      const pooled = meanOfRows(x, rows);
      const out = linear(pooled, 1, top);
      for (let i = 0; i < out.length; i++) out[i] = Math.tanh(out[i]!);
      const squares = out.reduce((sum, value) => sum + value * value, 0);
      const inverse = 1 / Math.sqrt(Math.max(Math.fround(squares), UNIT_EPSILON));
      return out.map((value) => value * inverse);
    },
  };
}

/** A transformer layer's first half: attention over the normalised rows, added to the rows (widened if need be). */
function selfAttention(layer: Layer, x: Float32Array, rows: number): Float32Array {
  const attended = linear(
    attention(linear(layerNorm(x, rows, layer.norm), rows, layer.qkv), rows, layer.queryScale),
    rows,
    layer.output,
  );
  const residual = layer.residual ? linear(x, rows, layer.residual) : x;
  for (let i = 0; i < attended.length; i++) attended[i] = attended[i]! + residual[i]!;
  return attended;
}

/** Its second half: two dense layers with a ReLU between them over the normalised rows, added to the rows. */
function feedForward(layer: Layer, x: Float32Array, rows: number): Float32Array {
  const hidden = linear(layerNorm(x, rows, layer.ffnNorm), rows, layer.ffnIn);
  for (let i = 0; i < hidden.length; i++) if (hidden[i]! < 0) hidden[i] = 0;
  const out = linear(hidden, rows, layer.ffnOut);
  for (let i = 0; i < out.length; i++) out[i] = out[i]! + x[i]!;
  return out;
}

/**
 * `x` (rows × k) times the kernel (k × n, held as its transpose: n rows of k), plus the bias. Four rows and two
 * outputs are summed at once, so that each number read serves eight products: four times as fast as one sum at a time.
 */
function linear(x: Float32Array, rows: number, { kernel, bias }: Dense): Float32Array {
  const n = bias.length;
  const k = kernel.length / n;
  const blocks = Math.ceil(rows / 4);
  const input = rows % 4 === 0 ? x : new Float32Array(blocks * 4 * k);
  if (input !== x) input.set(x);
  const out = new Float32Array(blocks * 4 * n);
  for (let block = 0; block < blocks; block++) {
    const x0 = block * 4 * k;
    const x1 = x0 + k;
    const x2 = x1 + k;
    const x3 = x2 + k;
    const o0 = block * 4 * n;
    for (let j = 0; j < n; j += 2) {
      const w0 = j * k;
      const w1 = w0 + k;
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      let b0 = 0;
      let b1 = 0;
      let b2 = 0;
      let b3 = 0;
      for (let i = 0; i < k; i++) {
        const u = kernel[w0 + i]!;
        const v = kernel[w1 + i]!;
        const r0 = input[x0 + i]!;
        const r1 = input[x1 + i]!;
        const r2 = input[x2 + i]!;
        const r3 = input[x3 + i]!;
        a0 += r0 * u;
        a1 += r1 * u;
        a2 += r2 * u;
        a3 += r3 * u;
        b0 += r0 * v;
        b1 += r1 * v;
        b2 += r2 * v;
        b3 += r3 * v;
      }
      const [c0, c1] = [bias[j]!, bias[j + 1]!];
      out[o0 + j] = Math.fround(a0) + c0;
      out[o0 + n + j] = Math.fround(a1) + c0;
      out[o0 + 2 * n + j] = Math.fround(a2) + c0;
      out[o0 + 3 * n + j] = Math.fround(a3) + c0;
      out[o0 + j + 1] = Math.fround(b0) + c1;
      out[o0 + n + j + 1] = Math.fround(b1) + c1;
      out[o0 + 2 * n + j + 1] = Math.fround(b2) + c1;
      out[o0 + 3 * n + j + 1] = Math.fround(b3) + c1;
    }
  }
  return out.subarray(0, rows * n);
}

interface WeightFiles {
  float32(name: string): Float32Array;
  /** A matrix held transposed, so that each output is one pass over consecutive numbers. */
  kernel(name: string): Float32Array;
  /** A table left in its file: the rows asked for are read each time. */
  rows(name: string): (ids: number[]) => Float32Array;
}

/** The model file's weights, each read from the weight files into an array of its own when asked for. */
function weightFiles(folder: string): WeightFiles {
  const { weightsManifest } = JSON.parse(fs.readFileSync(path.join(folder, "model.json"), "utf8")) as ModelFile;
  let end = 0;
  const files = weightsManifest.flatMap((group) =>
    group.paths.map((file) => {
      const full = path.join(folder, file);
      const start = end;
      end += fs.statSync(full).size;
      return { full, start, end };
    }),
  );
  const entries = new Map<string, { offset: number; shape: number[] }>();
  let offset = 0;
  for (const { name, shape, dtype } of weightsManifest.flatMap((group) => group.weights)) {
    if (dtype === "float32") entries.set(name, { offset, shape });
    offset += shape.reduce((a, b) => a * b, 1) * 4;
  }
  const entry = (name: string) => {
    const found = entries.get(name);
    if (!found) throw new Error(`The sentence encoder's weights lack ${name}`);
    return { ...found, count: found.shape.reduce((a, b) => a * b, 1) };
  };
  /** Fills `into` from the weight files' bytes at `offset`, as if they were one file. */
  const readAt = (offset: number, into: Float32Array) => {
    const bytes = new Uint8Array(into.buffer, into.byteOffset, into.byteLength);
    for (let done = 0; done < bytes.length; ) {
      const at = offset + done;
      const file = files.find((candidate) => at >= candidate.start && at < candidate.end);
      if (!file) throw new Error("The sentence encoder's weight files are shorter than their list");
      const fd = fs.openSync(file.full, "r");
      try {
        done += fs.readSync(fd, bytes, done, Math.min(bytes.length - done, file.end - at), at - file.start);
      } finally {
        fs.closeSync(fd);
      }
    }
    return into;
  };
  return {
    float32: (name) => {
      const { offset, count } = entry(name);
      return readAt(offset, new Float32Array(count));
    },
    kernel: (name) => {
      const { offset, count, shape } = entry(name);
      const n = shape.at(-1)!;
      const k = count / n;
      const transposed = new Float32Array(count);
      // Read a few rows at a time, so that no second copy of the matrix is ever held.
      const row = new Float32Array(n * 16);
      for (let first = 0; first < k; first += 16) {
        const rows = Math.min(16, k - first);
        const values = readAt(offset + first * n * 4, row.subarray(0, rows * n));
        for (let i = 0; i < rows; i++) for (let j = 0; j < n; j++) transposed[j * k + first + i] = values[i * n + j]!;
      }
      return transposed;
    },
    rows: (name) => {
      const { offset, shape } = entry(name);
      const width = shape.at(-1)!;
      return (ids) => {
        const out = new Float32Array(ids.length * width);
        ids.forEach((id, i) => readAt(offset + id * width * 4, out.subarray(i * width, (i + 1) * width)));
        return out;
      };
    },
  };
}

function layerNorm(x: Float32Array, rows: number, { scale, bias }: Norm): Float32Array {
  const n = scale.length;
  const out = new Float32Array(x.length);
  for (let r = 0; r < rows; r++) {
    const row = x.subarray(r * n, (r + 1) * n);
    const mean = Math.fround(row.reduce((sum, value) => sum + value, 0) / n);
    let variance = 0;
    for (let i = 0; i < n; i++) variance += (row[i]! - mean) ** 2;
    const inverse = 1 / Math.sqrt(Math.fround(variance / n) + NORM_EPSILON);
    for (let i = 0; i < n; i++)
      out[r * n + i] = Math.fround(scale[i]! * inverse) * Math.fround(row[i]! - mean) + bias[i]!;
  }
  return out;
}

/** Multi-head self-attention over the rows, from their queries, keys and values side by side. */
function attention(qkv: Float32Array, rows: number, queryScale: number): Float32Array {
  const width = qkv.length / rows / 3;
  const size = width / HEADS;
  const out = new Float32Array(rows * width);
  const weights = new Float64Array(rows);
  for (let head = 0; head < HEADS; head++) {
    const q = head * size;
    const k = width + head * size;
    const v = 2 * width + head * size;
    for (let i = 0; i < rows; i++) {
      let largest = -Infinity;
      for (let j = 0; j < rows; j++) {
        let dot = 0;
        for (let d = 0; d < size; d++)
          dot += Math.fround(qkv[i * 3 * width + q + d]! * queryScale) * qkv[j * 3 * width + k + d]!;
        weights[j] = dot;
        largest = Math.max(largest, dot);
      }
      let sum = 0;
      for (let j = 0; j < rows; j++) {
        weights[j] = Math.exp(weights[j]! - largest);
        sum += weights[j]!;
      }
      for (let j = 0; j < rows; j++) {
        const p = weights[j]! / sum;
        for (let d = 0; d < size; d++)
          out[i * width + q + d] = out[i * width + q + d]! + p * qkv[j * 3 * width + v + d]!;
      }
    }
  }
  return out;
}

function meanOfRows(x: Float32Array, rows: number): Float32Array {
  const n = x.length / rows;
  const out = new Float32Array(n);
  for (let r = 0; r < rows; r++) for (let i = 0; i < n; i++) out[i] = out[i]! + x[r * n + i]!;
  return out.map((value) => value / Math.max(rows, 1));
}
