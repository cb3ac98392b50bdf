import { describe, expect, it } from "vitest";
import { readReplySet, replySets } from "../../src/replies/reply-corpus.js";
import { replyReader } from "../../src/replies/reply-rules.js";
import {
  embeddingsOf,
  encode,
  readStoredEmbeddings,
  textKey,
  unpackVector,
} from "../../src/replies/sentence-encoder.js";

const cosine = (a: number[], b: number[]) => {
  const dot = (x: number[], y: number[]) => x.reduce((sum, value, i) => sum + value * y[i]!, 0);
  return dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
};

const read = replyReader([]);
const labelled = replySets().flatMap(readReplySet);

describe("sentence encoder", () => {
  it("has the meaning of every labelled reply stored, so training encodes nothing (else: npm run replies:embed)", () => {
    const { vectors } = readStoredEmbeddings();
    const missing = labelled.map((reply) => read(reply.body).text).filter((text) => !vectors[textKey(text)]);
    expect(missing).toEqual([]);
  });

  it("stores what the encoder itself gives, to within rounding", async () => {
    const texts = [0, 500, 1500, labelled.length - 1].map((i) => read(labelled[i]!.body).text);
    const { vectors } = readStoredEmbeddings();
    const encoded = await encode(texts);
    texts.forEach((text, i) => {
      expect(cosine(unpackVector(vectors[textKey(text)]!), encoded[i]!)).toBeGreaterThan(0.999);
    });
  });

  it("puts each reply nearest the one that says the same in other words", async () => {
    const pairs = [
      ["I moved to Fremont last month.", "My new address is in Fremont, I relocated in October."],
      ["Why was I flagged?", "How come my name came up in this review?"],
      ["Everything is correct as listed.", "I confirm the information you have is accurate and current."],
    ];
    const texts = pairs.flat();
    const vectors = await embeddingsOf(texts);
    const nearest = vectors.map((vector, i) => {
      const others = texts.map((_, j) => j).filter((j) => j !== i);
      return texts[others.reduce((a, b) => (cosine(vector, vectors[b]!) > cosine(vector, vectors[a]!) ? b : a))];
    });
    expect(nearest).toEqual(pairs.flatMap(([a, b]) => [b, a]));
  });

  it("reads a text past the encoder's 128 pieces by its first 128, as the encoder was built to", async () => {
    const long = "My shift is the same as listed and I ride the van every day. ".repeat(12);
    const [cut, longer] = await encode([long, `${long} But I dispute all of it and want to talk to a person.`]);
    expect(cosine(cut!, longer!)).toBeGreaterThan(0.99999);
    const [short] = await encode(["But I dispute all of it and want to talk to a person."]);
    expect(cosine(short!, longer!)).toBeLessThan(0.9);
  });

  it("gives any text a vector of unit length, whatever its characters", async () => {
    const vectors = await encode(["😀😀 ok", "我一直上早班", "\u0007\t—", "a"]);
    for (const vector of vectors) {
      expect(vector.every(Number.isFinite)).toBe(true);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    }
  });

  it("reads an empty reply as meaning nothing", async () => {
    const [empty] = await encode([" "]);
    expect(empty!.every((value) => value === 0)).toBe(true);
  });
});
