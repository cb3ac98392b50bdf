// The case alert in the audit channel: what failed, the key evidence, confidence,
// status and what happens next. Its thread is where the case is discussed.
import type { CaseRecord } from "../../data/case-repository.js";
import { replyDeadline } from "../../domain/case-lifecycle.js";
import type { EvidenceItem, SpecialistResult } from "../../domain/specialist-result.js";
import {
  band,
  bandMiles,
  button,
  context,
  divider,
  fields,
  header,
  homeLabel,
  type SlackMessage,
  STATUS_LABEL,
  section,
  slackDate,
} from "./format.js";

export type LatestResults = Partial<
  Record<
    "location" | "shift",
    Pick<SpecialistResult, "verdict" | "confidence" | "reasoning" | "evidence" | "flagged" | "policy">
  >
>;

export interface CaseAlertInput {
  record: CaseRecord;
  vanpoolName: string | null;
  results: LatestResults;
}

export const CASE_ACTIONS = { viewEvidence: "view_evidence", reaudit: "reaudit" } as const;

export function caseAlert({ record, vanpoolName, results }: CaseAlertInput): SlackMessage {
  const van = vanpoolName ? `${record.vanpool_id} ${vanpoolName}` : record.vanpool_id;
  const failed = record.failed_checks.length ? record.failed_checks.join(" and ") : "no check (missing data)";
  const title =
    record.reason === "inconclusive" ? `${van}: needs a person (data missing)` : `${van}: ${failed} check failed`;
  const confidence = Math.min(
    ...(["location", "shift"] as const).filter((c) => results[c]).map((c) => results[c]!.confidence),
  );
  const blocks = [
    header(`${record.status === "resolved" ? "✅" : record.status === "cancelled" ? "⛔" : "🚩"} ${title}`),
    fields([
      `*Case*\n${record.case_id}`,
      `*Status*\n${STATUS_LABEL[record.status] ?? record.status}`,
      `*Flagged riders*\n${record.flagged.join(", ") || "none"}`,
      `*Confidence*\n${Number.isFinite(confidence) ? `${confidence}/5` : "n/a"}`,
    ]),
    ...(["location", "shift"] as const).flatMap((check) => {
      const result = results[check];
      if (!result || result.verdict === "pass") return [];
      return [
        section(
          `*${check === "location" ? "📍 Location" : "🕒 Shift"}: ${result.verdict}*\n${keyEvidence(check, result).join("\n") || bandMiles(result.reasoning)}`,
        ),
      ];
    }),
    context(nextStep(record)),
    divider,
    {
      type: "actions",
      elements: [
        button("View evidence", CASE_ACTIONS.viewEvidence, record.case_id),
        button("Re-audit", CASE_ACTIONS.reaudit, record.case_id),
      ],
    },
  ];
  return { text: `${title} (${record.case_id}, ${STATUS_LABEL[record.status] ?? record.status})`, blocks };
}

function keyEvidence(check: "location" | "shift", result: NonNullable<LatestResults["location"]>): string[] {
  const concerned = new Set(result.verdict === "fail" ? result.flagged : riderIdsUndecided(result.evidence));
  if (check === "location") {
    const threshold = result.policy.max_distance_miles;
    return result.evidence
      .filter((e) => e.type === "employee_profile" && concerned.has(String(e.employee_id)))
      .map((profile) => {
        const distance = result.evidence.find(
          (e) => e.type === "distance_check" && e.employee_id === profile.employee_id,
        );
        const miles = distance?.distance_miles as number | null | undefined;
        return `• ${profile.employee_id} · ${homeLabel(profile.home_city as string | null, profile.home_zip as string | null)} · ${miles === null || miles === undefined ? "cannot be located" : `${band(miles)} from the pickup`} (limit ${threshold} mi)`;
      });
  }
  const reference = result.evidence.find((e) => e.type === "shift_reference");
  return result.evidence
    .filter((e) => e.type === "employee_shift" && concerned.has(String(e.employee_id)))
    .map((e) =>
      e.days
        ? `• ${e.employee_id} · ${e.shift_name} ${e.schedule} vs van ${reference?.description ?? "?"} · ${e.compatible_days}/${e.operating_days} days`
        : `• ${e.employee_id} · no shift on record`,
    );
}

function riderIdsUndecided(evidence: EvidenceItem[]): string[] {
  return evidence.filter((e) => e.verdict === "inconclusive" && e.employee_id).map((e) => String(e.employee_id));
}

function nextStep(record: CaseRecord): string {
  switch (record.status) {
    case "pending_reply":
      return record.last_outbound_at
        ? `Next: riders were emailed; if no one replies by ${slackDate(replyDeadline(record.last_outbound_at))}, Pool Patrol re-audits and may ask to cancel.`
        : "Next: waiting for riders to reply.";
    case "hitl_review":
      return `Next: a person needs to look at this case${typeof record.meta.attention === "string" ? ` (${record.meta.attention})` : ""} (see the thread).`;
    case "pre_cancel":
      return "Next: a cancellation is waiting for an approver (see the thread).";
    case "resolved":
      return `Closed: resolved${record.resolved_at ? ` ${slackDate(record.resolved_at)}` : ""}.`;
    case "cancelled":
      return `Closed: membership cancelled${record.resolved_at ? ` ${slackDate(record.resolved_at)}` : ""}.`;
    default:
      return `Status: ${record.status}.`;
  }
}
