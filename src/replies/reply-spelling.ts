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

/** A word the training replies use this often is spelt right; a word seen once may be a typo itself. */
const TRUSTED_FREQUENCY = 2;
/** Words shorter than this are left alone: "sue" and "use" are one letter apart. */
const MIN_CORRECTED_LENGTH = 5;

export interface SpellingCorrector {
  /** The text in lower case with shorthand spelled out and typos of known words corrected. */
  normalise(text: string): string;
}

/** How often each word of `knownTexts` is written: all a corrector knows of them. */
export function wordFrequencies(knownTexts: string[]): Map<string, number> {
  const frequency = new Map<string, number>();
  for (const text of knownTexts)
    for (const word of words(text.toLowerCase())) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  return frequency;
}

export function spellingCorrector(knownTexts: string[] | Map<string, number>): SpellingCorrector {
  const frequency = Array.isArray(knownTexts) ? wordFrequencies(knownTexts) : knownTexts;
  const byInitial = new Map<string, string[]>();
  for (const word of [...frequency.keys()].sort((a, b) => frequency.get(b)! - frequency.get(a)!)) {
    if (word.length < MIN_CORRECTED_LENGTH - 1 || frequency.get(word)! < TRUSTED_FREQUENCY) continue;
    const list = byInitial.get(word[0]!) ?? [];
    list.push(word);
    byInitial.set(word[0]!, list);
  }
  const corrections = new Map<string, string>();

  function correct(word: string): string {
    const shorthand = SHORTHAND[word];
    if (shorthand) return shorthand;
    if (word.length < MIN_CORRECTED_LENGTH || (frequency.get(word) ?? 0) >= TRUSTED_FREQUENCY || !/^[a-z]+$/.test(word))
      return word;
    const cached = corrections.get(word);
    if (cached) return cached;
    // One slip for a short word, two for a long one; the first letter is rarely the one mistyped.
    const allowed = word.length >= 7 ? 2 : 1;
    let best = word;
    let bestDistance = allowed + 1;
    for (const candidate of byInitial.get(word[0]!) ?? []) {
      if (Math.abs(candidate.length - word.length) > allowed || anotherForm(word, candidate)) continue;
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

/** Endings that make another form of a word, not a slip: "started" is not a typo of "starts". */
const ENDINGS = new Set(["", "s", "es", "ed", "d", "ing", "er", "ers", "y", "ies"]);

/**
 * "party" and "part", "started" and "starts": one word with an ending, or two forms of one word. A known stem
 * with an ending two letters from a known one ("correctos" beside "corrected") is another form, often another language.
 */
function anotherForm(word: string, candidate: string): boolean {
  if (word.startsWith(candidate)) return true;
  for (let stem = Math.min(word.length, candidate.length); stem >= 3; stem--) {
    if (word.slice(0, stem) !== candidate.slice(0, stem)) continue;
    if (ENDINGS.has(word.slice(stem)) && ENDINGS.has(candidate.slice(stem))) return true;
    const [ending, known] = [word.slice(stem), candidate.slice(stem)];
    if (stem >= 5 && ENDINGS.has(known) && distance(ending, known) >= 2) return true;
  }
  return false;
}

function words(text: string): string[] {
  return text.match(/[\p{L}']+/gu) ?? [];
}
