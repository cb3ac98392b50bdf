// A rider's earlier cases in Slack's words, shown on a new case's alert and cancellation card: how each ended
// for them, who kept them and until when, whether they escalated, and their last reply (redacted, short).
import type { EarlierCase } from "../../data/rider-history-repository.js";
import { STATUS_LABEL } from "../../domain/case-lifecycle.js";
import { keptInWords } from "../../domain/exceptions.js";
import { redactFinding } from "../../domain/redaction.js";
import { deciderWords } from "./exceptions.js";
import { BUCKET_WORDS, escapeMrkdwn, slackDate, truncate } from "./format.js";

const OUTCOME_WORDS: Record<string, string> = {
  removed: "removed from the van",
  reinstated: "removed, then reinstated (undone)",
  kept: "kept by a person",
  kept_passes: "not removed (passed the re-check)",
};

/**
 * One line per earlier case of a rider: "CASE-… on VP-111, opened Oct 3: cancelled on Oct 12; removed, then
 * reinstated; …". Dates are Slack's date tokens (each reader's own time zone) unless `date` writes them.
 */
export function earlierCaseLines(
  earlier: readonly EarlierCase[],
  date: (at: Date) => string = (at) => slackDate(at, "{date_short}"),
): string[] {
  return earlier.map(({ record, rider_outcome, exceptions, escalated, last_reply }) => {
    const parts = [
      `${record.case_id} on ${record.vanpool_id}, opened ${date(record.created_at)}: ${(STATUS_LABEL[record.status] ?? record.status).toLowerCase()}${record.resolved_at ? ` on ${date(record.resolved_at)}` : ""}`,
      ...(rider_outcome ? [OUTCOME_WORDS[rider_outcome] ?? rider_outcome] : []),
      ...exceptions.map(
        (e) =>
          `${keptInWords(e, deciderWords(e.granted_by), date(e.expires_at))}${e.revoked_at ? ", since revoked" : ""}`,
      ),
      ...(escalated ? ["escalated to a person"] : []),
      last_reply
        ? `last reply ${date(last_reply.at)}${last_reply.bucket ? `, read as ${BUCKET_WORDS[last_reply.bucket as keyof typeof BUCKET_WORDS] ?? "a reply"}` : ""}: “${escapeMrkdwn(truncate(redactFinding(last_reply.text).replace(/\s+/g, " ").trim(), 140))}”`
        : "no reply",
    ];
    return `• ${parts.join("; ")}`;
  });
}

/** The "Flagged before" lines of every rider who has earlier cases, under each rider's name. */
export function flaggedBeforeText(
  history: ReadonlyMap<string, readonly EarlierCase[]>,
  label: (employeeId: string) => string,
): string {
  return [...history.entries()]
    .map(([employeeId, earlier]) => `${label(employeeId)}\n${earlierCaseLines(earlier).join("\n")}`)
    .join("\n");
}
