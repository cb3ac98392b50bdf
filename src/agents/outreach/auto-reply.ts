// Mail a person did not write: auto-replies, out-of-office notices and bounces
// (RFC 3834 Auto-Submitted, X-Autoreply, Precedence, mailer-daemon senders).
// Minimal version; the classifier work (branch replies) owns the full one.

export type AutoReplyKind = "auto_reply" | "out_of_office" | "bounce";

export interface AutoReplyInput {
  headers: Record<string, string>;
  from: string;
  subject: string;
  text: string;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

export function detectAutoReply(input: AutoReplyInput): { kind: AutoReplyKind | null; returnDate?: string } {
  const header = (name: string) =>
    (Object.entries(input.headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? "").toLowerCase();
  const from = input.from.toLowerCase();
  const subject = input.subject.toLowerCase();
  if (/mailer-daemon|postmaster/.test(from) || /undeliverable|delivery status notification|returned mail/.test(subject))
    return { kind: "bounce" };
  const automatic =
    (header("auto-submitted") !== "" && header("auto-submitted") !== "no") ||
    header("x-autoreply") !== "" ||
    header("x-autorespond") !== "" ||
    /^(bulk|auto_reply|junk|list)$/.test(header("precedence"));
  const outOfOffice = /out of (the )?office|on vacation|on leave|away from (the )?office|automatic reply/.test(
    `${subject}\n${input.text.toLowerCase()}`,
  );
  if (!automatic && !/^(automatic reply|auto(-| )?reply|out of office)/.test(subject)) return { kind: null };
  if (!outOfOffice) return { kind: "auto_reply" };
  const returnDate = findReturnDate(input.text);
  return returnDate ? { kind: "out_of_office", returnDate } : { kind: "out_of_office" };
}

/** "back on December 2, 2026", "returning 2026-12-02", "until 12/02/2026" -> 2026-12-02 */
function findReturnDate(text: string): string | undefined {
  const iso = text.match(/\b(20\d\d)-(\d\d)-(\d\d)\b/);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const us = text.match(/\b(\d{1,2})\/(\d{1,2})\/(20\d\d)\b/);
  if (us) return `${us[3]}-${us[1]!.padStart(2, "0")}-${us[2]!.padStart(2, "0")}`;
  const named = text.match(
    /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? (\d{1,2})(?:st|nd|rd|th)?,? (20\d\d)\b/i,
  );
  if (named) {
    const month = MONTHS.indexOf(named[1]!.toLowerCase()) + 1;
    return `${named[3]}-${String(month).padStart(2, "0")}-${named[2]!.padStart(2, "0")}`;
  }
  return undefined;
}
