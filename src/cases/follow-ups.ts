import type { AgentDeps } from "../agents/deps.js";
import { draftFollowUp as draftFollowUpEmail } from "../agents/outreach/run-outreach.js";
import { listApprovals } from "../data/approval-repository.js";
import { withLease } from "../data/case-lease.js";
import { getCase } from "../data/case-repository.js";
import { isClosed } from "../domain/case-lifecycle.js";
import { invalidInput } from "../errors.js";
import type { CaseManagerRunner } from "./case-manager-run.js";

export function createFollowUps(deps: AgentDeps, { changed }: Pick<CaseManagerRunner, "changed">) {
  /**
   * A follow-up to one flagged rider, asked for in conversation: drafted and held as an approval
   * request (the same card as a reply to review). A draft already waiting is returned instead.
   */
  async function draftFollowUp(
    caseId: string,
    employeeId: string,
  ): Promise<{ approval_id: string; existing: boolean }> {
    const { vanpool_id } = await getCase(deps.prisma, caseId);
    return withLease(deps, `vanpool:${vanpool_id}`, async () => {
      const record = await getCase(deps.prisma, caseId);
      if (isClosed(record.status)) throw invalidInput(`${caseId} is ${record.status}; there is no one to follow up.`);
      if (!record.flagged.includes(employeeId))
        throw invalidInput(`${employeeId} is not flagged on ${caseId}; follow-ups go only to flagged riders.`);
      const waiting = await listApprovals(deps.prisma, { caseId, status: "pending" });
      const draft = waiting.find((a) => a.kind === "escalation_reply");
      if (draft) return { approval_id: draft.approval_id, existing: true };
      const result = await draftFollowUpEmail(deps, caseId, employeeId);
      if (!result.approval_id) throw new Error(`The follow-up draft for ${employeeId} was not held for approval.`);
      await changed(caseId);
      return { approval_id: result.approval_id, existing: false };
    });
  }

  return { draftFollowUp };
}
