// Splits an email reply into the rider's own words, the earlier mail quoted below it, and the signature.
// Only the reply is classified; callers keep the full body for people to read.

export interface ReplyText {
  reply: string;
  quoted: string;
  signature: string;
}

/** A header line that opens quoted history: "On … wrote:" (also Spanish and French), "-----Original Message-----". */
const QUOTE_OPENERS = [
  /^\s*-{2,}\s*(original message|mensaje original|message d'origine|forwarded message)\s*-{2,}/i,
  /^\s*_{10,}\s*$/,
  /^\s*(on|el|le)\s.*\b(wrote|escribió|a écrit)\s*:\s*$/i,
];
/**
 * Any other client's header line: a "wrote" word (English, Spanish, Portuguese, French, German, Russian, Chinese,
 * Korean) with an address or a date on the line, ending in a colon: "Pool Patrol wrote on 11/23/2026:",
 * "2026년 11월 23일 (월) 오전 9:14, Pool Patrol <…>님이 작성:". The address or digit keeps "As I wrote:" the rider's.
 */
const WROTE_HEADER =
  /^(?=.*(?:@|\d)).{0,160}(?:\b(?:wrote|escribió|escreveu|a écrit|schrieb|написала?)\b|写道|님이 작성).{0,40}[:：]\s*$/iu;
/** "On Mon, Nov 23, 2026 at 9:14 AM Pool Patrol <" wrapped by the mail client onto the next lines. */
const WRAPPED_ON_LINE = /^\s*(on|el|le)\s.{0,200}$/i;
const WRAPPED_WROTE = /\b(wrote|escribió|a écrit)\s*:\s*$/i;
/** An Outlook-style header block: "From:" followed closely by "Sent:", "Date:", "To:" or "Subject:". */
const FROM_LINE = /^\s*\*?(from|de|von)\s*:\*?\s/i;
const HEADER_LINE = /^\s*\*?(sent|date|to|subject|cc|enviado|fecha|para|asunto|gesendet|an|betreff)\s*:\*?\s/i;

const SIGNATURE_DELIMITER = /^\s*--\s*$/;
const DEVICE_FOOTER =
  /^\s*(sent from my \S+|sent from (?:outlook|yahoo mail|mail for windows)|get outlook for \S+|enviado desde mi \S+)/i;
/** A company's legal footer: boilerplate under the signature, not the rider speaking. */
const DISCLAIMER =
  /^\s*(?:confidentiality notice|confidential(?:ity)? statement|disclaimer|legal notice|this (?:e-?mail|message)\b.{0,40}\b(?:is|are|may contain|contains) (?:confidential|privileged|intended))/i;
const VALEDICTION =
  /^\s*(thanks|thank you|thx|regards|best|best regards|kind regards|warm regards|cheers|sincerely|respectfully|saludos|gracias|atentamente|cordialmente)\s*[,.!-]?\s*$/i;
/** After a valediction: a name first, then short lines (title, team, phone), not more of the message. */
const NAME_LINE = /^\p{Lu}[\p{L}.'-]*(?:\s+\p{L}[\p{L}.'-]*){0,3}$/u;
/** A name alone, every word capitalised: "Keith Romero", "A. Haddad", "Mateo". */
const CAPITALISED_NAME = /^\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*){0,3}$/u;
/** A short line that is no sentence: a title, a team, a phone, an address ("dana.whitaker@…" and "D." keep their dots). */
const SIGNATURE_LINE = /^(?!.*[?!])(?!.*\.\s+\p{L}{2,}).{1,60}$/u;
/** "Dana Whitaker | Escalations Coordinator", "Sam Lee, Planner": the name is the part before the bar or comma. */
const nameOf = (line: string) => line.split(/\s+[|–—-]\s+|,\s*/)[0]!.trim();
const MAX_SIGNATURE_LINES = 5;

/**
 * A signature or device footer a mail client flattened onto the reply's line, set off by two spaces or more:
 * "Acknowledged.  -- J. Whitfield", "Acknowledged.  Get Outlook for Android". "--" counts only before a capital.
 */
const INLINE_SIGNATURE = /[ \t]{2,}--[ \t]+(?=\p{Lu})/gu;
const INLINE_FOOTER = /[ \t]{2,}(?=(?:sent from my|get outlook for|enviado desde mi)\s)/giu;

export function extractReplyText(body: string): ReplyText {
  const lines = body
    .replace(/\r\n?/g, "\n")
    .replace(INLINE_SIGNATURE, "\n--\n")
    .replace(INLINE_FOOTER, "\n")
    .split("\n");
  const quoteStart = findQuoteStart(lines);
  const own = lines.slice(0, quoteStart);
  const quoted = lines.slice(quoteStart);
  // Interleaved "> " lines above the quote header are quoted history too.
  const replyLines = own.filter((line) => !/^\s*>/.test(line));
  quoted.unshift(...own.filter((line) => /^\s*>/.test(line)));
  const signatureStart = findSignatureStart(replyLines);
  return {
    reply: replyLines.slice(0, signatureStart).join("\n").trim(),
    quoted: quoted.join("\n").trim(),
    signature: replyLines.slice(signatureStart).join("\n").trim(),
  };
}

function findQuoteStart(lines: string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (QUOTE_OPENERS.some((pattern) => pattern.test(line)) || WROTE_HEADER.test(line)) return i;
    if (WRAPPED_ON_LINE.test(line) && lines.slice(i + 1, i + 3).some((next) => WRAPPED_WROTE.test(next))) return i;
    if (FROM_LINE.test(line) && lines.slice(i + 1, i + 5).some((next) => HEADER_LINE.test(next))) return i;
  }
  return lines.length;
}

function findSignatureStart(lines: string[]): number {
  const delimiter = lines.findIndex(
    (line) => SIGNATURE_DELIMITER.test(line) || DEVICE_FOOTER.test(line) || DISCLAIMER.test(line),
  );
  const end = delimiter === -1 ? lines.length : delimiter;
  const last = lastContentLine(lines, end);
  // A sign-off ("Thanks,\nPriya") counts as signature only when the message has words before it.
  for (let i = Math.max(0, last - MAX_SIGNATURE_LINES); i <= last; i++) {
    if (!VALEDICTION.test(lines[i]!)) continue;
    const after = lines.slice(i + 1, last + 1).filter((line) => line.trim());
    const hasWordsBefore = lastContentLine(lines, i) >= 0;
    const [name, ...rest] = after.map((line) => line.trim());
    if (hasWordsBefore && name && NAME_LINE.test(nameOf(name)) && rest.every((line) => SIGNATURE_LINE.test(line)))
      return i;
  }
  return unsignedNameBlock(lines, last) ?? end;
}

/**
 * A name with no sign-off above it at the end, set apart by a blank line or, with a title under it, by a finished
 * sentence ("Swing shift is correct.\n\nKeith Romero\nIBEW Local 332 Steward"): a signature when its first line is a
 * name in capitals (alone or before a title: "Dana Whitaker | Escalations Coordinator") and the rest are short.
 */
function unsignedNameBlock(lines: string[], last: number): number | undefined {
  for (let i = Math.max(1, last - MAX_SIGNATURE_LINES + 1); i <= last; i++) {
    const above = lines[i - 1]!.trim();
    if ((above && !/[.!?]$/.test(above)) || lastContentLine(lines, i) < 0) continue;
    const [name, ...rest] = lines.slice(i, last + 1).map((line) => line.trim());
    // Under a sentence with no blank line, only a full name with a title under it: "Same." is the rider's word.
    const setApart = !above || (rest.length > 0 && /\s/.test(nameOf(name ?? "")));
    if (
      name &&
      setApart &&
      CAPITALISED_NAME.test(nameOf(name)) &&
      !VALEDICTION.test(name) &&
      rest.every((line) => SIGNATURE_LINE.test(line))
    )
      return i;
  }
  return undefined;
}

function lastContentLine(lines: string[], before: number): number {
  for (let i = before - 1; i >= 0; i--) if (lines[i]!.trim()) return i;
  return -1;
}
