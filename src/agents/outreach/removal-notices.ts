// The removal notice: once a person approved a cancellation and the riders were
// removed, each removed rider is told why (their own facts) and how to appeal, as the
// program policy promises; a rider who no longer works here is not. Keyed per case and rider, so it goes once however often it runs.

import { getCase } from "../../data/case-repository.js";
import { findEmployeeContacts } from "../../data/employee-repository.js";
import { findVanpoolSnapshot } from "../../data/vanpool-repository.js";
import { findLatestResults } from "../../data/verification-repository.js";
import { notFound } from "../../errors.js";
import { emailServiceDeps, sendCaseEmail } from "../../integrations/email/email-service.js";
import type { AgentDeps } from "../deps.js";
import { loadPolicy } from "./policy.js";
import { riderFacts } from "./rider-facts.js";
import { ownFailingResults } from "./run-outreach.js";
import { removalNoticeEmail } from "./templates.js";

const appeals =
  loadPolicy().find((s) => s.heading === "Appeals")?.text ??
  "reply to this email within 14 days and a member of the program team will review the decision.";

export function removalNoticeKey(caseId: string, employeeId: string): string {
  return `${caseId}:removal_notice:${employeeId}`;
}

export async function sendRemovalNotices(
  deps: Pick<AgentDeps, "now" | "prisma" | "sender" | "settings">,
  input: { caseId: string; employeeIds: readonly string[]; actor: string },
): Promise<{ message_id: string; employee_id: string; already_sent: boolean }[]> {
  const record = await getCase(deps.prisma, input.caseId);
  const van = await findVanpoolSnapshot(deps.prisma, record.vanpool_id);
  if (!van) throw notFound(`No vanpool ${record.vanpool_id}.`);
  const results = await findLatestResults(deps.prisma, record.vanpool_id);
  const sent = [];
  // Someone who no longer works here is never written to at their work address (docs/verification-policy.md).
  const departed = new Set(results.employment?.verdict === "fail" ? results.employment.flagged : []);
  for (const rider of await findEmployeeContacts(deps.prisma, input.employeeIds)) {
    if (departed.has(rider.id)) continue;
    const facts = riderFacts(
      van,
      { employee_id: rider.id, first_name: rider.firstName },
      ownFailingResults(rider.id, record.failed_checks, results),
    );
    const draft = removalNoticeEmail(facts, appeals);
    const { message, alreadySent } = await sendCaseEmail(emailServiceDeps(deps), {
      caseId: record.case_id,
      vanpoolId: record.vanpool_id,
      to: [rider.email],
      subject: draft.subject,
      body: draft.body,
      idempotencyKey: removalNoticeKey(record.case_id, rider.id),
      actor: input.actor,
      now: deps.now(),
    });
    sent.push({ message_id: message.message_id, employee_id: rider.id, already_sent: alreadySent });
  }
  return sent;
}
