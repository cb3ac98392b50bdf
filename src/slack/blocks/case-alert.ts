// The case alert in the audit channel: what failed, the key evidence, confidence,
// status and what happens next. Its thread is where the case is discussed.

import type { KnownBlock } from "@slack/types";
import type { EarlierException } from "../../data/case-card-repository.js";
import type { CaseRecord } from "../../data/case-repository.js";
import type { EarlierCase } from "../../data/rider-history-repository.js";
import { isClosed, MAX_RE_AUDITS, replyDeadline } from "../../domain/case-lifecycle.js";
import { lapsedInWords } from "../../domain/exceptions.js";
import { CHECK_ICONS, CHECK_KINDS, CHECK_TITLES } from "../../domain/specialist-result.js";
import { keptLine } from "./exceptions.js";
import {
  actions,
  button,
  context,
  divider,
  escapeMrkdwn,
  fields,
  findingText,
  header,
  riderName,
  type SlackMessage,
  STATUS_LABEL,
  section,
  slackDate,
} from "./format.js";
import { concernedRiders, failedConfidence, type LatestResults, riderLine } from "./rider-evidence.js";
import { flaggedBeforeText } from "./rider-history.js";

export type { LatestResults } from "./rider-evidence.js";

export interface CaseAlertInput {
  record: CaseRecord;
  vanpoolName: string | null;
  /** The evidence the case stands on (for a closed case: what it was decided on). */
  results: LatestResults;
  /** First names by employee id, to show riders as "EMP-1001 (Dana)". */
  firstNames?: Record<string, string>;
  /** Since when the case has been in its status (how long a person has been awaited). */
  statusSince?: Date;
  /** Earlier exceptions of its flagged riders that no longer hold (docs/exceptions.md). */
  earlierExceptions?: EarlierException[];
  /** Earlier cases of its flagged riders, by employee id (rider-history-repository.ts). */
  earlierCases?: ReadonlyMap<string, readonly EarlierCase[]>;
  /** The case's web page (`/web/cases/{id}`), linked under the buttons. */
  pageUrl?: string;
}

export const CASE_ACTIONS = {
  viewEvidence: "view_evidence",
  reaudit: "reaudit",
  closeResolved: "close_resolved",
  emailRider: "email_rider",
} as const;

/** What the alert says for confidence when no check failed or none is stored yet. */
function confidenceWords(confidence: number | null, results: LatestResults): string {
  if (confidence !== null) return `${confidence}/5`;
  return results.location || results.shift ? "every check passes now" : "not recorded";
}

export function caseAlert({
  record,
  vanpoolName,
  results,
  firstNames = {},
  statusSince,
  earlierExceptions = [],
  earlierCases = new Map(),
  pageUrl,
}: CaseAlertInput): SlackMessage {
  const van = vanpoolName ? `${record.vanpool_id} ${vanpoolName}` : record.vanpool_id;
  const failed = record.failed_checks.length ? record.failed_checks.join(" and ") : "no check (missing data)";
  const closed = isClosed(record.status);
  // A closed case needs no one: its title says what it was about, never "needs a person".
  const title =
    record.reason !== "inconclusive"
      ? `${van}: ${failed} check failed`
      : closed
        ? `${van}: could not be checked (data missing)`
        : `${van}: needs a person (data missing)`;
  const confidence = failedConfidence(results);
  const needsPerson = record.status === "hitl_review";
  const blocks: KnownBlock[] = [
    header(`${record.status === "resolved" ? "✅" : record.status === "cancelled" ? "⛔" : "🚩"} ${title}`),
    fields([
      `*Case*\n${record.case_id}`,
      `*Status*\n${STATUS_LABEL[record.status] ?? record.status}`,
      `*Flagged riders*\n${record.flagged.map((id) => riderName(id, firstNames[id])).join(", ") || "none"}`,
      `*Confidence of the failed ${record.failed_checks.length > 1 ? "checks" : "check"}*\n${confidenceWords(confidence, results)}`,
    ]),
    ...CHECK_KINDS.flatMap((check) => {
      const result = results[check];
      if (!result || result.verdict === "pass") return [];
      const lines = concernedRiders(result).flatMap((id) => {
        const line = riderLine(check, result, id);
        // A rider failing the check whom the case does not flag is covered by an exception that still holds.
        const kept = result.verdict === "fail" && !record.flagged.includes(id) ? " · kept by an exception" : "";
        return line ? [`• ${riderName(id, firstNames[id])} · ${line}${kept}`] : [];
      });
      const verdict = result.verdict === "fail" ? "failed" : "could not decide";
      return [
        section(
          `*${CHECK_ICONS[check]} ${CHECK_TITLES[check]}: ${verdict}*\n${lines.join("\n") || escapeMrkdwn(findingText(result))}`,
        ),
      ];
    }),
    ...(earlierExceptions.length
      ? [
          section(
            `*Kept before*\n${earlierExceptions
              .map((e) => `• ${keptLine(e.exception)}; ${lapsedInWords(e.lapsed, e.exception.check)}.`)
              .join("\n")}`,
          ),
        ]
      : []),
    ...(earlierCases.size
      ? [section(`*Flagged before*\n${flaggedBeforeText(earlierCases, (id) => riderName(id, firstNames[id]))}`)]
      : []),
    ...(needsPerson ? [section(`*What to decide*\n${hitlQuestion(record)}`)] : []),
    context(nextStep(record, statusSince ?? record.updated_at)),
    divider,
    actions([
      button("View evidence", CASE_ACTIONS.viewEvidence, record.case_id),
      ...(closed
        ? []
        : [button(needsPerson ? "Re-audit (data fixed)" : "Re-audit", CASE_ACTIONS.reaudit, record.case_id)]),
      ...(needsPerson
        ? [
            ...(record.flagged.length ? [button("Email a rider…", CASE_ACTIONS.emailRider, record.case_id)] : []),
            button("Close as resolved…", CASE_ACTIONS.closeResolved, record.case_id),
          ]
        : []),
    ]),
    ...(pageUrl
      ? [context(`<${pageUrl}|Open the case page> for the whole record: evidence, timeline, emails and decisions.`)]
      : []),
  ];
  return { text: `${title} (${record.case_id}, ${STATUS_LABEL[record.status] ?? record.status})`, blocks };
}

/** What the person looking at a "needs a person" case must decide. */
export function hitlQuestion(record: CaseRecord): string {
  if (record.meta.cancellation_undone)
    return `The cancellation was undone and ${record.flagged.join(", ") || "its riders"} reinstated: decide again. Keep them (Close as resolved…, with why: later audits then leave them alone while their facts stay the same), or write to them again (Email a rider…): if they still fail at the reply deadline, their removal is proposed again.`;
  if (record.reason === "inconclusive" || record.failed_checks.length === 0)
    return "Some riders could not be checked because data is missing (a home location or a shift). Fix the data and press Re-audit, or Close as resolved with a reason.";
  if (record.meta.last_rejected_draft || /review/i.test(record.details))
    return "A rider's reply needs an answer: approve, edit or reject the drafted email in this thread.";
  return `The ${record.failed_checks.join(" and ")} check still fails and Pool Patrol does not decide this alone. Decide whether the data is wrong (fix it and press Re-audit), the rider should be written to again (Email a rider), or the case can be closed (Close as resolved, with a reason).`;
}

/** How many re-audits counted, and when a reply's re-audit on unchanged data counts again (docs/case-lifecycle.md). */
function reAuditPace(record: CaseRecord): string {
  if (!record.re_audit_counts_from) return "";
  return ` Re-audits counted: ${record.re_audit_count} of ${MAX_RE_AUDITS}; the next counts from ${slackDate(record.re_audit_counts_from)}, or at once if the data changed (a reply before then is still re-checked).`;
}

function nextStep(record: CaseRecord, since: Date): string {
  switch (record.status) {
    case "pending_reply":
      return `${
        record.last_outbound_at
          ? `Next: riders were emailed; if no one replies by ${slackDate(replyDeadline(record.last_outbound_at))}, Pool Patrol re-audits and may ask to cancel.`
          : "Next: waiting for riders to reply."
      }${reAuditPace(record)}`;
    case "hitl_review":
      return `Next: a person needs to look at this case${typeof record.meta.attention === "string" ? ` (${record.meta.attention})` : ""}. Waiting since ${slackDate(since)}.`;
    case "pre_cancel":
      return "Next: a cancellation is waiting for an approver (see the card in this thread).";
    case "resolved":
      return `Closed: resolved${record.resolved_at ? ` ${slackDate(record.resolved_at)}` : ""}. A new audit of ${record.vanpool_id} opens a new case if needed.`;
    case "cancelled":
      return `Closed: membership cancelled${record.resolved_at ? ` ${slackDate(record.resolved_at)}` : ""}. A new audit of ${record.vanpool_id} opens a new case if needed.`;
    default:
      return `Status: ${STATUS_LABEL[record.status] ?? record.status}.`;
  }
}
