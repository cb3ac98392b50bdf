// Modals: the full cited evidence of a case, the editor for a drafted reply, and
// the reason for a rejection. Titles stay within Slack's 24 characters.

import type { InputBlock, KnownBlock, ModalView } from "@slack/types";
import type { ApprovalRecord } from "../../data/approval-repository.js";
import type { CaseRecord } from "../../data/case-repository.js";
import { EXCEPTION_REASONS, type ExceptionChoice, isExceptionReason } from "../../domain/exceptions.js";
import type { DistanceMethod, HomePointSource } from "../../domain/location-policy.js";
import { recordedPolicyText } from "../../domain/policy-text.js";
import type { ReferenceSource } from "../../domain/shift-policy.js";
import { CHECK_ICONS, CHECK_KINDS, CHECK_TITLES } from "../../domain/specialist-result.js";
import {
  band,
  context,
  divider,
  escapeMrkdwn,
  exactMiles,
  findingText,
  header,
  homeLabel,
  plain,
  riderName,
  STATUS_LABEL,
  section,
  slackDate,
  truncate,
} from "./format.js";
import { type LatestResults, riderLine } from "./rider-evidence.js";

export const VIEW_CALLBACKS = {
  editReply: "edit_escalation_reply_submit",
  rejectApproval: "reject_approval_submit",
  closeResolved: "close_resolved_submit",
  keepRider: "keep_rider_submit",
  emailRider: "email_rider_submit",
} as const;
export const INPUTS = {
  body: { block: "reply_body", action: "body" },
  reason: { block: "reject_reason", action: "reason" },
  rider: { block: "rider", action: "rider" },
  exceptionReason: { block: "exception_reason", action: "exception_reason" },
  exceptionDays: { block: "exception_days", action: "exception_days" },
} as const;

/** Opened at once while the trigger id is fresh (it lives 3 seconds), then filled in with views.update. */
export function loadingModal(title: string): ModalView {
  return { type: "modal", title: plain(title), close: plain("Close"), blocks: [section("Loading…")] };
}

/** A modal that only says something, e.g. why the one asked for cannot be shown. */
export function noticeModal(title: string, text: string): ModalView {
  return { type: "modal", title: plain(title), close: plain("Close"), blocks: [section(text)] };
}

export const EVIDENCE_TITLE = "Case evidence";
// Titles known before anything is looked up: their modals open with a loading view under them.
export const EDIT_REPLY_TITLE = "Edit reply";
export const FULL_REPLY_TITLE = "Full reply";
export const CLOSE_RESOLVED_TITLE = "Close as resolved";
export const KEEP_RIDER_TITLE = "Keep a rider";
export const EMAIL_RIDER_TITLE = "Email a rider";
export const rejectTitle = (kind: ApprovalRecord["kind"]) =>
  kind === "cancellation" ? "Keep everyone" : "Reject reply";

export function evidenceModal(
  record: CaseRecord,
  results: LatestResults,
  firstNames: Record<string, string> = {},
  /** The case's web page, linked at the top. */
  pageUrl?: string,
  /** Approvers read exact distances here (docs/redaction.md); everyone else the bands the channel shows. */
  viewer: "approver" | "member" = "member",
): ModalView {
  const blocks: KnownBlock[] = [
    section(
      `*${record.case_id}* · ${record.vanpool_id} · ${STATUS_LABEL[record.status] ?? record.status}\nFailed: ${record.failed_checks.join(", ") || "none"} · Flagged: ${record.flagged.map((id) => riderName(id, firstNames[id])).join(", ") || "none"}`,
    ),
    ...(pageUrl
      ? [context(`<${pageUrl}|Open the case page>: evidence per rider, the timeline, emails and decisions.`)]
      : []),
  ];
  for (const check of CHECK_KINDS) {
    const result = results[check];
    if (!result) continue;
    blocks.push(
      divider,
      header(`${CHECK_ICONS[check]} ${CHECK_TITLES[check]}: ${result.verdict} (${result.confidence}/5)`),
      section(escapeMrkdwn(findingText(result))),
    );
    const lines =
      check === "location"
        ? locationLines(result, viewer === "approver" ? exactMiles : band)
        : check === "shift"
          ? shiftLines(result)
          : result.flagged.flatMap((id) => {
              const line = riderLine(check, result, id);
              return line ? [`• ${id} ${line}`] : [];
            });
    for (let i = 0; i < lines.length; i += 12) blocks.push(section(lines.slice(i, i + 12).join("\n")));
    blocks.push(context(`Policy: ${recordedPolicyText(check, result.policy)}`));
  }
  return { type: "modal", title: plain(EVIDENCE_TITLE), close: plain("Close"), blocks: blocks.slice(0, 100) };
}

/** Where a rider's home point came from, how a distance was measured, and where the van's hours came from, in words. */
const HOME_POINT_WORDS: Record<HomePointSource, string> = {
  home_coords: "from the home's coordinates",
  zip_centroid: "from the ZIP's centre",
  unknown: "home not located",
};
const METHOD_WORDS: Record<DistanceMethod, string> = { haversine: "straight line", driving: "driving" };
const REFERENCE_WORDS: Record<ReferenceSource, string> = {
  plurality: " (the schedule most riders share)",
  vanpool_schedule: " (the van's own schedule)",
  none: "",
};

function locationLines(
  result: NonNullable<LatestResults["location"]>,
  distance: (miles: number | null | undefined) => string,
): string[] {
  const pickup = result.evidence.find((e) => e.type === "vanpool_pickup");
  const lines = [
    `Pickup: ${pickup?.point_source === "pickup" ? "pickup point" : "work site"}${pickup?.address ? ` (${escapeMrkdwn(String(pickup.address))})` : ""}`,
  ];
  for (const profile of result.evidence.filter((e) => e.type === "employee_profile")) {
    const d = result.evidence.find((e) => e.type === "distance_check" && e.employee_id === profile.employee_id);
    lines.push(
      `• ${profile.employee_id}: ${homeLabel(profile.home_city as string | null, profile.home_zip as string | null)} ${HOME_POINT_WORDS[profile.home_point_source as HomePointSource] ?? ""} · ${distance(d?.distance_miles as number | null)}${d?.method ? ` (${METHOD_WORDS[d.method as DistanceMethod] ?? d.method})` : ""} · *${d?.verdict}*${d?.fallback_reason ? ` · ${escapeMrkdwn(String(d.fallback_reason))}` : ""}`,
    );
  }
  return lines;
}

function shiftLines(result: NonNullable<LatestResults["shift"]>): string[] {
  const reference = result.evidence.find((e) => e.type === "shift_reference");
  const lines = [
    `Reference: ${reference?.description ?? "none"}${REFERENCE_WORDS[reference?.source as ReferenceSource] ?? ""}`,
  ];
  for (const rider of result.evidence.filter((e) => e.type === "employee_shift")) {
    const days = Array.isArray(rider.days)
      ? (rider.days as { day: string; rider: string | null; compatible: boolean; via: string | null }[])
      : [];
    const detail = days.length
      ? ` · ${days.map((d) => `${d.day} ${d.compatible ? (d.via === "pto" ? "PTO" : "✓") : "✗"}`).join(" ")}`
      : "";
    lines.push(
      `• ${rider.employee_id}: ${rider.shift_name ?? "no shift"} ${rider.schedule ?? ""} · *${rider.verdict ?? "n/a"}*${rider.compatible_days !== undefined ? ` (${rider.compatible_days}/${rider.operating_days})` : ""}${detail}`,
    );
  }
  return lines;
}

/**
 * The decision modals keep the clicked button's value (request id and the evidence version the card
 * showed), so a submit after the case changed is refused like a click would be.
 */
export function editReplyModal(approval: ApprovalRecord, riderLabel: string, buttonValue: string): ModalView {
  const payload = approval.payload as { body: string };
  return {
    type: "modal",
    callback_id: VIEW_CALLBACKS.editReply,
    private_metadata: buttonValue,
    title: plain(EDIT_REPLY_TITLE),
    submit: plain("Send"),
    close: plain("Cancel"),
    blocks: [
      context(`To ${escapeMrkdwn(riderLabel)} · ${approval.case_id}`),
      emailTextInput(truncate(payload.body, 3000)),
    ],
  };
}

/** A decision's reason is recorded with it, so it must say something: at least this many characters. */
export const MIN_REASON_LENGTH = 5;

/** The reason input of a decision modal, its rule shown before submit. */
function reasonInput(label: string): InputBlock {
  return {
    type: "input",
    block_id: INPUTS.reason.block,
    label: plain(label),
    hint: plain(`At least ${MIN_REASON_LENGTH} characters; it is recorded with the decision.`),
    element: {
      type: "plain_text_input",
      action_id: INPUTS.reason.action,
      multiline: true,
      min_length: MIN_REASON_LENGTH,
    },
  };
}

/** Why a submitted reason is refused, shown under it in the modal; undefined when it will do. */
export function reasonRefusal(reason: string): string | undefined {
  return reason.length < MIN_REASON_LENGTH
    ? `Write at least ${MIN_REASON_LENGTH} characters: the reason is recorded with the decision.`
    : undefined;
}

export function rejectModal(approval: ApprovalRecord, buttonValue: string, maxDays: number): ModalView {
  if (approval.kind === "cancellation")
    return keepModal({
      callbackId: VIEW_CALLBACKS.rejectApproval,
      metadata: buttonValue,
      title: rejectTitle(approval.kind),
      submit: "Keep everyone",
      intro:
        "No rider is removed: every rider keeps their seat with an exception, and the case is resolved with your reason recorded.",
      reasonLabel: "Reason",
      maxDays,
    });
  return {
    type: "modal",
    callback_id: VIEW_CALLBACKS.rejectApproval,
    private_metadata: buttonValue,
    title: plain(rejectTitle(approval.kind)),
    submit: plain("Reject"),
    close: plain("Cancel"),
    blocks: [
      context(
        (approval.payload as { drafted_by?: string }).drafted_by
          ? "Nothing is sent to the rider; the case still needs a person, who decides what happens next on its alert."
          : "Nothing is sent to the rider; the case goes back to waiting for replies.",
      ),
      reasonInput("Reason"),
    ],
  };
}

/**
 * The one form behind every way of keeping a failing rider (Keep …, Keep everyone, Close as resolved): the
 * decision's reason, why they are kept from the short list, and for how long. `metadata` names what is decided.
 */
export function keepModal(input: {
  callbackId: string;
  metadata: string;
  title: string;
  submit: string;
  intro: string;
  reasonLabel: string;
  maxDays: number;
}): ModalView {
  return {
    type: "modal",
    callback_id: input.callbackId,
    private_metadata: input.metadata,
    title: plain(input.title),
    submit: plain(input.submit),
    close: plain("Cancel"),
    blocks: [context(input.intro), reasonInput(input.reasonLabel), ...exceptionInputs(input.maxDays)],
  };
}

/** Keep … on a cancellation card: this rider keeps their seat with an exception. */
export function keepRiderModal(riderLabel: string, buttonValue: string, maxDays: number): ModalView {
  return keepModal({
    callbackId: VIEW_CALLBACKS.keepRider,
    metadata: buttonValue,
    title: KEEP_RIDER_TITLE,
    submit: "Keep",
    intro: `${escapeMrkdwn(riderLabel)} keeps their seat: later audits leave them alone for this check while the exception holds and their home or shift stays the same.`,
    reasonLabel: "Reason",
    maxDays,
  });
}

/**
 * Keeping a failing rider grants an exception (docs/exceptions.md): why, from the short list, and for how long
 * (at most `maxDays`). While it holds and their facts stay the same, audits leave them alone.
 */
function exceptionInputs(maxDays: number): InputBlock[] {
  const options = Object.entries(EXCEPTION_REASONS).map(([value, r]) => ({
    text: plain(r.label[0]!.toUpperCase() + r.label.slice(1)),
    description: plain(truncate(r.description, 75)),
    value,
  }));
  return [
    {
      type: "input",
      block_id: INPUTS.exceptionReason.block,
      label: plain("Why keep them?"),
      hint: plain("Later audits leave them alone for this check while their home or shift stays the same."),
      element: { type: "static_select", action_id: INPUTS.exceptionReason.action, options },
    },
    {
      type: "input",
      block_id: INPUTS.exceptionDays.block,
      optional: true,
      label: plain("For how many days?"),
      hint: plain(`At most ${maxDays}; ${maxDays} when left empty.`),
      element: {
        type: "number_input",
        action_id: INPUTS.exceptionDays.action,
        is_decimal_allowed: false,
        min_value: "1",
        max_value: String(maxDays),
      },
    },
  ];
}

type ViewValues = Record<string, Record<string, { value?: string | null; selected_option?: { value: string } | null }>>;

/** The exception a submitted form asks for, with `note` as its free text; a string says what is wrong. */
export function readExceptionChoice(values: ViewValues, note: string, maxDays: number): ExceptionChoice | string {
  const reason = values[INPUTS.exceptionReason.block]?.[INPUTS.exceptionReason.action]?.selected_option?.value ?? "";
  if (!isExceptionReason(reason)) return "Choose why the rider is kept.";
  const typed = values[INPUTS.exceptionDays.block]?.[INPUTS.exceptionDays.action]?.value?.trim() ?? "";
  if (!typed) return { reason, note };
  const days = Number(typed);
  if (!Number.isInteger(days) || days < 1 || days > maxDays) return `A whole number of days from 1 to ${maxDays}.`;
  return { reason, note, days };
}

/** The unredacted reply, for an approver only (the card in the channel shows it redacted). */
export function fullReplyModal(input: { rider: string; at: Date; body: string; caseId: string }): ModalView {
  const chunks = input.body.match(/[\s\S]{1,2900}/g) ?? ["(empty)"];
  return {
    type: "modal",
    title: plain(FULL_REPLY_TITLE),
    close: plain("Close"),
    blocks: [
      context(`${escapeMrkdwn(input.rider)} wrote ${slackDate(input.at)} · ${input.caseId} · shown only to you`),
      ...chunks.slice(0, 30).map((chunk) => section(escapeMrkdwn(chunk))),
    ],
  };
}

/** Closing a "needs a person" case: the reason is required and recorded. */
export function closeResolvedModal(record: CaseRecord, maxDays: number): ModalView {
  return keepModal({
    callbackId: VIEW_CALLBACKS.closeResolved,
    metadata: record.case_id,
    title: CLOSE_RESOLVED_TITLE,
    submit: "Close case",
    intro: `${record.case_id} · ${record.vanpool_id}: no rider is removed; the case closes with your reason, and riders still flagged are kept with an exception.`,
    reasonLabel: "Why is this resolved?",
    maxDays,
  });
}

/** A person's email to one flagged rider: it becomes a draft on an approval card, sent only once approved. */
export function emailRiderModal(
  record: CaseRecord,
  riders: { employee_id: string; first_name: string | null }[],
): ModalView {
  const options = riders.map((r) => ({ text: plain(riderName(r.employee_id, r.first_name)), value: r.employee_id }));
  return {
    type: "modal",
    callback_id: VIEW_CALLBACKS.emailRider,
    private_metadata: record.case_id,
    title: plain(EMAIL_RIDER_TITLE),
    submit: plain("Draft for approval"),
    close: plain("Cancel"),
    blocks: [
      context(`${record.case_id} · ${record.vanpool_id}: nothing is sent until an approver approves the draft.`),
      {
        type: "input",
        block_id: INPUTS.rider.block,
        label: plain("Rider"),
        element: {
          type: "static_select",
          action_id: INPUTS.rider.action,
          options,
          ...(options.length === 1 ? { initial_option: options[0] } : {}),
        },
      },
      emailTextInput(
        `Hello,\n\nWe are reviewing your membership of vanpool ${record.vanpool_id} and need your help to finish: \n\nThank you,\nThe vanpool program team`,
      ),
    ],
  };
}

/** The email an approver writes or rewrites, at least 20 characters. */
function emailTextInput(initialValue: string): InputBlock {
  return {
    type: "input",
    block_id: INPUTS.body.block,
    label: plain("Email text"),
    element: {
      type: "plain_text_input",
      action_id: INPUTS.body.action,
      multiline: true,
      min_length: 20,
      initial_value: initialValue,
    },
  };
}
