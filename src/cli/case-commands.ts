// Read-only commands: `cases`, `case show` and `approvals` (the database only, no agents).

import { loadSettings, withDatabase } from "../app/context.js";
import { type ApprovalRecord, listApprovals } from "../data/approval-repository.js";
import { eventsFor } from "../data/audit-log.js";
import { type CaseRecord, getCase, listCases } from "../data/case-repository.js";
import { findThreadForCase } from "../data/email-repository.js";
import type { PrismaClient } from "../data/prisma.js";
import { findLatestResults } from "../data/verification-repository.js";
import { CASE_STATUSES, type CaseStatus, isCaseStatus, replyDeadline } from "../domain/case-lifecycle.js";
import { isId } from "../domain/ids.js";
import { CHECK_KINDS } from "../domain/specialist-result.js";
import { invalidInput } from "../errors.js";
import { out, UsageError } from "./command-kit.js";
import { verdictLabel } from "./format.js";

export function parseStatus(value: string | undefined): CaseStatus | undefined {
  if (value === undefined) return undefined;
  if (!isCaseStatus(value)) throw invalidInput(`Unknown status "${value}"; use one of ${CASE_STATUSES.join(", ")}.`);
  return value;
}

export function formatCaseLine(c: CaseRecord): string {
  return `${c.case_id}  ${c.vanpool_id.padEnd(8)} ${c.status.padEnd(14)} ${c.reason.padEnd(18)} ${c.flagged.join(",").padEnd(20)} updated ${c.updated_at.toISOString().slice(0, 16).replace("T", " ")}`;
}

export function formatApprovalLine(a: ApprovalRecord, now: Date): string {
  const hours = Math.round((now.getTime() - a.created_at.getTime()) / 3_600_000);
  const what =
    a.kind === "cancellation"
      ? `remove ${(a.payload.employee_ids as string[]).join(", ")}`
      : `reply to ${String(a.payload.to)}`;
  // A request opened by `tick --now` in the future has no waiting time yet.
  const since = `since ${a.created_at.toISOString().slice(0, 16).replace("T", " ")}`;
  return `${a.approval_id}  ${a.kind.padEnd(17)} ${a.case_id}  ${what}  (waiting ${hours >= 0 ? `${hours} h, ` : ""}${since})`;
}

export async function showCase(prisma: PrismaClient, caseId: string): Promise<string> {
  const record = await getCase(prisma, caseId);
  const [results, thread, approvals] = await Promise.all([
    findLatestResults(prisma, record.vanpool_id),
    findThreadForCase(prisma, caseId),
    listApprovals(prisma, { caseId }),
  ]);
  const events = await eventsFor(prisma, [caseId]);
  const lines = [
    `${record.case_id}  ${record.vanpool_id}  ${record.status}${record.outcome ? ` (${record.outcome})` : ""}`,
    `  reason ${record.reason}; failed checks ${record.failed_checks.join(", ") || "none"}; flagged ${record.flagged.join(", ") || "none"}; re-audits ${record.re_audit_count}`,
    ...(record.status === "pending_reply" && record.last_outbound_at
      ? [`  waiting for replies until ${replyDeadline(record.last_outbound_at).toISOString()}`]
      : []),
    "",
    "Evidence (latest results):",
    ...CHECK_KINDS.flatMap((check) => {
      const r = results[check];
      return r
        ? [
            `  ${check}: ${verdictLabel(r.verdict)} (confidence ${r.confidence}/5, ${r.model}, ${r.finished_at.toISOString().slice(0, 10)})`,
            `    ${r.reasoning}`,
          ]
        : [`  ${check}: not run`];
    }),
    "",
    "Emails:",
    ...(thread?.messages.map(
      (m) =>
        `  ${m.at.toISOString().slice(0, 16).replace("T", " ")}  ${m.direction === "outbound" ? "->" : "<-"} ${m.direction === "outbound" ? m.to.join(", ") : m.from}  ${m.message_id} ${m.status}${m.bucket ? ` [${m.bucket} ${m.confidence?.toFixed(2)}]` : ""}\n      ${
          m.body
            .split("\n")
            .find((l) => l.trim() && !/^hi /i.test(l))
            ?.slice(0, 110) ?? ""
        }`,
    ) ?? ["  none"]),
    "",
    "Approvals:",
    ...(approvals.length
      ? approvals.map(
          (a) =>
            `  ${a.approval_id} ${a.kind} ${a.status}${a.decided_by ? ` by ${a.decided_by} at ${a.decided_at?.toISOString()}` : ""}${a.decision_reason ? ` (${a.decision_reason})` : ""}${a.result_note ? ` -> ${a.result_note}` : ""}`,
        )
      : ["  none"]),
    "",
    "Timeline:",
    ...events.map(
      (e) =>
        `  ${e.at.toISOString().slice(0, 16).replace("T", " ")}  ${e.actor.padEnd(22)} ${e.action}${eventDetail(e.details)}`,
    ),
  ];
  return lines.join("\n");
}

export async function listCasesText(prisma: PrismaClient, status?: CaseStatus): Promise<string> {
  const cases = await listCases(prisma, { status });
  return cases.length ? cases.map(formatCaseLine).join("\n") : `No cases${status ? ` in ${status}` : ""}.`;
}

export async function listApprovalsText(prisma: PrismaClient, now: Date): Promise<string> {
  const pending = await listApprovals(prisma, { status: "pending" });
  return pending.length ? pending.map((a) => formatApprovalLine(a, now)).join("\n") : "No approvals waiting.";
}

function eventDetail(details: Record<string, unknown>): string {
  if (details.why) return `: ${String(details.why)}`;
  if (details.message_id && details.bucket)
    return `: ${String(details.message_id)} is ${String(details.bucket)} (${Number(details.confidence).toFixed(2)})`;
  if (details.message_id && Array.isArray(details.to))
    return `: ${String(details.message_id)} to ${details.to.join(", ")}`;
  if (details.approval_id)
    return `: ${String(details.approval_id)}${details.kind ? ` (${String(details.kind)})` : ""}${details.reason ? `: ${String(details.reason)}` : ""}`;
  if (details.employee_id) return `: ${String(details.employee_id)}`;
  return "";
}

export async function casesCommand(options: { status?: string }): Promise<void> {
  const status = parseStatus(options.status);
  await withDatabase(loadSettings(), async (db) => out(`${await listCasesText(db.prisma, status)}\n`));
}

export async function showCaseCommand(value: string): Promise<void> {
  const caseId = value.toUpperCase();
  if (!isId("case", caseId)) throw new UsageError(`"${value}" is not a case id; they look like CASE-1A2B3C4D5E6F7A8B.`);
  await withDatabase(loadSettings(), async (db) => out(`${await showCase(db.prisma, caseId)}\n`));
}

export async function approvalsCommand(): Promise<void> {
  await withDatabase(loadSettings(), async (db) => out(`${await listApprovalsText(db.prisma, new Date())}\n`));
}
