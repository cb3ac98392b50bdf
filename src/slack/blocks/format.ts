// Small pure helpers shared by the Block Kit builders. Nothing here ever shows a
// street address: a rider's home appears as a city or ZIP3 and a distance band.
import type {
  ActionsBlock,
  Button,
  ConfirmationDialog,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  KnownBlock,
  PlainTextElement,
  SectionBlock,
} from "@slack/types";
import type { CaseReason } from "../../domain/case-lifecycle.js";
import { distanceBand } from "../../domain/geo.js";
import { redactFinding, zip3 } from "../../domain/redaction.js";

export { zip3 };

export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
}

export const SECTION_LIMIT = 3000;
export const BUTTON_TEXT_LIMIT = 75;

export function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** Escapes what Slack's mrkdwn treats as control characters in user-supplied text. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function homeLabel(city: string | null | undefined, zip: string | null | undefined): string {
  return city ? `${city} (${zip3(zip)})` : zip3(zip);
}

export function band(miles: number | null | undefined): string {
  return typeof miles === "number" ? distanceBand(miles) : "distance unknown";
}

/** A distance as an approver reads it in private (the evidence modal): the exact figure, then its band. */
export function exactMiles(miles: number | null | undefined): string {
  return typeof miles === "number" ? `${miles.toFixed(1)} mi (${distanceBand(miles)})` : "distance unknown";
}

/**
 * A check's reasoning as the channel may read it: the one redaction rule (`redactFinding`), with the
 * van's pickup, which the reasoning names, shown as it is.
 */
export function findingText(result: { reasoning: string; evidence: { type?: unknown; address?: unknown }[] }): string {
  const pickup = result.evidence.find((e) => e.type === "vanpool_pickup")?.address;
  return redactFinding(result.reasoning, [typeof pickup === "string" ? pickup : undefined]);
}

/** A date Slack renders in each reader's own time zone. */
export function slackDate(date: Date, format = "{date_short_pretty} at {time}"): string {
  return `<!date^${Math.floor(date.getTime() / 1000)}^${format}|${date.toISOString().slice(0, 16).replace("T", " ")} UTC>`;
}

export const plain = (text: string): PlainTextElement => ({ type: "plain_text", text, emoji: true });

export const section = (text: string, accessory?: Button): SectionBlock => ({
  type: "section",
  text: { type: "mrkdwn", text: truncate(text, SECTION_LIMIT) },
  ...(accessory ? { accessory } : {}),
});
export const fields = (items: string[]): SectionBlock => ({
  type: "section",
  fields: items.slice(0, 10).map((t) => ({ type: "mrkdwn", text: truncate(t, 2000) })),
});
export const context = (text: string): ContextBlock => ({
  type: "context",
  elements: [{ type: "mrkdwn", text: truncate(text, SECTION_LIMIT) }],
});
export const header = (text: string): HeaderBlock => ({ type: "header", text: plain(truncate(text, 150)) });
export const divider: DividerBlock = { type: "divider" };
export const actions = (elements: Button[]): ActionsBlock => ({ type: "actions", elements });

export function button(
  text: string,
  actionId: string,
  value: string,
  style?: "primary" | "danger",
  confirm?: ConfirmationDialog,
): Button {
  return {
    type: "button",
    text: plain(truncate(text, BUTTON_TEXT_LIMIT)),
    action_id: actionId,
    value,
    ...(style ? { style } : {}),
    ...(confirm ? { confirm } : {}),
  };
}

/** A rider as people see them in Slack: id and first name, never an email address. */
export function riderName(employeeId: string, firstName?: string | null): string {
  return firstName ? `${employeeId} (${firstName})` : employeeId;
}

/** How long something has waited, in words: "3 h", "2 days". */
export function age(since: Date, now: Date): string {
  const hours = Math.max(0, (now.getTime() - since.getTime()) / 3_600_000);
  if (hours < 1) return "under an hour";
  if (hours < 48) return `${Math.round(hours)} h`;
  return `${Math.floor(hours / 24)} days`;
}

export const REASON_WORDS: Record<CaseReason, string> = {
  location_mismatch: "lives too far",
  shift_mismatch: "shift does not match",
  both: "too far and shift does not match",
  inconclusive: "data missing",
  employment_ended: "no longer works here",
};

export { STATUS_LABEL } from "../../domain/case-lifecycle.js";

/** How a rider's reply was read, in words. */
export const BUCKET_WORDS: Record<"acknowledgment" | "question" | "update" | "escalation", string> = {
  acknowledgment: "an acknowledgment",
  question: "a question",
  update: "an update (something changed)",
  escalation: "an escalation (asks for a person)",
};
