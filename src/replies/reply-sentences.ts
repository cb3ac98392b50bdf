// DESIGN's combining rules applied to a reply's sentences: each sentence is read on its own, then
// "anything + dispute -> escalation", "update + polite question -> update" and "confirmation + question -> question"
// decide over those readings. A dispute in the fourth sentence of a polite reply is still a dispute, and so is one
// put as a question: "how can my address be too far when it's the same one I've always had?"
import type { ReplyBucket } from "../domain/case-lifecycle.js";

/** The rider's own words (quoted mail and signature already stripped), one entry per sentence. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?？。！])\s+|\n+/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
}

/**
 * A question that asks how or why the finding can be so (not how to do something): "how can my address be too
 * far", "why would my shift not match", "since when". "How can I update it?" and "why do I need to send it?" ask.
 */
const CONTESTING_ASK =
  /\bhow (?:can|could|would|is|are|was|were|does|did) (?!(?:i|we)\b(?! (?:be|get|have been)\b)|you (?!(?:say|claim|think|tell|call|count|decide|figure|conclude)\b))|\bhow (?:come|on earth|in the world)\b|\bwhy (?:would|does|do|is|are|was|were|did|should|has|have|am|on earth|in the world)\b(?! (?:i|we) (?:need|have to|send|do|get|reply|answer|respond)\b)|\bsince when\b|\bwhat makes (?:you|the \w+|it) (?:think|say)\b/;

/** The rider setting a fact of theirs against the finding: it has always been so, nothing changed. */
const STANDS_AGAINST_THE_FINDING =
  /\b(?:always|never|same|still|the whole time|all along|for (?:years|ages|months|(?:\w+|\d+) (?:years|months))|every (?:day|morning|night|week|shift|single)|(?:since|from) day one|(?:has|have|had|did|does|is|was)(?:n'?t| not) (?:changed?|moved?|been (?:different|changed))|nothing(?:'s| has)? changed)\b/;

/**
 * A claim the finding contradicts, after a contrast: "why does it say nights when I'm on days",
 * "how can it not match if I clock in at six".
 */
const CONTRAST_WITH_OWN_FACT =
  /\b(?:when|while|(?:even )?though|although|given (?:that )?|considering|if|since|but)\s+(?:i'?m|i am|i'?ve|i have|i (?:work|live|drive|ride|clock|start|sign|badge)|it'?s|it is|that'?s|that is|my \w+ (?:is|has|was))\b/;

/** What the finding says: too far, does not match, flagged, wrong, not eligible. */
const THE_FINDING =
  /\b(?:too far|far|flagg\w*|match\w*|mismatch\w*|wrong|off|eligib\w*|ineligib\w*|distance|miles?|outside|say|says|show|shows|list\w*|think|thinks|count\w*|mark\w*|pick\w*|question\w*|problem|issue)\b|\bnot\b/;

/** A sentence that disputes the findings in the form of a question. */
export function asksDisputing(sentence: string): boolean {
  const lower = sentence.toLowerCase().replace(/[’‘]/g, "'");
  if (!CONTESTING_ASK.test(lower)) return false;
  const rest = lower.slice(CONTESTING_ASK.exec(lower)!.index);
  return THE_FINDING.test(rest) && (STANDS_AGAINST_THE_FINDING.test(rest) || CONTRAST_WITH_OWN_FACT.test(rest));
}

/**
 * The rider granting what the review found, with nothing set against it: "I know it's far", "I understand I'm outside
 * the 30 miles", "I understand if that means I'm no longer eligible". A "but", "though" or a question after it makes it
 * something else ("I know it's far but I've ridden for years").
 */
const GRANTS =
  /^(?:(?:yes|yeah|yep|ok(?:ay)?|sure|right|true)\b[,.!]?\s*)?i(?:(?: do)? (?:know|understand|reali[sz]e|get (?:it|that)|see|accept)|(?:'m| am) aware)\b/;
const WHAT_THE_REVIEW_FOUND =
  /\b(?:far|a (?:long|big|bit of a) (?:way|drive|commute|ride|trip|distance)|distance|miles?|outside|beyond|radius|limit|no longer (?:eligible|qualify)|not (?:eligible|qualify)|(?:don't|doesn't|won't|might not|may not) (?:qualify|match|fit|line up)|ineligible|lose (?:my|the) (?:seat|spot|place)|(?:shift|schedule|hours) (?:is|are|don't|doesn't) (?:different|off|match))\b/;
const SET_AGAINST = /\b(?:but|however|though|although|yet|except|still|unless|even)\b|[?？]/;

export function grantsTheFinding(sentence: string): boolean {
  const lower = sentence.toLowerCase().replace(/[’‘]/g, "'").trim();
  return GRANTS.test(lower) && WHAT_THE_REVIEW_FOUND.test(lower) && !SET_AGAINST.test(lower);
}

/**
 * The rider saying they answered before ("I replied to this on Monday", "didn't you get my earlier email?", "see my
 * reply from last week"): an earlier reply may have gone astray, which a person must look for, and a second
 * automatic answer would tell the rider nobody read the first. Replies to someone else ("I replied to HR") and "who
 * can see my reply" are not it. On every labelled set it fires only on replies labelled escalation.
 */
const SAYS_ANSWERED =
  /\b(?:i|we)(?: have| had|'ve|'d)? (?:already |just )?(?:answered|replied|responded|wrote back)\b[^.!?]{0,40}\b(?:already|before|last (?:week|time|month)|earlier|(?:on|this) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|on the \d+\w*|yesterday|a (?:few days|week) ago)\b|\b(?:already|before|earlier)\b[^.!?]{0,10}\b(?:answered|replied|responded|sent (?:you|it|this|that|my))\b|\b(?:answered|replied|responded) (?:to )?(?:this|that|it|you|the (?:first|last|earlier|previous) (?:one|email|message))\b[^.!?]{0,30}\b(?:already|before|last|earlier|on)\b|\bsent (?:it|this|that|them|my [\w ]{1,20}?) to you\b[^.!?]{0,30}\b(?:already|before|last|earlier|on)\b|(?<!\b(?:can|could|will|would|should|may|might|who|to|not|n't)\s)\bsee my (?:earlier |previous |last |other |first )?(?:reply|email|answer|response|message)(?! below)\b|\b(?:didn't|did not|don't|do not) you (?:get|see|read|have) my (?:earlier |previous |last |first |other )?(?:reply|email|answer|response|message)\b|\bcheck your inbox\b/i;

export function saysAlreadyAnswered(sentence: string): boolean {
  return SAYS_ANSWERED.test(sentence.replace(/[’‘]/g, "'"));
}

export interface SentenceReading {
  sentence: string;
  /** What the sentence is, read alone; none when the reader is unsure. */
  bucket?: ReplyBucket;
  /** Why it is a dispute, when it is one. */
  dispute?: string;
}

export interface Combined {
  bucket: ReplyBucket;
  reason: string;
}

/**
 * The reply's bucket from its sentences' readings by DESIGN's rules, or undefined when they change nothing of
 * `whole` (the reply read as one text).
 */
export function combineSentences(readings: SentenceReading[], whole: ReplyBucket): Combined | undefined {
  const dispute = readings.find((reading) => reading.bucket === "escalation");
  if (dispute)
    return whole === "escalation"
      ? undefined
      : {
          bucket: "escalation",
          reason: `a sentence ${dispute.dispute ?? "reads as an escalation"}: "${clip(dispute.sentence)}"`,
        };
  if (whole === "escalation") return undefined;
  const has = (bucket: ReplyBucket) => readings.some((reading) => reading.bucket === bucket);
  if (has("update") && whole !== "update")
    return { bucket: "update", reason: "an update with a question or a confirmation is an update" };
  if (has("question") && whole === "acknowledgment")
    return { bucket: "question", reason: "a confirmation with a question is a question" };
  return undefined;
}

function clip(sentence: string): string {
  return sentence.length > 80 ? `${sentence.slice(0, 77)}…` : sentence;
}
