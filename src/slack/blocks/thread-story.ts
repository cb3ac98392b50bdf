// What happened on a case by email, told in its Slack thread (docs/slack.md): each rider's reply once it is read
// (how it was read, redacted as the channel's one rule says, distances banded, and short) and each email Pool Patrol sent (subject and first lines). Riders appear
// by id and first name, never by email address.
import type { CaseCardData } from "../../data/case-card-repository.js";
import { redactFinding } from "../../domain/redaction.js";
import { BUCKET_WORDS, escapeMrkdwn, riderName, slackDate, truncate } from "./format.js";

export interface StoryLine {
  /** Names the line for good: posted once per email. */
  key: string;
  text: string;
}

const quoted = (text: string, limit: number) =>
  `> ${escapeMrkdwn(truncate(redactFinding(text).replace(/\s+/g, " ").trim(), limit))}`;

/** The lines the thread should have by now, oldest first: a reply once classified, an email once sent. */
export function threadStory(data: Pick<CaseCardData, "emails" | "people">): StoryLine[] {
  const byEmail = new Map(data.people.map((p) => [p.email.toLowerCase(), p]));
  const who = (address: string) => {
    const person = byEmail.get(address.toLowerCase());
    return person ? riderName(person.employee_id, person.first_name) : "someone not on the case";
  };
  return data.emails.flatMap((m): StoryLine[] => {
    if (m.direction === "inbound") {
      const read = m.bucket ? BUCKET_WORDS[m.bucket as keyof typeof BUCKET_WORDS] : undefined;
      if (!read) return [];
      return [
        {
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
        key: `story:${m.message_id}`,
        text: `✉️ Pool Patrol emailed ${to} ${slackDate(m.at)}: *${escapeMrkdwn(truncate(m.subject, 150))}*\n${quoted(firstLines, 240)}`,
      },
    ];
  });
}
