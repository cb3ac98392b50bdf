// Approval cards: an escalation draft (approve / edit / reject) or a cancellation
// (approve with a confirm dialog / reject). A button's value is the request id only.
// Once decided, the card is rebuilt without buttons and says who decided, when.
import type { ApprovalRecord } from "../../data/approval-repository.js";
import { idPattern } from "../../domain/ids.js";
import { button, context, escapeMrkdwn, header, type SlackMessage, section, slackDate, truncate } from "./format.js";

/** Matches an approval action id, with or without a request-id suffix. */
export const approvalAction = (actionId: string) => new RegExp(`^${actionId}(:${idPattern("approval")})?$`);

export const APPROVAL_ACTIONS = {
  approveReply: "approve_escalation_reply",
  editReply: "edit_escalation_reply",
  rejectReply: "reject_escalation_reply",
  approveCancellation: "approve_cancellation",
  rejectCancellation: "reject_cancellation",
} as const;

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
  options: { uniqueActions?: boolean } = {},
): SlackMessage {
  const decided = approval.status !== "pending";
  const id = (actionId: string) => (options.uniqueActions ? `${actionId}:${approval.approval_id}` : actionId);
  if (approval.kind === "escalation_reply") {
    const payload = approval.payload as { to: string; body: string; reply_body?: string | null };
    const blocks = [
      header(`✉️ Reply to review: ${approval.case_id}`),
      section(`*${escapeMrkdwn(payload.to)}* wrote:\n${quote(payload.reply_body ?? "(not kept)", 1200)}`),
      approval.status === "edited" && approval.edited_body
        ? section(`*Sent as edited:*\n${quote(approval.edited_body, 2500)}`)
        : section(
            `*Drafted answer*${decided ? "" : " (nothing is sent until a person approves)"}:\n${quote(payload.body, 2500)}`,
          ),
      decided
        ? decisionContext(approval)
        : {
            type: "actions",
            elements: [
              button("Approve and send", id(APPROVAL_ACTIONS.approveReply), approval.approval_id, "primary"),
              button("Edit", id(APPROVAL_ACTIONS.editReply), approval.approval_id),
              button("Reject", id(APPROVAL_ACTIONS.rejectReply), approval.approval_id, "danger"),
            ],
          },
    ];
    return {
      text: `Reply to ${payload.to} on ${approval.case_id} ${decided ? approval.status : "needs review"} (${vanpoolId})`,
      blocks,
    };
  }
  const payload = approval.payload as { employee_ids: string[]; reason: string };
  const who = payload.employee_ids.join(", ");
  const blocks = [
    header(`⚠️ Cancel membership? ${approval.case_id}`),
    section(`Remove *${who}* from *${vanpoolId}*.\n*Why:* ${escapeMrkdwn(payload.reason)}`),
    decided
      ? decisionContext(approval)
      : {
          type: "actions",
          elements: [
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
          ],
        },
  ];
  return {
    text: `Cancellation of ${who} on ${vanpoolId} ${decided ? approval.status : "needs an approver"} (${approval.case_id})`,
    blocks,
  };
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
