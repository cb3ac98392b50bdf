// Riders write from phones and in a second language: "r u", "adress", "familly". Before a reply is read,
// texting shorthand is spelled out and a misspelt word is replaced by the known word it is one slip away
// from, so that the rules and the model see the words they know.
import { distance } from "fastest-levenshtein";

/** Shorthand as riders type it, word for word. */
const SHORTHAND: Record<string, string> = {
  u: "you",
  r: "are",
  ur: "your",
  ya: "you",
  pls: "please",
  plz: "please",
  thx: "thanks",
  thnx: "thanks",
  tnx: "thanks",
  bc: "because",
  cuz: "because",
  coz: "because",
  im: "i'm",
  ive: "i've",
  dont: "don't",
  didnt: "didn't",
  doesnt: "doesn't",
  isnt: "isn't",
  cant: "can't",
  havent: "haven't",
  hasnt: "hasn't",
  thats: "that's",
  whats: "what's",
  its: "it's",
  rn: "right now",
  tmrw: "tomorrow",
  addy: "address",
  abt: "about",
  wat: "what",
  wht: "what",
  hw: "how",
  yr: "your",
  yrs: "years",
  pmt: "payment",
  sched: "schedule",
};

/** Words shorter than this are left alone: "sue" and "use" are one letter apart. */
const MIN_CORRECTED_LENGTH = 4;

export interface SpellingCorrector {
  /** The text in lower case with shorthand spelled out and typos of known words corrected. */
  normalise(text: string): string;
}

export function spellingCorrector(knownTexts: string[]): SpellingCorrector {
  const frequency = new Map<string, number>();
  for (const text of knownTexts)
    for (const word of words(text.toLowerCase())) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const byInitial = new Map<string, string[]>();
  for (const word of [...frequency.keys()].sort((a, b) => frequency.get(b)! - frequency.get(a)!)) {
    // A word seen once may itself be a typo ("adress"): it is known, but nothing is corrected to it.
    if (word.length < MIN_CORRECTED_LENGTH - 1 || frequency.get(word)! < 2) continue;
    const list = byInitial.get(word[0]!) ?? [];
    list.push(word);
    byInitial.set(word[0]!, list);
  }
  const corrections = new Map<string, string>();

  function correct(word: string): string {
    const shorthand = SHORTHAND[word];
    if (shorthand) return shorthand;
    if (word.length < MIN_CORRECTED_LENGTH || frequency.has(word) || !/^[a-z]+$/.test(word)) return word;
    const cached = corrections.get(word);
    if (cached) return cached;
    // One slip for a short word, two for a long one; the first letter is rarely the one mistyped.
    const allowed = word.length >= 7 ? 2 : 1;
    let best = word;
    let bestDistance = allowed + 1;
    for (const candidate of byInitial.get(word[0]!) ?? []) {
      // "party" is "part" with an ending, another word rather than a slip.
      if (Math.abs(candidate.length - word.length) > allowed || word.startsWith(candidate)) continue;
      const d = distance(word, candidate);
      // On a tie, a dropped letter ("ther") is likelier than an extra one.
      if (d <= allowed && (d < bestDistance || (d === bestDistance && candidate.length > best.length))) {
        best = candidate;
        bestDistance = d;
      }
    }
    corrections.set(word, best);
    return best;
  }

  return {
    normalise: (text) => text.toLowerCase().replace(/[\p{L}']+/gu, (word) => correct(word)),
  };
}

function words(text: string): string[] {
  return text.match(/[\p{L}']+/gu) ?? [];
}
