// Splits an email reply into the rider's own words, the earlier mail quoted below it, and the signature.
// Only the reply is classified; callers keep the full body for people to read.
import { PROGRAM_SIGNED } from "../agents/outreach/templates.js";

export interface ReplyText {
  reply: string;
  quoted: string;
  signature: string;
}

/**
 * A header line that opens quoted history, as mail clients write it: a separator line framed by dashes ("-----Original
 * Message-----", "-------- Forwarded Message --------", Zoho's "---- On … wrote ----", in any language), Outlook's
 * underscore rule, "Begin forwarded message:", and "On … wrote:" (also Spanish and French).
 */
const QUOTE_OPENERS = [
  /^\s*-{3,}\s*\S.{1,200}?\s*-{3,}\s*$/u,
  /^\s*-{2,}\s*(original message|mensaje original|message d'origine|forwarded message)\s*-{2,}/i,
  /^\s*_{10,}\s*$/,
  /^\s*begin forwarded message\s*:\s*$/i,
  /^\s*(on|el|le)\s.*\b(wrote|escribió|a écrit)\s*:\s*$/i,
];
/**
 * Any other client's header line: a "wrote" word (English, Spanish, Portuguese, French, German, Italian, Dutch, Polish,
 * Russian, Vietnamese, Chinese, Japanese, Korean) with an address or a date on the line, ending in a colon: "Pool Patrol
 * wrote on 11/23/2026:", "Am Di., 24. Nov. 2026 um 08:02 Uhr schrieb Pool Patrol <…>:", "2026년 11월 23일 (월) 오전 9:14,
 * Pool Patrol <…>님이 작성:". The address or digit keeps "As I wrote:" the rider's.
 */
const WROTE_HEADER =
  /^(?=.*(?:@|\d)).{0,160}(?:\b(?:wrote|escribió|escreveu|a écrit|schrieb|ha scritto|schreef|napisał[a]?|написала?|đã viết)\b|写道|寫道|님이 작성|が書きました|のメッセージ).{0,40}[:：]\s*$/iu;
/** "On Mon, Nov 23, 2026 at 9:14 AM Pool Patrol <" wrapped by the mail client onto the next lines. */
const WRAPPED_ON_LINE = /^\s*(on|el|le)\s.{0,200}$/i;
const WRAPPED_WROTE = /\b(wrote|escribió|a écrit)\s*:\s*$/i;
/**
 * An Outlook-style header block, in the languages mail clients write it: "From:" followed closely by "Sent:",
 * "Date:", "To:" or "Subject:" ("De : … Envoyé :", "Von: … Gesendet:", "发件人: … 发送时间:", "보낸 사람: … 제목:").
 * French puts a space before the colon.
 */
const HEADER_COLON = String.raw`\*?\s*[:：]\*?\s`;
const FROM_LINE = new RegExp(
  String.raw`^\s*\*?(?:from|de|von|da|van|od|от|từ|mula|من|发件人|寄件者|寄件人|보낸 사람|差出人)${HEADER_COLON}`,
  "iu",
);
const HEADER_LINE = new RegExp(
  String.raw`^\s*\*?(?:sent|date|to|subject|cc|enviado|enviada|fecha|para|asunto|assunto|data|envoyé|à|objet|gesendet|an|betreff|datum|inviato|a|oggetto|verzonden|aan|onderwerp|отправлено|дата|кому|тема|đã gửi|ngày|đến|chủ đề|发送时间|發送時間|日期|收件人|主题|主旨|抄送|보낸 날짜|받는 사람|제목|送信日時|宛先|件名)${HEADER_COLON}`,
  "iu",
);
/**
 * The program's own email pasted under the reply with no header (a client that quotes without one, or a rider who
 * copied it): known by how the program signs (PROGRAM_SIGNED), it starts at its greeting.
 */
const GREETING = /^\s*(?:hi|hello|dear|hola|bonjour|olá|ola)\b[^.!?]{0,40},\s*$/i;

const SIGNATURE_DELIMITER = /^\s*--\s*$/;
const DEVICE_FOOTER =
  /^\s*(sent from my \S+|sent from (?:outlook|yahoo mail|mail for windows)|get outlook for \S+|enviado desde mi \S+)/i;
/** A company's legal footer: boilerplate under the signature, not the rider speaking. A line that names itself one. */
const DISCLAIMER =
  /^\s*(?:confidentiality notice|confidential(?:ity)? statement|disclaimer|legal notice|this (?:e-?mail|message)\b.{0,40}\b(?:is|are|may contain|contains) (?:confidential|privileged|intended))/i;
/**
 * The vocabulary of an email confidentiality notice, in the languages companies write them: what it is (confidential,
 * privileged), who it is for (the intended recipient, the addressee), what is forbidden (unauthorised disclosure,
 * copying) and what to do (received in error, notify the sender, delete it). One such word is a rider's ("this is
 * confidential"); a paragraph with three is the boilerplate, whatever its first words.
 */
const NOTICE_TERMS: RegExp[] = [
  /confidential|confidencial|confidentiel|vertraulich|riservat|vertrouwelijk|конфиденциальн|機密|机密|保密|기밀|bảo mật/iu,
  /privileg|privilegiad|privilégi|geschützt/iu,
  /intended (?:solely |only |exclusively )?(?:for|recipient)|addressee|destinatari|destinataire|empfänger|adressat|geadresseerde|получател|收件人|宛先|수신인|수신자|người nhận/iu,
  /unauthori[sz]ed|prohibited|forbidden|strictly|prohibid|proibid|interdit|untersagt|verboten|unbefugt|vietat|verboden|запрещ|禁止|금지|nghiêm cấm/iu,
  /disclos|dissemina|distribut|copying|divulga|diffusion|weitergabe|kopier/iu,
  /(?:received|sent to you) (?:this|it)? ?in error|by mistake|por error|por engano|par erreur|irrtümlich|versehentlich|per errore|abusievelijk|per vergissing|по ошибке|错误|誤って|잘못/iu,
  /notify the sender|remitente|remetente|expéditeur|absender|mittente|afzender|отправител|发件人|送信者|발신자/iu,
  /\bdelete|destroy|elimín|elimine|destrúya|supprim|détrui|lösch|vernicht|cancell|distrugg|verwijder|apag|удалит|删除|刪除|削除|삭제|xóa/iu,
];
const NOTICE_MIN_TERMS = 3;
/** "Please consider the environment before printing this email", in its usual wordings. */
const PRINT_FOOTER = /^\s*(?:please )?(?:consider|think (?:of|about)) the environment before printing/i;

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
  const pasted = pastedProgramEmail(lines);
  for (let i = 0; i < pasted; i++) {
    const line = lines[i]!;
    if (QUOTE_OPENERS.some((pattern) => pattern.test(line)) || WROTE_HEADER.test(line)) return i;
    if (WRAPPED_ON_LINE.test(line) && lines.slice(i + 1, i + 3).some((next) => WRAPPED_WROTE.test(next))) return i;
    if (FROM_LINE.test(line) && lines.slice(i + 1, i + 5).some((next) => HEADER_LINE.test(next))) return i;
  }
  return pasted;
}

/** Where a copy of the program's own email starts below the rider's words, or the end when there is none. */
function pastedProgramEmail(lines: string[]): number {
  const signed = lines.findIndex((line) => line.includes(PROGRAM_SIGNED));
  const first = lines.findIndex((line) => line.trim());
  if (signed <= first) return lines.length;
  for (let i = signed - 1; i > first; i--) if (GREETING.test(lines[i]!) && !lines[i - 1]!.trim()) return i;
  // No greeting: the copy is what follows the rider's first paragraph.
  const gap = lines.findIndex((line, i) => i > first && !line.trim());
  return gap === -1 || gap > signed ? signed : gap;
}

function findSignatureStart(lines: string[]): number {
  const delimiter = lines.findIndex(
    (line, i) =>
      SIGNATURE_DELIMITER.test(line) ||
      DEVICE_FOOTER.test(line) ||
      DISCLAIMER.test(line) ||
      PRINT_FOOTER.test(line) ||
      (lastContentLine(lines, i) >= 0 && !lines[i - 1]!.trim() && isLegalNotice(paragraphAt(lines, i))),
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

function isLegalNotice(paragraph: string): boolean {
  return NOTICE_TERMS.filter((term) => term.test(paragraph)).length >= NOTICE_MIN_TERMS;
}

/** The lines from `start` to the next blank line, as one text. */
function paragraphAt(lines: string[], start: number): string {
  const end = lines.findIndex((line, i) => i > start && !line.trim());
  return lines.slice(start, end === -1 ? lines.length : end).join(" ");
}

function lastContentLine(lines: string[], before: number): number {
  for (let i = before - 1; i >= 0; i--) if (lines[i]!.trim()) return i;
  return -1;
}
