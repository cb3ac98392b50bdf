// Which language a reply is written in, and whether it is English enough for the embedded reader, whose sentence
// encoder reads English only. The rule (docs/reply-buckets.md, "Language first") is decided on words, because the
// trigram detector (franc) misnames short English ("Could you let me know what 'shift compatible' means?" reads as
// French): franc only names a language once the words say the reply is not English.
import { franc } from "franc";
import { eng, por, spa, tgl, vie } from "stopword";

export interface ReplyLanguage {
  /** True when the embedded reader can read the reply: see `readLanguage`. */
  english: boolean;
  /** The language in words ("Korean"); "another language" when the detector cannot name it. Absent for English. */
  name?: string;
}

/** The languages riders write in (issue 29) that the detector may name, ISO 639-3 as franc gives them. */
const NAMES: Record<string, string> = {
  eng: "English",
  spa: "Spanish",
  por: "Portuguese",
  fra: "French",
  hat: "Haitian Creole",
  tgl: "Tagalog",
  vie: "Vietnamese",
  cmn: "Chinese",
  kor: "Korean",
  jpn: "Japanese",
  rus: "Russian",
  ukr: "Ukrainian",
  arb: "Arabic",
  pes: "Persian",
  amh: "Amharic",
  pan: "Punjabi",
  hin: "Hindi",
  tha: "Thai",
};
const CANDIDATES = Object.keys(NAMES);

/** Words that say "English": its common function words and the words of a short reply ("yes, correct, thanks"). */
const ENGLISH = new Set([
  ...eng,
  ...[
    "yes",
    "yeah",
    "yep",
    "ok",
    "okay",
    "thanks",
    "thank",
    "thx",
    "please",
    "not",
    "correct",
    "right",
    "sure",
    "confirmed",
    "confirm",
    "good",
    "fine",
    "noted",
    "received",
    "just",
    "will",
    "know",
    "need",
    "what",
    "when",
    "why",
    "does",
    "i'm",
    "it's",
    "that's",
    "don't",
    "didn't",
    "i've",
    "i'll",
    "isn't",
    "wrong",
    "moved",
    "new",
    "shift",
    "address",
    "schedule",
    "so",
    "no",
  ],
]);
/**
 * Words that say "not English", by language: the stop words of the Latin-script languages riders write in, and the
 * words of their short replies ("gracias, todo bien", "tudo certo", "opo, tama").
 */
const OTHER_WORDS: Record<string, Set<string>> = Object.fromEntries(
  Object.entries({
    spa: [...spa, "gracias", "todo", "bien", "correcto", "correcta", "nuevo", "nueva", "horario", "turno"],
    por: [...por, "obrigado", "obrigada", "tudo", "certo", "correto", "preciso", "novo", "nova", "turno"],
    tgl: [...tgl, "po", "opo", "oo", "salamat", "tama"],
    vie,
  }).map(([code, words]) => [code, new Set(words)]),
);
/** A word both English and another language write ("a", "me", "no", "do") marks neither. */
const SHARED = (word: string) => Object.values(OTHER_WORDS).some((words) => words.has(word));
/** Letters only Vietnamese writes among the riders' languages: a word with one names the reply Vietnamese. */
const VIETNAMESE_LETTER = /[ăđơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/u;

/** A letter of a script other than Latin: Hangul, Han, Cyrillic, Arabic, Ethiopic, Gurmukhi… */
const NON_LATIN_LETTER = /(?!\p{Script=Latin})\p{L}/gu;
/** A Latin letter English does not write (ñ, ã, ư, đ, è…). */
const ACCENTED = /[^\p{ASCII}]/u;

/**
 * English enough for the embedded reader when:
 * - it has no word in another script (two letters or more: a Korean "네" carries meaning the encoder cannot read), and
 * - no sentence has two or more words that mark another language and more of them than English words, and
 * - over the whole reply, words that mark another language are not more than those that mark English.
 * A word marks another language when it is one of its stop words or is written with a letter English does not use; a
 * word marks English when it is an English stop word or a common word of short replies. A reply with no marked word
 * ("Gracias!", "10/14") is read as before: the embedded reader has seen such replies.
 */
export function readLanguage(text: string): ReplyLanguage {
  const nonLatin = text.match(NON_LATIN_LETTER) ?? [];
  if (nonLatin.length >= 2) return { english: false, name: nameOf(nonLatin.join("")) };
  let english = 0;
  let other = 0;
  let mixedSentence = false;
  for (const sentence of text.split(/[.!?;:\n]+/)) {
    const words = sentence.toLowerCase().match(/[\p{L}\p{M}][\p{L}\p{M}'’]*/gu) ?? [];
    const marks = words.map((word) => word.replace(/’/g, "'")).map(mark);
    const e = marks.filter((m) => m === "english").length;
    const o = marks.filter((m) => m === "other").length;
    english += e;
    other += o;
    if (o >= 2 && o > e) mixedSentence = true;
  }
  if (!mixedSentence && other <= english) return { english: true };
  return { english: false, name: nameOf(text) };
}

function mark(word: string): "english" | "other" | undefined {
  const other = SHARED(word);
  if (ENGLISH.has(word)) return other ? undefined : "english";
  if (other || ACCENTED.test(word)) return "other";
  return undefined;
}

/**
 * The reply's language in words: Vietnamese by its letters, else the language whose stop words it uses most, else what
 * franc finds among the riders' languages other than English; "another language" when none can tell.
 */
function nameOf(text: string): string {
  const words = text.toLowerCase().match(/[\p{L}\p{M}]+/gu) ?? [];
  if (words.some((word) => VIETNAMESE_LETTER.test(word))) return NAMES.vie!;
  const tally = Object.entries(OTHER_WORDS)
    .map(([code, set]) => [code, words.filter((word) => set.has(word)).length] as const)
    .sort((a, b) => b[1] - a[1]);
  if (tally[0]![1] > tally[1]![1]) return NAMES[tally[0]![0]]!;
  const code = franc(text, { only: CANDIDATES.filter((code) => code !== "eng"), minLength: 1 });
  return NAMES[code] ?? "another language";
}
