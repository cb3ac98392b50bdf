// Approval cards: an escalation draft (approve / edit / reject) or a cancellation
// (approve with a confirm dialog / reject). A button's value is the request id only.
// Once decided, the card is rebuilt without buttons and says who decided, when.
// Riders are shown by id and first name; what they wrote is redacted, and approvers
// can open the full text with "Show full reply".
import type { Button, KnownBlock } from "@slack/types";
import type { ApprovalRecord } from "../../data/approval-repository.js";
import { idPattern } from "../../domain/ids.js";
import {
  actions,
  button,
  context,
  escapeMrkdwn,
  header,
  riderName,
  type SlackMessage,
  section,
  slackDate,
  truncate,
} from "./format.js";
import { redactReply } from "./redact.js";

/** Matches an approval action id, with or without a request-id suffix. */
export const approvalAction = (actionId: string) => new RegExp(`^${actionId}(:${idPattern("approval")})?$`);

export const APPROVAL_ACTIONS = {
  approveReply: "approve_escalation_reply",
  editReply: "edit_escalation_reply",
  rejectReply: "reject_escalation_reply",
  approveCancellation: "approve_cancellation",
  rejectCancellation: "reject_cancellation",
} as const;

export const SHOW_FULL_REPLY = "show_full_reply";
/** "Show full reply" buttons carry the card and message in their action id, unique within a message or view. */
export const showFullReplyAction = /^show_full_reply(:[\w-]+)*$/;

/** A rider's latest reply on the case, and whether someone answered it. */
export interface RiderReply {
  message_id: string;
  at: Date;
  body: string;
  answered_at: Date | null;
}

export interface CardRider {
  employee_id: string;
  first_name: string | null;
  /** Their failing facts, one line each (a city or ZIP3 and a band, or their shift against the van's). */
  facts: string[];
  reply: RiderReply | null;
}

/** Why the case came to a cancellation: nobody fixed it by the reply deadline, or the third re-audit still failed. */
export type PreCancelReason =
  | { kind: "deadline"; deadline: Date | null; failing: string[] }
  | { kind: "third_re_audit"; count: number; failing: string[] };

export interface ApprovalCardFacts {
  riders: CardRider[];
  whyNow: PreCancelReason | null;
}

/** "lease.pdf (application/pdf, 47 KB)" */
const attachmentLabel = (a: { filename: string; content_type: string; size: number }) =>
  `${a.filename} (${a.content_type}, ${Math.max(1, Math.round(a.size / 1024))} KB)`;

const quote = (text: string, limit: number) =>
  truncate(text, limit)
    .split("\n")
    .map((line) => `> ${escapeMrkdwn(line)}`)
    .join("\n");

/**
 * `uniqueActions` suffixes each action id with the request id, for surfaces that show
 * several cards at once (App Home): action ids must not repeat within a view.
 */
export function approvalCard(
  approval: ApprovalRecord,
  vanpoolId: string,
  options: { uniqueActions?: boolean; facts?: ApprovalCardFacts } = {},
): SlackMessage {
  const decided = approval.status !== "pending";
  const id = (actionId: string) => (options.uniqueActions ? `${actionId}:${approval.approval_id}` : actionId);
  const riders = options.facts?.riders ?? [];
  const showReply = (reply: RiderReply): Button =>
    button("Show full reply", `${SHOW_FULL_REPLY}:${approval.approval_id}:${reply.message_id}`, reply.message_id);

  if (approval.kind === "escalation_reply") {
    const payload = approval.payload as {
      body: string;
      reply_body?: string | null;
      reply_message_id?: string | null;
      reply_attachments?: { filename: string; content_type: string; size: number }[];
    };
    const attachments = payload.reply_attachments ?? [];
    const rider = riders[0];
    const who = rider ? riderName(rider.employee_id, rider.first_name) : "A rider";
    const reply: RiderReply | null =
      rider?.reply ??
      (payload.reply_message_id && payload.reply_body
        ? { message_id: payload.reply_message_id, at: approval.created_at, body: payload.reply_body, answered_at: null }
        : null);
    const blocks: KnownBlock[] = [
      header(`✉️ Reply to review: ${approval.case_id}`),
      section(
        `*${who}* wrote${reply ? ` ${slackDate(reply.at)}` : ""}:\n${quote(redactReply(reply?.body ?? payload.reply_body ?? "(not kept)"), 1200)}`,
        reply ? showReply(reply) : undefined,
      ),
      ...(attachments.length
        ? [context(`📎 Attached: ${attachments.map((a) => escapeMrkdwn(attachmentLabel(a))).join(", ")}`)]
        : []),
      approval.status === "edited" && approval.edited_body
        ? section(`*Sent as edited:*\n${quote(redactReply(approval.edited_body), 2500)}`)
        : section(
            `*Drafted answer*${decided ? "" : " (nothing is sent until a person approves)"}:\n${quote(redactReply(payload.body), 2500)}`,
          ),
      decided
        ? decisionContext(approval)
        : actions([
            button("Approve and send", id(APPROVAL_ACTIONS.approveReply), approval.approval_id, "primary"),
            button("Edit", id(APPROVAL_ACTIONS.editReply), approval.approval_id),
            button("Reject", id(APPROVAL_ACTIONS.rejectReply), approval.approval_id, "danger"),
          ]),
    ];
    return {
      text: `Reply from ${who} on ${approval.case_id} ${decided ? statusWord(approval) : "needs review"} (${vanpoolId})`,
      blocks,
    };
  }

  const payload = approval.payload as { employee_ids: string[] };
  const byId = new Map(riders.map((r) => [r.employee_id, r]));
  const names = payload.employee_ids.map((e) => riderName(e, byId.get(e)?.first_name));
  const who = names.join(" and ");
  const blocks: KnownBlock[] = [
    header(`⚠️ Cancel membership? ${vanpoolId} · ${approval.case_id}`),
    section(
      `Remove *${who}* from *${vanpoolId}*.${options.facts?.whyNow ? `\n*Why now:* ${whyNow(options.facts.whyNow)}` : ""}`,
    ),
    ...payload.employee_ids.slice(0, 10).map((employeeId) => {
      const rider = byId.get(employeeId);
      return section(
        riderSection(employeeId, rider, options.facts?.whyNow ?? null),
        rider?.reply ? showReply(rider.reply) : undefined,
      );
    }),
    ...(payload.employee_ids.length > 10
      ? [context(`…and ${payload.employee_ids.length - 10} more riders: their facts are under View evidence.`)]
      : []),
    decided
      ? decisionContext(approval)
      : actions([
          button("Approve cancellation", id(APPROVAL_ACTIONS.approveCancellation), approval.approval_id, "danger", {
            title: { type: "plain_text", text: "Cancel membership?" },
            text: {
              type: "mrkdwn",
              text: `${who} will be removed from ${vanpoolId}. They are told by email and can appeal.`,
            },
            confirm: { type: "plain_text", text: "Yes, cancel" },
            deny: { type: "plain_text", text: "Go back" },
          }),
          button("Reject", id(APPROVAL_ACTIONS.rejectCancellation), approval.approval_id),
        ]),
  ];
  return {
    text: `Cancellation of ${who} on ${vanpoolId} ${decided ? statusWord(approval) : "needs an approver"} (${approval.case_id})`,
    blocks,
  };
}

function riderSection(employeeId: string, rider: CardRider | undefined, why: PreCancelReason | null): string {
  const lines = [`*${riderName(employeeId, rider?.first_name)}*`, ...(rider?.facts ?? [])];
  const reply = rider?.reply;
  if (reply) {
    lines.push(
      `💬 Replied ${slackDate(reply.at)} · ${reply.answered_at ? `answered ${slackDate(reply.answered_at)}` : "not answered yet"}`,
      quote(redactReply(reply.body), 600),
    );
  } else {
    const deadline = why?.kind === "deadline" && why.deadline ? ` by the deadline, ${slackDate(why.deadline)}` : "";
    lines.push(`💬 No reply${deadline}.`);
  }
  return lines.join("\n");
}

function whyNow(why: PreCancelReason): string {
  const failing = why.failing.length ? why.failing.join(" and ") : "the checks";
  if (why.kind === "deadline")
    return `the reply deadline${why.deadline ? ` (${slackDate(why.deadline)})` : ""} passed and a re-audit still fails ${failing}.`;
  return `the ${ordinal(why.count)} re-audit still fails ${failing}.`;
}

const ordinal = (n: number) => (n === 1 ? "first" : n === 2 ? "second" : n === 3 ? "third" : `${n}th`);

function statusWord(approval: ApprovalRecord): string {
  return approval.status === "expired" ? "expired without a decision" : approval.status;
}

function decisionContext(approval: ApprovalRecord) {
  const icon = { approved: "✅", edited: "✏️", rejected: "❌", expired: "⌛", pending: "" }[approval.status];
  const by = approval.decided_by && approval.decided_by !== "system" ? ` by <@${approval.decided_by}>` : "";
  const when = approval.decided_at ? ` ${slackDate(approval.decided_at)}` : "";
  const reason = approval.decision_reason ? ` — ${escapeMrkdwn(approval.decision_reason)}` : "";
  const label =
    approval.status === "expired"
      ? "Expired without a decision"
      : `${approval.status[0]!.toUpperCase()}${approval.status.slice(1)}`;
  return context(
    `${icon} *${label}*${by}${when}${reason}${approval.result_note ? `\n${escapeMrkdwn(approval.result_note)}` : ""}`,
  );
}
