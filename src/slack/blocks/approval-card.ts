// Approval cards: an escalation draft (approve / edit / reject) or a cancellation,
// decided per rider (Remove with a confirm dialog / Keep; "Keep everyone" with a reason).
// A button's value is the request id and the version of the evidence the card shows
// (and the rider). Once decided, the card is rebuilt without buttons and says who
// decided, when, and what was done. Riders are shown by id and first name; what they
// wrote is redacted, and approvers can open the full text with "Show full reply".
import type { Button, KnownBlock } from "@slack/types";
import type { ApprovalRecord, RiderDecisionRecord } from "../../data/approval-repository.js";
import type { EarlierCase } from "../../data/rider-history-repository.js";
import { idPattern } from "../../domain/ids.js";
import { redactPersonalDetails } from "../../domain/redaction.js";
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
import { earlierCaseLines } from "./rider-history.js";

/** Matches an approval action id, with or without a request-id suffix. */
export const approvalAction = (actionId: string) => new RegExp(`^${actionId}(:${idPattern("approval")})?$`);

export const APPROVAL_ACTIONS = {
  approveReply: "approve_escalation_reply",
  editReply: "edit_escalation_reply",
  rejectReply: "reject_escalation_reply",
  rejectCancellation: "reject_cancellation",
} as const;

export const RIDER_ACTIONS = { remove: "remove_rider", keep: "keep_rider" } as const;
export const UNDO_CANCELLATION = "undo_cancellation";
/** Per-rider buttons carry the rider (and on App Home the request) in their action id. */
export const riderAction = (actionId: string) => new RegExp(`^${actionId}(:[\\w-]+)+$`);

/** What a decision button carries: the request, the version of what the card showed, and the rider if any. */
export interface ButtonValue {
  approvalId: string;
  version: string | null;
  employeeId: string | null;
}
export const buttonValue = (v: { approvalId: string; version?: string; employeeId?: string }) =>
  [v.approvalId, v.version ?? "", v.employeeId ?? ""].join(" ").trim();
export function parseButtonValue(value: string): ButtonValue {
  const [approvalId = "", version, employeeId] = value.split(" ");
  return { approvalId, version: version || null, employeeId: employeeId || null };
}

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
  /** Their earlier cases (a cancellation card shows them). */
  earlier?: readonly EarlierCase[];
}

/**
 * Why the case came to a cancellation: nobody fixed it by the reply deadline, the third re-audit still failed, or
 * riders no longer work here (`departed`: each one's "terminated on November 20"; they were never emailed).
 */
export type PreCancelReason =
  | { kind: "deadline"; deadline: Date | null; failing: string[] }
  | { kind: "third_re_audit"; count: number; failing: string[] }
  | { kind: "employment_ended"; failing: string[]; departed: Record<string, string> };

export interface ApprovalCardFacts {
  riders: CardRider[];
  whyNow: PreCancelReason | null;
  /** The version of the evidence and draft shown: carried by each button, checked on click. */
  version?: string;
  /** Per-rider decisions of a cancellation. */
  decisions?: RiderDecisionRecord[];
  /** How many different approvers a removal needs. */
  approvalsNeeded?: number;
  /** Until when a carried-out cancellation offers Undo; absent once the window closed or nothing can be undone. */
  undoUntil?: Date;
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
  const value = (employeeId?: string) =>
    buttonValue({ approvalId: approval.approval_id, version: options.facts?.version, employeeId });
  const showReply = (reply: RiderReply): Button =>
    button("Show full reply", `${SHOW_FULL_REPLY}:${approval.approval_id}:${reply.message_id}`, reply.message_id);

  if (approval.kind === "escalation_reply") {
    const payload = approval.payload as {
      body: string;
      reply_body?: string | null;
      reply_message_id?: string | null;
      reply_attachments?: { filename: string; content_type: string; size: number }[];
      /** Why a person reads the reply, for one not in English: "reply in Korean: a person should read it". */
      reply_reason?: string | null;
      /** Set when a person wrote the email (a case that needs a person), not the outreach agent. */
      drafted_by?: string;
    };
    const attachments = payload.reply_attachments ?? [];
    const rider = riders[0];
    const who = rider ? riderName(rider.employee_id, rider.first_name) : "A rider";
    const reply: RiderReply | null =
      rider?.reply ??
      (payload.reply_message_id && payload.reply_body
        ? { message_id: payload.reply_message_id, at: approval.created_at, body: payload.reply_body, answered_at: null }
        : null);
    const draftedBy = payload.drafted_by;
    // A follow-up an approver asked for answers no reply, whatever the rider wrote before or after: its subject stays.
    const followUp = !draftedBy && !payload.reply_message_id && !payload.reply_body;
    const blocks: KnownBlock[] = [
      header(`✉️ ${draftedBy ? "Email" : followUp ? "Follow-up" : "Reply"} to review: ${approval.case_id}`),
      draftedBy
        ? section(`<@${draftedBy}> wrote to *${who}* about this case that needs a person.`)
        : followUp
          ? reply
            ? section(
                `*${who}* last wrote ${slackDate(reply.at)}, before this follow-up was drafted:\n${quote(redactPersonalDetails(reply.body), 1200)}`,
                showReply(reply),
              )
            : section(`*${who}* has not replied to the review email yet.`)
          : section(
              `*${who}* wrote${reply ? ` ${slackDate(reply.at)}` : ""}:\n${quote(redactPersonalDetails(reply?.body ?? payload.reply_body ?? ""), 1200)}`,
              reply ? showReply(reply) : undefined,
            ),
      ...(payload.reply_reason ? [context(`🌐 ${escapeMrkdwn(capitalised(payload.reply_reason))}`)] : []),
      ...(attachments.length
        ? [context(`📎 Attached: ${attachments.map((a) => escapeMrkdwn(attachmentLabel(a))).join(", ")}`)]
        : []),
      approval.status === "edited" && approval.edited_body
        ? section(`*Sent as edited:*\n${quote(redactPersonalDetails(approval.edited_body), 2500)}`)
        : section(
            `*${draftedBy ? "Draft" : "Drafted answer"}*${decided ? "" : " (nothing is sent until a person approves)"}:\n${quote(redactPersonalDetails(payload.body), 2500)}`,
          ),
      decided
        ? decisionContext(approval)
        : actions([
            button("Approve and send", id(APPROVAL_ACTIONS.approveReply), value(), "primary"),
            button("Edit", id(APPROVAL_ACTIONS.editReply), value()),
            button("Reject", id(APPROVAL_ACTIONS.rejectReply), value(), "danger"),
          ]),
    ];
    return {
      text: `${draftedBy ? `Email to ${who}` : followUp ? `Follow-up to ${who}` : `Reply from ${who}`} on ${approval.case_id} ${decided ? statusWord(approval) : "needs review"} (${vanpoolId})`,
      blocks,
    };
  }

  const payload = approval.payload as { employee_ids: string[] };
  const byId = new Map(riders.map((r) => [r.employee_id, r]));
  const names = payload.employee_ids.map((e) => riderName(e, byId.get(e)?.first_name));
  const who = names.join(" and ");
  const decisions = new Map((options.facts?.decisions ?? []).map((d) => [d.employee_id, d]));
  const undone = [...decisions.values()].some((d) => d.outcome === "reinstated");
  const needed = options.facts?.approvalsNeeded ?? 1;
  const riderActionId = (actionId: string, employeeId: string) =>
    options.uniqueActions ? `${actionId}:${approval.approval_id}:${employeeId}` : `${actionId}:${employeeId}`;
  const riderBlocks = (employeeId: string): KnownBlock[] => {
    const rider = byId.get(employeeId);
    const name = riderName(employeeId, rider?.first_name);
    const decision = decisions.get(employeeId);
    const shown: KnownBlock[] = [
      section(
        riderSection(employeeId, rider, options.facts?.whyNow ?? null),
        rider?.reply ? showReply(rider.reply) : undefined,
      ),
    ];
    if (decision?.decision || decided) shown.push(context(riderDecisionLine(decision, approval)));
    else {
      shown.push(
        actions([
          button(`Remove ${name}`, riderActionId(RIDER_ACTIONS.remove, employeeId), value(employeeId), "danger", {
            title: { type: "plain_text", text: "Remove this rider?" },
            text: {
              type: "mrkdwn",
              text: `${name} will be removed from ${vanpoolId}${needed > 1 ? " once a second approver agrees" : ""}. Their checks run again just before; if they pass now, they stay. They are told by email and can appeal.`,
            },
            confirm: { type: "plain_text", text: "Yes, remove" },
            deny: { type: "plain_text", text: "Go back" },
          }),
          button(`Keep ${name}`, riderActionId(RIDER_ACTIONS.keep, employeeId), value(employeeId), "primary"),
        ]),
      );
      if (decision?.first_approver)
        shown.push(
          context(
            `🗳️ ${needed > 1 ? "1 of 2 approvals" : "Approved"} to remove: <@${decision.first_approver}>${decision.first_approved_at ? ` ${slackDate(decision.first_approved_at)}` : ""}. A different approver must confirm.`,
          ),
        );
    }
    return shown;
  };
  const blocks: KnownBlock[] = [
    header(
      `${decided ? cancellationHeadline(approval, [...decisions.values()]) : "⚠️ Cancel membership?"} ${vanpoolId} · ${approval.case_id}`,
    ),
    section(
      `${decided ? `Cancellation of *${who}* from *${vanpoolId}*: each rider's outcome is below.` : removalQuestion(payload.employee_ids, names, vanpoolId, options.facts?.whyNow ?? null)}${options.facts?.whyNow ? `\n*Why ${decided ? "it was asked" : "now"}:* ${whyNow(options.facts.whyNow)}` : ""}`,
    ),
    ...payload.employee_ids.slice(0, 10).flatMap(riderBlocks),
    ...(payload.employee_ids.length > 10
      ? [context(`…and ${payload.employee_ids.length - 10} more riders: their facts are under View evidence.`)]
      : []),
    ...(decided
      ? [
          decisionContext(approval, undone),
          ...undoneContext([...decisions.values()]),
          ...(options.facts?.undoUntil
            ? [
                actions([
                  button("Undo cancellation", id(UNDO_CANCELLATION), approval.approval_id, undefined, {
                    title: { type: "plain_text", text: "Undo this cancellation?" },
                    text: {
                      type: "mrkdwn",
                      text: "The removed riders are reinstated and each gets an email withdrawing the removal.",
                    },
                    confirm: { type: "plain_text", text: "Yes, undo" },
                    deny: { type: "plain_text", text: "Go back" },
                  }),
                ]),
                context(`↩️ Undo is possible until ${slackDate(options.facts.undoUntil, "{time}")}.`),
              ]
            : []),
        ]
      : [
          context(
            `${needed > 1 ? "Removing a rider needs two different approvers; keeping needs one." : "One approver decides each rider."} The case closes once every rider is decided.`,
          ),
          actions([button("Keep everyone…", id(APPROVAL_ACTIONS.rejectCancellation), value())]),
        ]),
  ];
  return {
    text: `Cancellation of ${who} on ${vanpoolId} ${undone ? "undone" : decided ? statusWord(approval) : "needs an approver"} (${approval.case_id})`,
    blocks,
  };
}

/** Once undone, the card says so under the (now outdated) outcome note. */
function undoneContext(decisions: RiderDecisionRecord[]): KnownBlock[] {
  const undone = decisions.filter((d) => d.outcome === "reinstated");
  const first = undone[0];
  if (!first) return [];
  return [
    context(
      `↩️ *Cancellation undone* by <@${first.undone_by}>${first.undone_at ? ` ${slackDate(first.undone_at)}` : ""}: ${undone.map((d) => d.employee_id).join(", ")} reinstated and sent an email withdrawing the removal. The case needs a person again: keep them with an exception, or propose their removal again later.`,
    ),
  ];
}

/** A rider's decision and what was done, in words. */
function riderDecisionLine(decision: RiderDecisionRecord | undefined, approval: ApprovalRecord): string {
  const by = decision?.decided_by ? ` by <@${decision.decided_by}>` : "";
  const when = decision?.decided_at ? ` ${slackDate(decision.decided_at)}` : "";
  const second = decision?.first_approver ? ` (first approval <@${decision.first_approver}>)` : "";
  switch (decision?.outcome) {
    case "reinstated":
      return `↩️ *Reinstated*: the removal was undone by <@${decision.undone_by}>${decision.undone_at ? ` ${slackDate(decision.undone_at)}` : ""}.`;
    case "removed":
      return `⛔ *Removed*: decided${by}${when}${second}; the re-check just before still failed.`;
    case "kept_passes":
      return `✅ *Not removed*: removal decided${by}${when}, but the checks were run again just before and this rider passes now.`;
    case "kept":
      return `✋ *Kept*${by}${when}.`;
  }
  if (decision?.decision === "keep") return `✋ *Kept*${by}${when}.`;
  if (decision?.decision === "remove")
    return `🗑️ *To be removed*${by}${when}${second}; carried out once every rider is decided.`;
  return approval.status === "rejected" ? "✋ *Kept* (no one was removed)." : "No decision for this rider.";
}

function riderSection(employeeId: string, rider: CardRider | undefined, why: PreCancelReason | null): string {
  const lines = [`*${riderName(employeeId, rider?.first_name)}*`, ...(rider?.facts ?? [])];
  const reply = rider?.reply;
  if (reply) {
    lines.push(
      `💬 Replied ${slackDate(reply.at)} · ${reply.answered_at ? `answered ${slackDate(reply.answered_at)}` : "not answered yet"}`,
      quote(redactPersonalDetails(reply.body), 600),
    );
  } else if (why?.kind === "employment_ended" && why.departed[employeeId]) {
    lines.push("✉️ Not emailed: they no longer work here.");
  } else {
    const deadline = why?.kind === "deadline" && why.deadline ? ` by the deadline, ${slackDate(why.deadline)}` : "";
    lines.push(`💬 No reply${deadline}.`);
  }
  if (rider?.earlier?.length) lines.push("🗂️ Flagged before:", ...earlierCaseLines(rider.earlier));
  return lines.join("\n");
}

/** "Derek (EMP-1042) no longer works here (terminated on November 20): remove from VP-104?" for riders who left. */
function removalQuestion(ids: string[], names: string[], vanpoolId: string, why: PreCancelReason | null): string {
  if (why?.kind !== "employment_ended")
    return `Decide for each rider: remove *${names.join(" and ")}* from *${vanpoolId}*, or keep them.`;
  return ids
    .map((id, i) =>
      why.departed[id]
        ? `*${names[i]}* no longer works here (${why.departed[id]}): remove from *${vanpoolId}*?`
        : `Remove *${names[i]}* from *${vanpoolId}*?`,
    )
    .join("\n");
}

function whyNow(why: PreCancelReason): string {
  if (why.kind === "employment_ended")
    return "the HR records say they no longer work here, so no one was emailed; the removal waits for you.";
  const failing = why.failing.length ? why.failing.join(" and ") : "the checks";
  if (why.kind === "deadline")
    return `the reply deadline${why.deadline ? ` (${slackDate(why.deadline)})` : ""} passed and a re-audit still fails ${failing}.`;
  return `the ${ordinal(why.count)} re-audit still fails ${failing}.`;
}

const ordinal = (n: number) => (n === 1 ? "first" : n === 2 ? "second" : n === 3 ? "third" : `${n}th`);

/** A decided cancellation card's title: what happened, not the question it asked. */
function cancellationHeadline(approval: ApprovalRecord, decisions: RiderDecisionRecord[]): string {
  if (decisions.some((d) => d.outcome === "reinstated")) return "↩️ Cancellation undone:";
  if (approval.status === "rejected") return "✋ Cancellation rejected:";
  if (approval.status === "expired") return "⌛ Cancellation expired:";
  return "✅ Cancellation decided:";
}

function statusWord(approval: ApprovalRecord): string {
  return approval.status === "expired" ? "expired without a decision" : approval.status;
}

/** The decision and what carrying it out did; once undone, that outcome is history and is not repeated as current. */
function decisionContext(approval: ApprovalRecord, undone = false) {
  const icon = { approved: "✅", edited: "✏️", rejected: "❌", expired: "⌛", pending: "" }[approval.status];
  const by = approval.decided_by && approval.decided_by !== "system" ? ` by <@${approval.decided_by}>` : "";
  const when = approval.decided_at ? ` ${slackDate(approval.decided_at)}` : "";
  const reason = approval.decision_reason ? ` — ${escapeMrkdwn(approval.decision_reason)}` : "";
  const label =
    approval.status === "expired"
      ? "Expired without a decision"
      : `${approval.status[0]!.toUpperCase()}${approval.status.slice(1)}`;
  return context(
    `${icon} *${label}*${by}${when}${reason}${approval.result_note && !undone ? `\n${escapeMrkdwn(approval.result_note)}` : ""}`,
  );
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
