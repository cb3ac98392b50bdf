import { describe, expect, it } from "vitest";
import { sentencePieces, type Vocabulary } from "../../src/replies/sentence-pieces.js";

// The six control symbols first, as in the encoder's vocabulary (id 0 is the unknown piece), and every letter the
// texts use, as the encoder's vocabulary has.
const vocabulary: Vocabulary = [
  ["\uFFFD", 0],
  ["<s>", 0],
  ["</s>", 0],
  ["x1", 0],
  ["x2", 0],
  ["x3", 0],
  ["▁", -2],
  ["▁van", -3],
  ["▁va", -1],
  ["n", -1],
  ["▁ride", -4],
  ["s", -2],
  ...[..."ridev"].map((letter): [string, number] => [letter, -10]),
];
const pieces = sentencePieces(vocabulary);

describe("sentence pieces", () => {
  it("cuts a text where the pieces' scores sum highest, not where the longest piece fits", () => {
    expect(pieces("van")).toEqual([8, 9]);
  });

  it("marks each word's start and takes whole pieces where they score best", () => {
    expect(pieces("ride vans")).toEqual([10, 8, 9, 11]);
  });

  it("reads a run of characters the vocabulary lacks as one unknown piece", () => {
    expect(pieces("ride 😀😀")).toEqual([10, 6, 0]);
  });

  it("reads nothing from an empty text", () => {
    expect(pieces("")).toEqual([]);
  });
});
