// The case register as a CSV file: one row per case and rider, people by name, dates in the program's
// time zone. Pure: the names of the people who decided are looked up by the caller.
import { stringify } from "csv-stringify/sync";
import { DateTime } from "luxon";
import { type CaseReason, type CaseStatus, STATUS_LABEL } from "./case-lifecycle.js";
import { EXCEPTION_REASONS, isExceptionReason } from "./exceptions.js";

export interface RegisterEntry {
  case_id: string;
  vanpool_id: string;
  status: CaseStatus;
  case_reason: CaseReason;
  employee_id: string | null;
  first_name: string | null;
  last_name: string | null;
  /** The checks that flagged this rider (the case's failed checks when no result names them). */
  checks: string[];
  opened_at: Date;
  closed_at: Date | null;
  /** removed | kept | reinstated from the rider's decision on a cancellation; null when none was made. */
  rider_decision: "removed" | "kept" | "reinstated" | null;
  /** Who decided: a Slack user id, a command-line name, or "system"; null when no person did. */
  decided_by: string | null;
  /** Why: the exception's reason key, the decision's reason, or the case's closing note. */
  exception_reason: string | null;
  decision_reason: string | null;
  close_note: string | null;
}

export const REGISTER_COLUMNS = [
  "case",
  "vanpool",
  "rider id",
  "rider name",
  "check",
  "opened",
  "closed",
  "outcome",
  "decided by",
  "reason",
];

/** A Slack user id as decisions record it ("U0ALICE"), alone or inside a note. */
const SLACK_USER_ID = /\b[UW][0-9][A-Z0-9]{2,}\b/g;

/** The Slack users the register names (deciders, and ids written in notes): the caller looks up their names. */
export function registerSlackUsers(entries: RegisterEntry[]): string[] {
  const texts = entries.flatMap((e) => [e.decided_by, e.decision_reason, e.close_note]);
  return [...new Set(texts.flatMap((t) => (t ? [...t.matchAll(SLACK_USER_ID)].map((m) => m[0]) : [])))];
}

const OUTCOME = { removed: "removed from the vanpool", kept: "kept", reinstated: "reinstated (removal undone)" };

function outcome(e: RegisterEntry): string {
  if (e.rider_decision) return OUTCOME[e.rider_decision];
  if (e.status === "resolved" || e.status === "cancelled") return e.status;
  return `open: ${STATUS_LABEL[e.status]?.toLowerCase() ?? "in progress"}`;
}

/** `names` maps Slack user ids to display names; other deciders (command-line names) are written as recorded. */
export function registerCsv(
  entries: RegisterEntry[],
  options: { timeZone: string; names: Map<string, string> },
): string {
  const named = (text: string) => text.replace(SLACK_USER_ID, (id) => options.names.get(id) ?? "a Slack user");
  const when = (date: Date | null) =>
    date ? DateTime.fromJSDate(date, { zone: options.timeZone }).toFormat("yyyy-LL-dd HH:mm") : "";
  const closedByPoolPatrol = (e: RegisterEntry) => e.closed_at !== null && !e.decided_by;
  const rows = entries.map((e) => [
    e.case_id,
    e.vanpool_id,
    e.employee_id ?? "",
    [e.first_name, e.last_name].filter(Boolean).join(" "),
    e.checks.join(" and "),
    when(e.opened_at),
    when(e.closed_at),
    outcome(e),
    e.decided_by === "system" || closedByPoolPatrol(e) ? "Pool Patrol" : e.decided_by ? named(e.decided_by) : "",
    e.exception_reason && isExceptionReason(e.exception_reason)
      ? `exception: ${EXCEPTION_REASONS[e.exception_reason].label}`
      : named(e.decision_reason ?? e.close_note ?? ""),
  ]);
  return stringify([REGISTER_COLUMNS, ...rows]);
}
