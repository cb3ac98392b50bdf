// Small pure helpers shared by the Block Kit builders. Nothing here ever shows a
// street address: a rider's home appears as a city or ZIP3 and a distance band.
import { distanceBand } from "../../domain/geo.js";

export type Block = Record<string, unknown>;
export interface SlackMessage {
  text: string;
  blocks: Block[];
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

export function zip3(zip: string | null | undefined): string {
  return zip && /^\d{5}$/.test(zip) ? `${zip.slice(0, 3)}xx` : "unknown ZIP";
}

export function homeLabel(city: string | null | undefined, zip: string | null | undefined): string {
  return city ? `${city} (${zip3(zip)})` : zip3(zip);
}

export function band(miles: number | null | undefined): string {
  return typeof miles === "number" ? distanceBand(miles) : "distance unknown";
}

/** Engine reasoning cites exact miles; in Slack each becomes its band. */
export function bandMiles(text: string): string {
  return text.replace(/\b(\d+(?:\.\d+)?) mi\b/g, (_, miles: string) => band(Number(miles)));
}

/** A date Slack renders in each reader's own time zone. */
export function slackDate(date: Date, format = "{date_short_pretty} at {time}"): string {
  return `<!date^${Math.floor(date.getTime() / 1000)}^${format}|${date.toISOString().slice(0, 16).replace("T", " ")} UTC>`;
}

export const section = (text: string, extra: Block = {}): Block => ({
  type: "section",
  text: { type: "mrkdwn", text: truncate(text, SECTION_LIMIT) },
  ...extra,
});
export const fields = (items: string[]): Block => ({
  type: "section",
  fields: items.slice(0, 10).map((t) => ({ type: "mrkdwn", text: truncate(t, 2000) })),
});
export const context = (text: string): Block => ({
  type: "context",
  elements: [{ type: "mrkdwn", text: truncate(text, SECTION_LIMIT) }],
});
export const header = (text: string): Block => ({
  type: "header",
  text: { type: "plain_text", text: truncate(text, 150), emoji: true },
});
export const divider: Block = { type: "divider" };

export function button(
  text: string,
  actionId: string,
  value: string,
  style?: "primary" | "danger",
  confirm?: Block,
): Block {
  return {
    type: "button",
    text: { type: "plain_text", text: truncate(text, BUTTON_TEXT_LIMIT), emoji: true },
    action_id: actionId,
    value,
    ...(style ? { style } : {}),
    ...(confirm ? { confirm } : {}),
  };
}

export const STATUS_LABEL: Record<string, string> = {
  open: "Open",
  verification: "Verifying",
  pending_reply: "Waiting for riders",
  re_audit: "Re-auditing",
  hitl_review: "Needs a person",
  pre_cancel: "Cancellation pending",
  resolved: "Resolved",
  cancelled: "Cancelled",
};
