// Carrying out an approved cancellation, from the agent's tool or straight from the
// recorded decision when the agent is no longer waiting (a crash after it resumed):
// the riders are removed and the case cancelled in one transaction, then each removed
// rider's notice is queued, keyed per rider. Safe to repeat at any point.

import type { ApprovalRecord } from "../../data/approval-repository.js";
import { cancelMemberships } from "../../data/cancellation-repository.js";
import type { CaseRecord } from "../../data/case-repository.js";
import type { AgentDeps } from "../deps.js";
import { sendRemovalNotices } from "../outreach/removal-notices.js";

export async function carryOutCancellation(
  deps: Pick<AgentDeps, "now" | "prisma" | "sender" | "settings">,
  input: { approval: ApprovalRecord; employeeIds: readonly string[]; reason: string; actor: string },
): Promise<{ record: CaseRecord; newlyRemoved: string[]; notices: number }> {
  const { approval } = input;
  const { record, newlyRemoved } = await cancelMemberships(deps.prisma, {
    caseId: approval.case_id,
    approvalId: approval.approval_id,
    employeeIds: input.employeeIds,
    decidedBy: approval.decided_by,
    reason: input.reason,
    actor: input.actor,
    now: deps.now(),
  });
  const notices = await sendRemovalNotices(deps, {
    caseId: approval.case_id,
    employeeIds: input.employeeIds,
    actor: `approved-by:${approval.decided_by}`,
  });
  return { record, newlyRemoved, notices: notices.length };
}
