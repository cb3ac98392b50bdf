import type { AgentDeps } from "../agents/deps.js";
import { type ApprovalRecord, listRiderDecisions } from "../data/approval-repository.js";
import { getCase } from "../data/case-repository.js";
import { employeeIdsFor, findMessageByKey } from "../data/email-repository.js";
import { STATUS_LABEL } from "../domain/case-lifecycle.js";

export async function decisionOutcome(deps: Pick<AgentDeps, "prisma">, approval: ApprovalRecord): Promise<string> {
  const record = await getCase(deps.prisma, approval.case_id);
  const status = STATUS_LABEL[record.status] ?? record.status;
  if (approval.kind === "escalation_reply") {
    if (approval.status === "rejected") return `Nothing was sent; ${record.case_id} is ${status}.`;
    const sent = await findMessageByKey(deps.prisma, `approval:${approval.approval_id}`);
    if (!sent || sent.status === "failed")
      return `The approved email could not be sent; a person must look at it. ${record.case_id} is ${status}.`;
    const riders = (await employeeIdsFor(deps.prisma, sent.to)).join(", ") || "the rider";
    return sent.status === "sent"
      ? `Email sent to ${riders}; ${record.case_id} is back to ${status}.`
      : `The email to ${riders} is queued and goes out in a moment; ${record.case_id} is back to ${status}.`;
  }
  const decisions = await listRiderDecisions(deps.prisma, approval.approval_id);
  const said = (outcome: string) => decisions.filter((d) => d.outcome === outcome).map((d) => d.employee_id);
  const [removed, kept, passing] = [said("removed"), said("kept"), said("kept_passes")];
  return [
    removed.length ? `${removed.join(", ")} removed from ${record.vanpool_id}.` : "No one was removed.",
    kept.length ? `${kept.join(", ")} kept.` : "",
    passing.length
      ? `${passing.join(", ")} not removed: the checks were run again just before and ${passing.length === 1 ? "this rider passes" : "these riders pass"} now.`
      : "",
    `${record.case_id} is ${status}${approval.status === "rejected" && !decisions.length ? " with the override recorded" : ""}.`,
  ]
    .filter(Boolean)
    .join(" ");
}
