// Audit trail entries as sentences a person reads in Slack: who did what, in words,
// with dates Slack shows in the reader's time zone. Never an email address.
import type { AuditEventRecord } from "../../data/audit-log.js";
import { STATUS_LABEL, slackDate } from "./format.js";

const ACTORS: Record<string, string> = {
  "agent:case_manager": "Pool Patrol",
  "agent:outreach": "Pool Patrol",
  scheduler: "Pool Patrol",
  system: "Pool Patrol",
  cli: "Someone on the command line",
};

/** A Slack user id written out ("U0ALICE", as decisions record who made them), not already a mention. */
const SLACK_USER_ID = /(?<![<@\w])([UW][0-9][A-Z0-9]{2,})\b/g;

/** Slack shows a mention as the person's name: no reader has to decode "edited by U0ALICE". */
export function mentionSlackIds(text: string): string {
  return text.replace(SLACK_USER_ID, "<@$1>");
}

export function actorWords(actor: string): string {
  if (ACTORS[actor]) return ACTORS[actor];
  return mentionSlackIds(actor.replace(/^(?:slack|person):/, "").replace(/^[a-z]+:/, ""));
}

const status = (value: unknown) => STATUS_LABEL[String(value)] ?? "another status";
const kind = (value: unknown) => (value === "cancellation" ? "a cancellation" : "a drafted reply");

export function trailSentence(event: Pick<AuditEventRecord, "actor" | "action" | "details" | "at">): string {
  return `${slackDate(event.at, "{date_short_pretty} {time}")} · ${trailWhat(event, actorWords(event.actor))}.`;
}

/** What happened, in words, done by `who` (how the reader names the actor): shared by Slack and the web pages. */
export function trailWhat(event: Pick<AuditEventRecord, "action" | "details">, who: string): string {
  const d = event.details;
  switch (event.action) {
    case "case.opened":
      return `${who} opened the case (${status(d.status)})`;
    case "case.status_changed":
      return `${who} moved the case from ${status(d.from)} to ${status(d.to)}`;
    case "case.updated":
      return `${who} updated the case`;
    case "case.reply_timeout":
      return "The reply deadline passed";
    case "case.re_audited":
      return `${who} re-checked the case (${status(d.status)} after it)`;
    case "email.sent":
      return `${who} emailed ${Array.isArray(d.to) && d.to.length > 1 ? `${d.to.length} riders` : "a rider"}`;
    case "reply.classified":
      return `${who} read a rider's reply${d.bucket ? ` (${String(d.bucket)})` : ""}`;
    case "reply.read_in_full":
      return `${who} read a rider's full reply`;
    case "approval.requested":
      return `${who} asked for a decision on ${kind(d.kind)}`;
    case "approval.approved":
    case "approval.edited":
    case "approval.rejected":
      return `${who} ${event.action.slice("approval.".length)} ${kind(d.kind)}`;
    case "approval.expired":
      return "A waiting decision expired";
    case "approval.refused_not_approver":
      return `${who} tried to decide but is not an approver`;
    case "rider.removed":
      return `${who} removed ${String(d.employee_id ?? "a rider")} from ${String(d.vanpool_id ?? "the vanpool")}`;
    case "agent.fallback_to_rules":
      return "The model failed; Pool Patrol's rules took the step over";
    default:
      return `${who}: ${event.action.replace(/[._]/g, " ")}`;
  }
}
