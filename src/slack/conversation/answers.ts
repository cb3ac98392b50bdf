// Answers to case-thread questions, from stored evidence, emails and the audit trail,
// each citing where it comes from. Nothing here re-audits.

import { eventsFor } from "../../data/audit-log.js";
import type { CaseRecord } from "../../data/case-repository.js";
import { findThreadForCase } from "../../data/email-repository.js";
import type { PrismaClient } from "../../data/prisma.js";
import { findLatestResults } from "../../data/verification-repository.js";
import { band, bandMiles, escapeMrkdwn, homeLabel, STATUS_LABEL, slackDate, truncate } from "../blocks/format.js";
import { redactReply } from "../blocks/redact.js";
import { trailSentence } from "../blocks/trail.js";
import type { Understanding } from "./intent.js";

export async function answer(
  prisma: PrismaClient,
  record: CaseRecord,
  question: Understanding,
  mentionedBefore: string[],
): Promise<string> {
  const results = await findLatestResults(prisma, record.vanpool_id);
  const rider = pickRider(record, question, mentionedBefore);
  switch (question.intent) {
    case "why_failed": {
      const checks = question.check
        ? [question.check]
        : (["location", "shift"] as const).filter((c) => results[c] && results[c]!.verdict !== "pass");
      if (checks.length === 0) return `${record.case_id} has no failing check in the latest results.`;
      return checks
        .map((c) => {
          const r = results[c];
          if (!r) return `No ${c} result is stored for ${record.vanpool_id}.`;
          const riders = (rider ? [rider] : r.flagged)
            .map((id) => riderLine(c, r.evidence, id, r.policy))
            .filter(Boolean);
          // About one rider, only that rider's facts: the check's reasoning names the others.
          const summary = rider ? "" : `\n${escapeMrkdwn(bandMiles(r.reasoning))}`;
          return `*${c === "location" ? "📍 Location" : "🕒 Shift"}: ${r.verdict}* (confidence ${r.confidence}/5)${summary}${riders.length ? `\n${riders.join("\n")}` : ""}\n_Source: ${c} result of run ${r.run_id.slice(0, 8)}, ${slackDate(r.finished_at, "{date_short_pretty}")}_`;
        })
        .join("\n\n");
    }
    case "rider_said": {
      const thread = await findThreadForCase(prisma, record.case_id);
      const employees = await prisma.employee.findMany({
        where: { id: { in: record.flagged } },
        select: { id: true, email: true, firstName: true },
      });
      const target = rider ? employees.filter((e) => e.id === rider) : employees;
      const lines = target.map((e) => {
        const replies = (thread?.messages ?? []).filter(
          (m) => m.direction === "inbound" && m.from.toLowerCase() === e.email.toLowerCase(),
        );
        if (replies.length === 0) return `• ${e.id} (${e.firstName}) has not replied.`;
        const last = replies.at(-1)!;
        return `• ${e.id} (${e.firstName}) replied ${slackDate(last.at, "{date_short_pretty}")}${last.bucket ? ` (_${last.bucket}_)` : ""}:\n> ${escapeMrkdwn(
          truncate(
            redactReply(last.body)
              .split(/\n\s*\n|\nOn .*wrote:/)[0]!
              .replace(/\n/g, " "),
            400,
          ),
        )}\n_Source: ${last.message_id}_`;
      });
      return lines.length ? lines.join("\n") : `No flagged rider on ${record.case_id}.`;
    }
    case "flagged": {
      if (record.flagged.length === 0) return `${record.case_id} flags no rider (${record.reason.replace("_", " ")}).`;
      const lines = record.flagged.map(
        (id) =>
          (["location", "shift"] as const)
            .map((c) =>
              results[c] && results[c]!.flagged.includes(id)
                ? riderLine(c, results[c]!.evidence, id, results[c]!.policy)
                : "",
            )
            .filter(Boolean)
            .join("\n") || `• ${id}`,
      );
      return `${record.flagged.length} flagged rider(s) on ${record.case_id}:\n${lines.join("\n")}`;
    }
    case "status": {
      const events = (await eventsFor(prisma, [record.case_id])).slice(-6);
      return `*${record.case_id}* is ${STATUS_LABEL[record.status]}${record.outcome ? ` (${record.outcome})` : ""}; re-audits ${record.re_audit_count}.\nRecent trail:\n${events.map((e) => `• ${trailSentence(e)}`).join("\n")}\n_Source: audit trail_`;
    }
    default:
      return "";
  }
}

/** "the other rider": the flagged rider not named in the bot's earlier answers. */
function pickRider(record: CaseRecord, question: Understanding, mentionedBefore: string[]): string | undefined {
  if (question.employeeId) return question.employeeId;
  if (!question.wantsOtherRider) return undefined;
  const last = [...mentionedBefore].reverse().find((id) => record.flagged.includes(id));
  return record.flagged.find((id) => id !== last);
}

function riderLine(
  check: "location" | "shift",
  evidence: { type: string; [k: string]: unknown }[],
  id: string,
  policy: Record<string, number>,
): string {
  if (check === "location") {
    const profile = evidence.find((e) => e.type === "employee_profile" && e.employee_id === id);
    const distance = evidence.find((e) => e.type === "distance_check" && e.employee_id === id);
    if (!profile) return "";
    return `• ${id}: home ${homeLabel(profile.home_city as string | null, profile.home_zip as string | null)}, ${band(distance?.distance_miles as number | null)} from the pickup (limit ${policy.max_distance_miles} mi)`;
  }
  const shift = evidence.find((e) => e.type === "employee_shift" && e.employee_id === id);
  const reference = evidence.find((e) => e.type === "shift_reference");
  if (!shift) return "";
  return `• ${id}: ${shift.shift_name ?? "no shift"} ${shift.schedule ?? ""} vs the van's ${reference?.description ?? "?"}${shift.compatible_days !== undefined ? `, compatible ${shift.compatible_days}/${shift.operating_days} days` : ""}`;
}
