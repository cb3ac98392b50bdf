// What a person can do on a case that needs one (hitl_review): close it as resolved
// with a reason, or write to a flagged rider through a draft that waits on the usual
// approval card. Each runs under the vanpool's lease and is refused on any other status.
import { randomUUID } from "node:crypto";
import type { AgentDeps } from "../agents/deps.js";
import { type ApprovalRecord, createApproval } from "../data/approval-repository.js";
import { withLease } from "../data/case-lease.js";
import { type CaseRecord, changeCase, getCase } from "../data/case-repository.js";
import { findEmployeeContacts } from "../data/employee-repository.js";
import { STATUS_LABEL } from "../domain/case-lifecycle.js";
import { invalidInput } from "../errors.js";
import { caseJobs } from "../queue/queues.js";
import { createExceptions, type ExceptionChoice } from "./exceptions.js";

export function createPersonActions(deps: Pick<AgentDeps, "jobs" | "now" | "pool" | "prisma" | "settings">) {
  const jobs = deps.jobs ? caseJobs(deps.jobs) : undefined;
  const exceptions = createExceptions(deps);

  async function onCaseNeedingPerson<T>(caseId: string, work: (record: CaseRecord) => Promise<T>): Promise<T> {
    const { vanpool_id } = await getCase(deps.prisma, caseId);
    const result = await withLease(deps, `vanpool:${vanpool_id}`, async () => {
      const record = await getCase(deps.prisma, caseId);
      if (record.status !== "hitl_review")
        throw invalidInput(
          `${caseId} is ${STATUS_LABEL[record.status] ?? record.status} now, no longer waiting for a person. Nothing was changed.`,
        );
      return work(record);
    });
    await jobs?.syncCase(caseId);
    return result;
  }

  /**
   * Closes a case a person looked at, with their reason in the trail. The riders still flagged are kept:
   * each gets an exception (docs/exceptions.md), with `choice` when the form gave one.
   */
  function closeAsResolved(
    caseId: string,
    actor: string,
    reason: string,
    choice: ExceptionChoice = { reason: "other", note: reason },
  ): Promise<CaseRecord> {
    return onCaseNeedingPerson(caseId, async (record) => {
      await exceptions.grantForKept({
        caseId,
        employeeIds: record.flagged,
        actor,
        decision: "closed_resolved",
        choice,
      });
      return changeCase(deps.prisma, caseId, {
        status: "resolved",
        outcome: "resolved",
        why: reason,
        meta: { resolution: reason, resolved_by: actor },
        actor: `person:${actor}`,
        now: deps.now(),
      });
    });
  }

  /** A person's email to a flagged rider, held as a draft until an approver sends it. */
  function draftRiderEmail(
    caseId: string,
    actor: string,
    input: { employeeId: string; body: string },
  ): Promise<ApprovalRecord> {
    return onCaseNeedingPerson(caseId, async (record) => {
      const [rider] = record.flagged.includes(input.employeeId)
        ? await findEmployeeContacts(deps.prisma, [input.employeeId])
        : [];
      if (!rider) throw invalidInput(`${input.employeeId} is not a flagged rider on ${caseId}. Nothing was drafted.`);
      return createApproval(deps.prisma, {
        kind: "escalation_reply",
        caseId,
        payload: {
          to: rider.email,
          subject: `Your vanpool membership on ${record.vanpool_id}`,
          body: input.body,
          drafted_by: actor,
        },
        graphThreadId: `person:${caseId}`,
        interruptId: randomUUID(),
        actor: `person:${actor}`,
        now: deps.now(),
      });
    });
  }

  return { closeAsResolved, draftRiderEmail };
}

export type PersonActions = ReturnType<typeof createPersonActions>;
