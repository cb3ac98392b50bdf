// The sentence encoder's tokenizer: a text cut into the vocabulary's pieces by SentencePiece's unigram rule (the
// segmentation whose pieces' scores sum highest). It gives the ids the encoder was trained with, tie for tie, as the
// encoder's own JavaScript tokenizer does, from three flat tables instead of a tree of objects per piece.

/** The vocabulary file's entries: each piece and its score, by id. */
export type Vocabulary = [piece: string, score: number][];

const WORD_START = "\u2581";
/** The first ids are control symbols, never matched in text. */
const RESERVED = 6;
const UNKNOWN = 0;

export function sentencePieces(vocabulary: Vocabulary): (text: string) => number[] {
  const idOf = new Map<string, number>();
  const scores = new Float64Array(vocabulary.length);
  const lengths = new Uint8Array(vocabulary.length);
  let longest = 1;
  vocabulary.forEach(([piece, score], id) => {
    scores[id] = score;
    lengths[id] = piece.length;
    if (id < RESERVED) return;
    idOf.set(piece, id);
    longest = Math.max(longest, [...piece].length);
  });

  return (text) => {
    const normalized = text.normalize("NFKC");
    const symbols = normalized ? [...(WORD_START + normalized.replaceAll(" ", WORD_START))] : [];
    const n = symbols.length;
    const best = new Float64Array(n + 1);
    const ids = new Int32Array(n + 1);
    // Each end's candidates in the order of their starts, so that ties go the way the encoder's tokenizer breaks them.
    const arriving: { start: number; id: number; score: number }[][] = Array.from({ length: n + 1 }, () => []);
    for (let start = 0; start < n; start++) {
      let piece = "";
      let found = false;
      for (let end = start + 1; end <= Math.min(n, start + longest); end++) {
        piece += symbols[end - 1];
        const id = idOf.get(piece);
        if (id === undefined) continue;
        arriving[end]!.push({ start, id, score: scores[id]! });
        found = true;
      }
      if (!found) arriving[start + 1]!.push({ start, id: UNKNOWN, score: 0 });
    }
    for (let end = 1; end <= n; end++) {
      for (const { start, id, score } of arriving[end]!) {
        const total = score + best[start]!;
        if (best[end] === 0 || total >= best[end]!) {
          best[end] = total;
          ids[end] = id;
        }
      }
    }
    // Walked back by each piece's length in UTF-16 units, as the encoder's tokenizer does.
    const backwards: number[] = [];
    for (let at = n; at > 0; at -= lengths[ids[at]!]!) backwards.push(ids[at]!);
    const merged = backwards.filter((id, i) => !(id === UNKNOWN && backwards[i - 1] === UNKNOWN));
    return merged.reverse();
  };
}
