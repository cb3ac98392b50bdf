import { createCaseManagerAgent } from "../agents/case-manager/agent.js";
import { carryOutCancellation } from "../agents/case-manager/cancellation.js";
import type { AgentDeps } from "../agents/deps.js";
import { createOutreachAgent } from "../agents/outreach/agent.js";
import { sendRemovalNotices } from "../agents/outreach/removal-notices.js";
import { pendingInterrupts, runAgentTurn } from "../agents/run-agent.js";
import {
  type ApprovalRecord,
  type Decision,
  decisionBy,
  ensureRiderDecisions,
  getApproval,
  listRiderDecisions,
  markApplied,
  recordDecision,
  recordRiderDecision,
  setRiderOutcome,
} from "../data/approval-repository.js";
import { withLease } from "../data/case-lease.js";
import { changeCase, getCase } from "../data/case-repository.js";
import { employeeIdsFor, findMessageByKey } from "../data/email-repository.js";
import type { RiderChoice } from "../domain/rider-decisions.js";
import { invalidInput } from "../errors.js";
import { emailServiceDeps, sendCaseEmail } from "../integrations/email/email-service.js";
import { caseJobs } from "../queue/queues.js";
import type { CaseManagerRunner } from "./case-manager-run.js";
import { decisionOutcome } from "./decision-outcome.js";
import type { ExceptionChoice, Exceptions } from "./exceptions.js";
import { ridersStillFailing } from "./rider-recheck.js";

export interface DecisionResult {
  approval: ApprovalRecord;
  note: string;
  /** True when a job carries the decision out (the note says so); false when it was carried out already. */
  queued?: boolean;
}

/** What granted an exception for a kept rider: Keep, Keep everyone (docs/exceptions.md). */
export const KEPT_DECISION = "kept";

export function createDecisions(
  deps: AgentDeps,
  { changed }: Pick<CaseManagerRunner, "changed">,
  exceptions: Pick<Exceptions, "grantForKept">,
) {
  const jobs = deps.jobs ? caseJobs(deps.jobs) : undefined;
  const describeOutcome = (approval: ApprovalRecord) => decisionOutcome(deps, approval);

  async function decide(
    approvalId: string,
    decision: Decision,
    actor: string,
    extra: { body?: string; reason?: string; exception?: ExceptionChoice } = {},
  ): Promise<DecisionResult> {
    const approval = await getApproval(deps.prisma, approvalId);
    if (approval.kind === "cancellation" && decision === "edit")
      throw invalidInput("A cancellation can be approved or rejected, not edited.");
    if (decision === "edit" && !extra.body?.trim()) throw invalidInput("An edit needs the new email text (--body).");
    if (approval.kind === "cancellation" && decision === "approve" && deps.settings.cancelApprovals > 1)
      throw invalidInput(
        `Removing riders needs ${deps.settings.cancelApprovals} different approvers: decide each rider on the card in Slack. Nothing was changed.`,
      );
    const input = { approvalId, decision, actor, now: deps.now(), body: extra.body, reason: extra.reason };
    // Committed with its job: once the click is acknowledged, the decision is carried out even after a crash.
    const decided = await recordDecision(deps.prisma, input, jobs && ((db) => jobs.applyDecision(approvalId, db)));
    if (decided.kind === "cancellation" && decided.status === "rejected") await keepEveryone(decided, extra.exception);
    if (!jobs) return applyDecision(decided);
    return { approval: decided, note: "Recorded; carrying it out now.", queued: true };
  }

  /** Keep everyone: each rider not already decided gets an exception (docs/exceptions.md). */
  async function keepEveryone(approval: ApprovalRecord, choice: ExceptionChoice | undefined): Promise<void> {
    const riders = (approval.payload as { employee_ids?: string[] }).employee_ids ?? [];
    const decided = await listRiderDecisions(deps.prisma, approval.approval_id);
    await exceptions.grantForKept({
      caseId: approval.case_id,
      employeeIds: riders.filter((id) => !decided.some((d) => d.employee_id === id && d.decision === "remove")),
      actor: approval.decided_by ?? "someone",
      decision: KEPT_DECISION,
      choice: choice ?? { reason: "other", note: approval.decision_reason ?? "" },
    });
  }

  /**
   * One approver's decision on one rider of a cancellation. When it is the last rider to decide,
   * the request is decided and carried out like any other decision.
   */
  async function decideRider(input: {
    approvalId: string;
    employeeId: string;
    choice: RiderChoice;
    actor: string;
    evidenceVersion: string;
    /** Keep: why, and for how long (the Keep form); a keep without it is the program manager's. */
    exception?: ExceptionChoice;
  }): Promise<DecisionResult & { complete: boolean; firstOfTwo: boolean }> {
    const { exception, ...decided } = input;
    const vote = {
      ...decided,
      requiredApprovals: deps.settings.cancelApprovals,
      now: deps.now(),
    };
    const recorded = await recordRiderDecision(
      deps.prisma,
      vote,
      jobs && ((db) => jobs.applyDecision(input.approvalId, db)),
    );
    if (input.choice === "keep")
      await exceptions.grantForKept({
        caseId: recorded.approval.case_id,
        employeeIds: [input.employeeId],
        actor: input.actor,
        decision: KEPT_DECISION,
        choice: exception,
      });
    const firstOfTwo = recorded.vote.kind === "first_of_two";
    if (!recorded.complete) {
      await changed(recorded.approval.case_id);
      return { approval: recorded.approval, note: "Recorded.", complete: false, firstOfTwo };
    }
    if (!jobs) return { ...(await applyDecision(recorded.approval)), complete: true, firstOfTwo };
    return {
      approval: recorded.approval,
      note: "Recorded; carrying it out now.",
      queued: true,
      complete: true,
      firstOfTwo,
    };
  }

  /**
   * Before anyone is removed: each rider to remove is checked again; one who no longer fails is kept.
   * Returns the riders to remove. Outcomes are recorded once, so a repeat returns the same riders.
   */
  async function settleRemovals(approval: ApprovalRecord, vanpoolId: string): Promise<string[]> {
    const decisions = await ensureRiderDecisions(deps.prisma, approval);
    const unsettled = decisions.filter((d) => d.decision === "remove" && !d.outcome).map((d) => d.employee_id);
    const still = await ridersStillFailing(deps, { caseId: approval.case_id, vanpoolId, employeeIds: unsettled });
    for (const d of decisions)
      if (!d.outcome)
        await setRiderOutcome(
          deps.prisma,
          approval.approval_id,
          d.employee_id,
          d.decision === "keep" ? "kept" : still.has(d.employee_id) ? "removed" : "kept_passes",
        );
    return removedBy(approval);
  }

  async function removedBy(approval: ApprovalRecord): Promise<string[]> {
    const decisions = await listRiderDecisions(deps.prisma, approval.approval_id);
    return decisions.filter((d) => d.outcome === "removed").map((d) => d.employee_id);
  }

  /** Resumes the paused agent with the recorded decision. Safe to repeat: side effects are keyed. */
  async function applyDecision(approval: ApprovalRecord): Promise<DecisionResult> {
    return withLease(deps, `approval:${approval.approval_id}`, async () => {
      const current = await getApproval(deps.prisma, approval.approval_id);
      if (current.applied_at) return { approval: current, note: current.result_note ?? "Already carried out." };
      const now = deps.now();
      const paused = current.kind === "escalation_reply" ? createOutreachAgent(deps) : createCaseManagerAgent(deps);
      const threadId = current.graph_thread_id!;
      const waiting = await pendingInterrupts(paused.agent, threadId);
      if (!waiting.includes(current.interrupt_id ?? "")) {
        // The agent already moved on: a crash after it resumed, or a send that failed. What the decision
        // asks for is finished here directly; every step finds what an earlier run did and does not repeat it.
        if (current.kind === "cancellation") await finishCancellation(current);
        await ensureApprovedEmailSent(current);
        const note = await describeOutcome(current);
        await markApplied(deps.prisma, current.approval_id, note, now);
        await changed(current.case_id);
        return { approval: { ...current, applied_at: now, result_note: note }, note };
      }
      const request = current.payload as { tool: string } & Record<string, unknown>;
      const { tool, reply_message_id: _r, reply_body: _b, reply_attachments: _a, reply_reason: _w, ...args } = request;
      const record = await getCase(deps.prisma, current.case_id);
      const removing =
        current.kind === "cancellation" && current.status === "approved"
          ? await settleRemovals(current, record.vanpool_id)
          : undefined;
      const decisionPayload =
        removing?.length === 0
          ? { type: "reject", message: "No rider was removed: every rider to remove passes the checks now." }
          : current.status === "approved"
            ? { type: "approve" }
            : current.status === "edited"
              ? { type: "edit", editedAction: { name: tool, args: { ...args, body: current.edited_body } } }
              : {
                  type: "reject",
                  // "Rejected by ...": the agent (and a model) read this as the reviewer's rejection.
                  message: `R${decisionBy(current).slice(1)}`,
                };
      await withLease(deps, `vanpool:${record.vanpool_id}`, async () => {
        await runAgentTurn(deps, {
          ...paused,
          threadId,
          caseId: current.case_id,
          vanpoolId: record.vanpool_id,
          resume: { decisions: [decisionPayload] },
        });
        if (current.kind === "escalation_reply") {
          const after = await getCase(deps.prisma, current.case_id);
          if (after.status === "hitl_review") {
            await changeCase(deps.prisma, current.case_id, {
              status: "pending_reply",
              why: `escalation reply ${decisionBy(current)}`,
              actor: `person:${current.decided_by}`,
              now,
              meta:
                current.status === "rejected"
                  ? { last_rejected_draft: { approval_id: current.approval_id, reason: current.decision_reason } }
                  : undefined,
            });
          }
        }
      });
      await ensureApprovedEmailSent(current);
      const note = await describeOutcome(current);
      await markApplied(deps.prisma, current.approval_id, note, deps.now());
      await changed(current.case_id);
      return { approval: await getApproval(deps.prisma, current.approval_id), note };
    });
  }

  /**
   * Carries out a decided cancellation the agent is no longer waiting on: the approved removals
   * (re-checked first, once), or the case closed as resolved when no one is to be removed. Nothing when the case
   * had moved on already (closed some other way, or no longer before cancelling): its outcome then says where it is.
   */
  async function finishCancellation(approval: ApprovalRecord): Promise<void> {
    const record = await getCase(deps.prisma, approval.case_id);
    if (record.status !== "pre_cancel" && record.status !== "cancelled") return;
    const removing = approval.status === "approved" ? await settleRemovals(approval, record.vanpool_id) : [];
    await withLease(deps, `vanpool:${record.vanpool_id}`, async () => {
      if (removing.length > 0) {
        await carryOutCancellation(deps, {
          approval,
          employeeIds: removing,
          reason: `cancellation approved by ${approval.decided_by}`,
          actor: `person:${approval.decided_by}`,
        });
        return;
      }
      if ((await getCase(deps.prisma, approval.case_id)).status !== "pre_cancel") return;
      const why =
        approval.status === "approved"
          ? "No rider was removed: every rider to remove passes the checks now."
          : `Cancellation ${decisionBy(approval)}`;
      await changeCase(deps.prisma, approval.case_id, {
        status: "resolved",
        outcome: "resolved",
        why,
        meta: { resolution: why },
        actor: `person:${approval.decided_by}`,
        now: deps.now(),
      });
    });
  }

  async function ensureApprovedEmailSent(approval: ApprovalRecord): Promise<void> {
    if (approval.kind === "cancellation" && approval.status === "approved") {
      const removed = await removedBy(approval);
      if ((await getCase(deps.prisma, approval.case_id)).status === "cancelled")
        await sendRemovalNotices(deps, { caseId: approval.case_id, employeeIds: removed, actor: "scheduler" });
      return;
    }
    if (approval.kind !== "escalation_reply" || approval.status === "rejected") return;
    const key = `approval:${approval.approval_id}`;
    if ((await findMessageByKey(deps.prisma, key))?.status === "sent") return;
    const record = await getCase(deps.prisma, approval.case_id);
    const draft = approval.payload as { to: string; subject: string; body: string };
    const addressed = await employeeIdsFor(deps.prisma, [draft.to]);
    if (!addressed.some((id) => record.flagged.includes(id)))
      throw invalidInput(`${draft.to} is not a flagged rider on ${record.case_id}; the draft was not sent.`);
    await sendCaseEmail(emailServiceDeps(deps), {
      caseId: record.case_id,
      vanpoolId: record.vanpool_id,
      to: [draft.to],
      subject: draft.subject,
      body: approval.status === "edited" && approval.edited_body ? approval.edited_body : draft.body,
      idempotencyKey: key,
      actor: `person:${approval.decided_by}`,
      now: deps.now(),
    });
  }

  return { decide, decideRider, applyDecision };
}
