// Tells a machine's answer (auto-reply, out-of-office, bounce) from a rider's own reply, so that it is
// recorded on the thread and never classified. RFC 3834 headers first, then senders, subjects and text.
// An out-of-office notice may say when the rider is back: that date is read relative to `receivedAt`.

export type AutoReplyKind = "auto_reply" | "out_of_office" | "bounce";

export interface AutoReplyInput {
  /** Header names in any case; a header that appears twice may be given as a list. */
  headers: Record<string, string | string[] | undefined>;
  from: string;
  subject: string;
  text: string;
  /** When the message arrived: the reference for dates without a year or given as a weekday. */
  receivedAt: Date;
}

export interface AutoReplyVerdict {
  kind: AutoReplyKind | null;
  /** For an out-of-office notice that says when the rider is back: YYYY-MM-DD. */
  returnDate?: string;
}

const BOUNCE_SENDER = /^(?:.*<)?\s*(mailer-daemon|postmaster|mail-delivery-subsystem|maildelivery)@/i;
const BOUNCE_SUBJECT =
  /^\s*(undeliverable|undelivered mail|delivery status notification \(failure\)|mail delivery (?:failed|failure)|returned mail|failure notice|delivery failure|message not delivered)\b/i;
const AUTO_SUBJECT =
  /^\s*(automatic reply|auto(?:matic)?[- ]?(?:reply|response)|auto:|out of (?:the )?office|ooo\b|respuesta autom[aá]tica|r[ée]ponse automatique|abwesenheitsnotiz)/i;
const OUT_OF_OFFICE =
  /\b(out of (?:the )?office|ooo|on (?:vacation|holiday|leave|pto|annual leave|parental leave)|away from (?:the office|my desk|work)|limited access to (?:my )?e-?mail|currently away|fuera de la oficina|de vacaciones|ausente|abwesend)\b/i;

export function detectAutoReply(input: AutoReplyInput): AutoReplyVerdict {
  const header = (name: string) => headerValues(input.headers, name);
  if (isBounce(input, header)) return { kind: "bounce" };
  const autoByHeader =
    header("auto-submitted").some((v) => !/^\s*no\b/i.test(v)) ||
    header("x-autoreply").some((v) => !/^\s*no\b/i.test(v)) ||
    header("x-autorespond").length > 0 ||
    header("precedence").some((v) => /^\s*(bulk|auto_reply|junk)\b/i.test(v));
  const autoBySubject = AUTO_SUBJECT.test(input.subject);
  if (!autoByHeader && !autoBySubject) return { kind: null };
  if (!OUT_OF_OFFICE.test(`${input.subject}\n${input.text}`)) return { kind: "auto_reply" };
  const returnDate = findReturnDate(input.text, input.receivedAt);
  return returnDate ? { kind: "out_of_office", returnDate } : { kind: "out_of_office" };
}

function isBounce(input: AutoReplyInput, header: (name: string) => string[]): boolean {
  if (BOUNCE_SENDER.test(input.from.trim())) return true;
  if (header("x-failed-recipients").length > 0) return true;
  if (header("content-type").some((v) => /report-type\s*=\s*"?delivery-status/i.test(v))) return true;
  return BOUNCE_SUBJECT.test(input.subject);
}

function headerValues(headers: AutoReplyInput["headers"], name: string): string[] {
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    values.push(...(Array.isArray(value) ? value : [value]));
  }
  return values;
}

// biome-ignore format: a table reads better in rows
const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
  ene: 1, abr: 4, ago: 8, dic: 12,
  enero: 1, febrero: 2, marzo: 3, abril: 4, mayo: 5, junio: 6, julio: 7, agosto: 8, septiembre: 9, octubre: 10,
  noviembre: 11, diciembre: 12,
};
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

const RETURN_CUE =
  /\b(?:back|return(?:ing)?|returns|in the office|until|till|through|thru|hasta(?: el)?|regreso(?: el)?|vuelvo(?: el)?)\b/i;
const MONTH_NAME = "\\b([a-z]{3,10})\\.?";
const DAY = "(\\d{1,2})(?:st|nd|rd|th)?";
const YEAR = "(?:,?\\s+(\\d{4}))?";
const DATE_FORMS: { pattern: RegExp; parts: (m: RegExpExecArray) => [number, number, number | undefined] | null }[] = [
  { pattern: /(\d{4})-(\d{2})-(\d{2})/, parts: (m) => [Number(m[2]), Number(m[3]), Number(m[1])] },
  {
    pattern: new RegExp(`${MONTH_NAME}\\s+${DAY}${YEAR}`, "i"),
    parts: (m) => monthDay(m[1]!, m[2]!, m[3]),
  },
  {
    pattern: new RegExp(`${DAY}\\s+(?:de\\s+)?${MONTH_NAME}(?:,?\\s+(?:de\\s+)?(\\d{4}))?`, "i"),
    parts: (m) => monthDay(m[2]!, m[1]!, m[3]),
  },
  {
    pattern: /\b(\d{1,2})\/(\d{1,2})(?:\/(\d{2}|\d{4}))?\b/,
    parts: (m) => [Number(m[1]), Number(m[2]), m[3] ? fullYear(m[3]) : undefined],
  },
];

/** The first date after a return cue ("back on December 3", "until 12/3", "returning Monday"). */
export function findReturnDate(text: string, receivedAt: Date): string | undefined {
  const lower = text.replace(/\s+/g, " ");
  let search = 0;
  for (;;) {
    const cue = RETURN_CUE.exec(lower.slice(search));
    if (!cue) return undefined;
    const start = search + cue.index + cue[0].length;
    const window = lower.slice(start, start + 40);
    const date = dateIn(window, receivedAt);
    if (date) return date;
    search = start;
  }
}

function dateIn(window: string, receivedAt: Date): string | undefined {
  let best: { index: number; date: string } | undefined;
  for (const form of DATE_FORMS) {
    const match = form.pattern.exec(window);
    const parts = match && form.parts(match);
    const date = parts && resolve(parts, receivedAt);
    if (match && date && (!best || match.index < best.index)) best = { index: match.index, date };
  }
  const weekday = new RegExp(`^\\s*(?:on\\s+)?(${WEEKDAYS.join("|")})\\b`, "i").exec(window);
  if (weekday && (!best || best.index > weekday[0].length)) return nextWeekday(weekday[1]!.toLowerCase(), receivedAt);
  return best?.date;
}

function monthDay(
  monthName: string,
  day: string,
  year: string | undefined,
): [number, number, number | undefined] | null {
  const month = MONTHS[monthName.toLowerCase()] ?? MONTHS[monthName.toLowerCase().slice(0, 3)];
  return month ? [month, Number(day), year ? Number(year) : undefined] : null;
}

function fullYear(year: string): number {
  return year.length === 2 ? 2000 + Number(year) : Number(year);
}

/** A date without a year is the next one on or after the day the message arrived. */
function resolve([month, day, year]: [number, number, number | undefined], receivedAt: Date): string | undefined {
  const received = Date.UTC(receivedAt.getUTCFullYear(), receivedAt.getUTCMonth(), receivedAt.getUTCDate());
  const candidate = (y: number) => {
    const date = new Date(Date.UTC(y, month - 1, day));
    return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : undefined;
  };
  let date = candidate(year ?? receivedAt.getUTCFullYear());
  if (date && year === undefined && date.getTime() < received) date = candidate(receivedAt.getUTCFullYear() + 1);
  return date ? date.toISOString().slice(0, 10) : undefined;
}

function nextWeekday(name: string, receivedAt: Date): string {
  const target = WEEKDAYS.indexOf(name);
  const days = (target - receivedAt.getUTCDay() + 7) % 7 || 7;
  return new Date(receivedAt.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}
