// What happened on a case, told in its Slack thread (docs/slack.md): each rider's reply once it is read (how it was
// read, redacted as the channel's one rule says, distances banded, and short), each email Pool Patrol sent (subject
// and first lines) and each re-audit of the open case with its result. Riders appear by id and first name, never by
// email address.
import type { CaseCardData } from "../../data/case-card-repository.js";
import type { ReAuditRecord } from "../../data/re-audit-repository.js";
import { MAX_RE_AUDITS } from "../../domain/case-lifecycle.js";
import { redactFinding } from "../../domain/redaction.js";
import { BUCKET_WORDS, escapeMrkdwn, riderName, STATUS_LABEL, slackDate, truncate } from "./format.js";
import { riderLine } from "./rider-evidence.js";

export interface StoryLine {
  /** Names the line for good: posted once per email. */
  key: string;
  text: string;
}

const quoted = (text: string, limit: number) =>
  `> ${escapeMrkdwn(truncate(redactFinding(text).replace(/\s+/g, " ").trim(), limit))}`;

/**
 * The lines the thread should have by now, oldest first: a reply once classified, an email once sent, a re-audit
 * once its result is recorded.
 */
export function threadStory(data: Pick<CaseCardData, "emails" | "people" | "reAudits" | "record">): StoryLine[] {
  const byEmail = new Map(data.people.map((p) => [p.email.toLowerCase(), p]));
  const who = (address: string) => {
    const person = byEmail.get(address.toLowerCase());
    return person ? riderName(person.employee_id, person.first_name) : "someone not on the case";
  };
  const named = (employeeId: string) =>
    riderName(employeeId, data.people.find((p) => p.employee_id === employeeId)?.first_name);
  const lines = [
    ...emailLines(data, who),
    ...data.reAudits.map((r) => ({
      at: r.at,
      step: STEP.reAudit,
      key: `story:re-audit:${r.key}`,
      text: reAuditText(r, who, named, data.record.flagged),
    })),
  ];
  return lines
    .sort((a, b) => a.at.getTime() - b.at.getTime() || a.step - b.step)
    .map(({ key, text }) => ({ key, text }));
}

/** At the same moment (a frozen clock), a reply leads to its re-check, which leads to the email sent after it. */
const STEP = { reply: 0, reAudit: 1, email: 2 } as const;

type TimedLine = StoryLine & { at: Date; step: number };

const CAUSE_WORDS = {
  timeout: () => "after no reply by the deadline",
  audit: () => "on a new audit",
} as const;

/** "🔁 Re-checked after EMP-1028 (Wendell)'s reply: location still fails (…). Counted: 1 of 3; …" */
function reAuditText(
  r: ReAuditRecord,
  who: (address: string) => string,
  named: (employeeId: string) => string,
  onCase: string[],
): string {
  const { cause } = r;
  const because =
    cause.kind === "reply"
      ? `after ${who(cause.from)}'s reply`
      : cause.kind === "import"
        ? `after ${escapeMrkdwn(cause.source)} changed a rider`
        : cause.kind === "person"
          ? `at <@${cause.user}>'s request`
          : CAUSE_WORDS[cause.kind]();
  const checks = (["location", "shift"] as const).flatMap((check) => {
    const result = r.results[check];
    if (!result) return [];
    if (result.verdict === "pass") return [`${check} passes`];
    if (result.verdict === "inconclusive") return [`${check} could not be decided`];
    // A failing rider the case does not flag is one a person kept by an exception: named, not re-argued.
    const kept = result.flagged.filter((id) => !onCase.includes(id));
    const riders = result.flagged
      .filter((id) => onCase.includes(id))
      .map((id) => {
        const facts = riderLine(check, result, id);
        return facts ? `${named(id)}: ${facts}` : named(id);
      });
    const keptWords = kept.length ? `; ${kept.map(named).join(", ")} kept by an exception` : "";
    return [
      `${check} ${r.failed_before.includes(check) ? "still fails" : "fails"} (${riders.join("; ") || "no rider on the case"}${keptWords})`,
    ];
  });
  const pace =
    r.counted === null
      ? ""
      : ` ${r.counted ? "Counted" : "Not counted, the data is the same and the last counted one is less than a business day old"}: ${r.count} of ${MAX_RE_AUDITS} re-checks.${r.counts_from && r.count < MAX_RE_AUDITS ? ` The next counted re-check from ${slackDate(r.counts_from)}, or at once if the data changes.` : ""}`;
  return `🔁 Re-checked ${because}: ${checks.join("; ") || "no check ran"}.${pace} The case is now *${STATUS_LABEL[r.status] ?? "changed"}*.`;
}

function emailLines(data: Pick<CaseCardData, "emails">, who: (address: string) => string): TimedLine[] {
  return data.emails.flatMap((m): TimedLine[] => {
    if (m.direction === "inbound") {
      const read = m.bucket ? BUCKET_WORDS[m.bucket as keyof typeof BUCKET_WORDS] : undefined;
      if (!read) return [];
      return [
        {
          at: m.at,
          step: STEP.reply,
          key: `story:${m.message_id}`,
          text: `📨 ${who(m.from)} replied ${slackDate(m.at)}, read as ${read}:\n${quoted(m.reply_text ?? m.body, 300)}`,
        },
      ];
    }
    if (m.status !== "sent") return [];
    const to = m.to.map(who).join(", ") || "no one";
    const firstLines = m.body
      .split(/\n\s*\n/)
      .slice(0, 2)
      .join(" ");
    return [
      {
        at: m.at,
        step: STEP.email,
        key: `story:${m.message_id}`,
        text: `✉️ Pool Patrol emailed ${to} ${slackDate(m.at)}: *${escapeMrkdwn(truncate(m.subject, 150))}*\n${quoted(firstLines, 240)}`,
      },
    ];
  });
}
