// Which program policy sections answer a question asked in a thread, and which of their
// sentences. What the question is after ("can he appeal", "how does he fix his shift")
// points at a section before any word overlap does: "shifts" alone is about the shift
// rule, "change his shift" about updating it. Pure.
import { type PolicySection, retrievePolicy } from "../outreach/policy.js";
import { tokens } from "./understand.js";

const INTENTS: [RegExp, string][] = [
  [/\b(appeal|fight|contest|dispute|challenge|disagree|overturn|reverse)/, "Appeals"],
  [
    /\b(updat|chang|fix|correct|edit|wrong|outdated|out of date|new)\w*\b.*\bshifts?\b|\bshifts?\b.*\b(updat|chang|fix|correct|wrong|outdated|out of date)/,
    "How to update your shift",
  ],
  [
    /\b(updat|chang|fix|correct|edit|wrong|moved?|new)\w*\b.*\b(address|home)\b|\b(address|home)\b.*\b(updat|chang|fix|correct|wrong)|\bmoved\b/,
    "How to update your home address",
  ],
  // "how many days does a rider get to respond": the timeline, not the shift rule's days.
  [
    /\b(deadline|7 days|seven days|window|how long|re-?checks?|re-?audits?|timeline|respond|reply within|get back)/,
    "Review timeline",
  ],
  [
    /\bshifts?\b|\bhours\b|\bschedule|\bcompatib|%|\bpercent|\bpto\b|\bovernight|\bminutes\b|\bdays\b(?!.*\b(respond|reply|answer|get back)\b)/,
    "Shift rule",
  ],
  [
    /\bdistance|\bmiles?\b|\bmi\b|\blimit\b|\bfar\b|\bradius|\bmeasur|\bcrow\b|\bzip\b|\bcentroid|\bdriv|\blive\b|\bpark\b|\bmeet\b|\bpick(s|ed)? (her|him|them|me|you) up|\bgets? on\b/,
    "Distance rule",
  ],
  [
    /\b(cancel|remov|kick|lose (the|a|their|his|her) seat|still fails?|human|reviewer|person decide)/,
    "What happens if a check still fails",
  ],
  [/\b(privacy|private|personal data|who can see|confidential|share)/, "Privacy"],
  [/\b(contact|reach|talk to|phone|call|help desk)/, "Contact"],
  [/\b(eligib|qualif|who can (join|ride)|benefit|subsid)/, "Eligibility"],
];

export function findPolicySections(sections: PolicySection[], question: string, limit = 2): PolicySection[] {
  const lower = question.toLowerCase();
  const intended = INTENTS.filter(([pattern]) => pattern.test(lower))
    .map(([, heading]) => sections.find((s) => s.heading === heading))
    .filter((s): s is PolicySection => Boolean(s));
  return (intended.length ? intended : retrievePolicy(sections, question)).slice(0, limit);
}

const stem = (word: string) => word.replace(/(ing|ed|es|s)$/, "");
/** Ways of asking about where a rider boards, in the words the policy uses. */
const SAME_AS: Record<string, string[]> = {
  drive: ["park", "meet"],
  driv: ["park", "meet"],
  pick: ["park", "meet"],
  board: ["park", "meet"],
  vacation: ["pto"],
  coordinator: ["see"],
  // "how is it measured?": the sentence on the straight line answers it too.
  measur: ["straight", "line", "crow"],
  measure: ["straight", "line", "crow"],
};
const SMALL = new Set("the and for you your are was can does what how that this with from have has they".split(" "));

/** The section's first sentences, then up to two more that share words with the question, in their order. */
export function relevantSentences(text: string, question: string, first = 3): string {
  const flat = text
    .replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, "the program's email address")
    .replace(/\s+/g, " ")
    .trim();
  const sentences = flat.match(/[^.!?]+[.!?]+/g) ?? [flat];
  const asked = new Set(
    tokens(question)
      .filter((w) => w.length > 2 && !SMALL.has(w))
      .map(stem)
      .flatMap((w) => [w, ...(SAME_AS[w] ?? [])]),
  );
  const overlap = (s: string) => tokens(s).filter((w) => asked.has(stem(w))).length;
  const more = sentences
    .map((s, at) => ({ at, score: at < first ? 0 : overlap(s) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.at - b.at)
    .slice(0, 2)
    .map((r) => r.at);
  return sentences
    .filter((_, at) => at < first || more.includes(at))
    .map((s) => s.trim())
    .join(" ");
}
