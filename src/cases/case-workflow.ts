// What the CLI and Slack call: audit a vanpool, take in a rider's reply, run due
// timeouts, and carry out human decisions. Each operation on a case runs under a
// lease on its vanpool, so two processes never work the same case at once. With a
// job engine, a decision is recorded together with the job that carries it out, and
// every change to a case queues a Slack sync for it.
import { randomUUID } from "node:crypto";
import { type CaseManagerTask, createCaseManagerAgent } from "../agents/case-manager/agent.js";
import { carryOutCancellation } from "../agents/case-manager/cancellation.js";
import type { AgentDeps } from "../agents/deps.js";
import { createOutreachAgent } from "../agents/outreach/agent.js";
import { sendRemovalNotices } from "../agents/outreach/removal-notices.js";
import { draftFollowUp as draftFollowUpEmail } from "../agents/outreach/run-outreach.js";
import { type AgentTurn, pendingInterrupts, runAgentTurn } from "../agents/run-agent.js";
import {
  type ApprovalRecord,
  createApproval,
  type Decision,
  decisionBy,
  ensureRiderDecisions,
  getApproval,
  listApprovals,
  listRiderDecisions,
  listUnappliedDecisions,
  markApplied,
  recordDecision,
  recordRiderDecision,
  setRiderOutcome,
} from "../data/approval-repository.js";
import { recordEvent } from "../data/audit-log.js";
import { withLease } from "../data/case-lease.js";
import {
  type CaseRecord,
  casesAwaitingReply,
  changeCase,
  findCase,
  findCaseUpdatedSince,
  findOpenCase,
  getCase,
} from "../data/case-repository.js";
import {
  createInbound,
  employeeIdsFor,
  findMessage,
  findMessageByKey,
  findThread,
  type InboundDetails,
  type MessageRecord,
  markRead,
} from "../data/email-repository.js";
import { quarantineEmail } from "../data/inbound-repository.js";
import { findVanpoolSnapshot } from "../data/vanpool-repository.js";
import { isClosed, isReplyOverdue, STATUS_LABEL, statusInWords } from "../domain/case-lifecycle.js";
import type { RiderChoice } from "../domain/rider-decisions.js";
import { invalidInput, notFound } from "../errors.js";
import { emailServiceDeps, sendCaseEmail } from "../integrations/email/email-service.js";
import { wasWrittenTo } from "../integrations/email/inbound/thread-matcher.js";
import { addressOf } from "../integrations/email/reply-address.js";
import { caseJobs } from "../queue/queues.js";
import { ridersStillFailing } from "./rider-recheck.js";

export interface CaseManagerResult {
  vanpool_id: string;
  case_id: string | null;
  status: CaseRecord["status"] | null;
  outcome: "verified" | "resolved" | "cancelled" | null;
  reasoning: string;
  tools_used: string[];
  approval_id?: string;
}

export interface ReplyResult extends Partial<CaseManagerResult> {
  message_id: string;
  handled: boolean;
  note: string;
}

export interface DecisionResult {
  approval: ApprovalRecord;
  note: string;
  /** True when a job carries the decision out (the note says so); false when it was carried out already. */
  queued?: boolean;
}

export function caseThreadId(caseId: string): string {
  return `case:${caseId}`;
}

export function createCaseWorkflow(deps: AgentDeps) {
  const jobs = deps.jobs ? caseJobs(deps.jobs) : undefined;

  /** Slack catches up with a case changed here, whichever process runs the bot. */
  async function changed(caseId: string | null | undefined): Promise<void> {
    if (caseId) await jobs?.syncCase(caseId);
  }

  async function runCaseManager(task: CaseManagerTask, threadId: string): Promise<CaseManagerResult> {
    const started = deps.now();
    let turn: AgentTurn;
    const caseManager = createCaseManagerAgent(deps);
    try {
      turn = await runAgentTurn(deps, {
        ...caseManager,
        threadId,
        caseId: task.case?.case_id,
        vanpoolId: task.vanpool_id,
        task: task as unknown as Record<string, unknown>,
      });
    } catch (error) {
      const { model } = caseManager;
      if (model.isRules) throw error;
      // The model failed or timed out: the rules model takes the step over, and the trail says so.
      await recordEvent(deps.prisma, {
        actor: "agent:case_manager",
        action: "agent.fallback_to_rules",
        subjectType: task.case ? "case" : "vanpool",
        subjectId: task.case?.case_id ?? task.vanpool_id,
        at: deps.now(),
        details: { model: model.name, error: (error as Error).message },
      });
      const rules = createCaseManagerAgent({
        ...deps,
        settings: { ...deps.settings, models: { ...deps.settings.models, case_manager: "rules" } },
      });
      turn = await runAgentTurn(deps, {
        ...rules,
        threadId: `${threadId}~rules-${randomUUID().slice(0, 8)}`,
        caseId: task.case?.case_id,
        vanpoolId: task.vanpool_id,
        task: task as unknown as Record<string, unknown>,
      });
    }
    let approvalId: string | undefined;
    if (turn.interrupt) {
      const request = turn.interrupt.actionRequests[0]!;
      const caseId = String(request.args.case_id ?? task.case?.case_id);
      const approval = await createApproval(deps.prisma, {
        kind: "cancellation",
        caseId,
        payload: { ...request.args, tool: request.name },
        graphThreadId: threadId,
        interruptId: turn.interrupt.id,
        actor: "agent:case_manager",
        now: deps.now(),
      });
      approvalId = approval.approval_id;
    }
    const record = task.case
      ? await findCase(deps.prisma, task.case.case_id)
      : await latestCaseSince(task.vanpool_id, started);
    return {
      vanpool_id: task.vanpool_id,
      case_id: record?.case_id ?? null,
      status: record?.status ?? null,
      outcome: record ? record.outcome : "verified",
      reasoning:
        turn.finalText || (turn.interrupt ? "Waiting for a person to approve or reject the cancellation." : ""),
      tools_used: turn.toolCalls,
      ...(approvalId ? { approval_id: approvalId } : {}),
    };
  }

  async function latestCaseSince(vanpoolId: string, since: Date): Promise<CaseRecord | undefined> {
    const open = await findOpenCase(deps.prisma, vanpoolId);
    if (open) return open;
    return findCaseUpdatedSince(deps.prisma, vanpoolId, since);
  }

  function taskCase(record: CaseRecord): CaseManagerTask["case"] {
    return {
      case_id: record.case_id,
      status: record.status,
      failed_checks: record.failed_checks,
      flagged: record.flagged,
      re_audit_count: record.re_audit_count,
    };
  }

  async function auditVanpool(vanpoolId: string): Promise<CaseManagerResult> {
    if (!(await findVanpoolSnapshot(deps.prisma, vanpoolId)))
      throw notFound(`No vanpool ${vanpoolId}. Vanpool ids look like VP-101.`);
    return withLease(deps.pool, `vanpool:${vanpoolId}`, async () => {
      const open = await findOpenCase(deps.prisma, vanpoolId);
      // Audits run on a thread of their own: they never disturb a case waiting on a person.
      const result = await runCaseManager(
        { task: "audit", vanpool_id: vanpoolId, case: open ? taskCase(open) : null },
        `audit:${vanpoolId}:${randomUUID()}`,
      );
      await changed(result.case_id);
      return result;
    });
  }

  async function receiveReply(input: {
    threadId: string;
    from: string;
    body: string;
    subject?: string;
    /** What the inbound email path knows: Message-ID, the text without quotes, attachments. */
    details?: InboundDetails;
    /** A person attached this email to the thread (quarantine assign): the sender need not have been written to. */
    trustSender?: boolean;
  }): Promise<ReplyResult> {
    const now = deps.now();
    // The bare address, as the inbound email path passes it: "Name <Rider@X>" is rider@x.
    const from = addressOf(input.from);
    const thread = await findThread(deps.prisma, input.threadId);
    if (!thread) {
      const { id } = await quarantineEmail(deps.prisma, {
        threadId: input.threadId,
        from,
        subject: input.subject,
        body: input.body,
        reason: "unknown thread",
        now,
      });
      throw notFound(
        `No email thread ${input.threadId}. The message was kept in quarantine (${id}) for a person to look at.`,
      );
    }
    if (!input.trustSender && !wasWrittenTo(thread, from)) {
      const { id } = await quarantineEmail(deps.prisma, {
        threadId: input.threadId,
        from,
        subject: input.subject,
        body: input.body,
        reason: "sender not written to",
        now,
      });
      throw invalidInput(
        `${from} was not written to on ${input.threadId}. The message was kept in quarantine (${id}) for a person to look at.`,
      );
    }
    return withLease(deps.pool, `vanpool:${thread.vanpool_id}`, async () => {
      const { message, created } = await createInbound(deps.prisma, {
        threadId: thread.thread_id,
        from,
        to: [deps.settings.email.from],
        subject: input.subject ?? `Re: ${thread.subject}`,
        body: input.body,
        now,
        ...input.details,
      });
      const record = await getCase(deps.prisma, thread.case_id);
      if (!created) return isUnread(message, record) ? readReply(record, message) : alreadyRecorded(record, message);
      if (record.status !== "pending_reply") {
        const action = isClosed(record.status) ? "reply.after_close" : "reply.held_for_human";
        await recordEvent(deps.prisma, {
          actor: `email:${from}`,
          action,
          subjectType: "case",
          subjectId: record.case_id,
          at: now,
          details: { message_id: message.message_id, status: record.status },
        });
        // Its handling ends here: it waits for a person, even if the case goes back to waiting for replies.
        await markRead(deps.prisma, message.message_id, now);
        const note = isClosed(record.status)
          ? `${record.case_id} is ${record.status}; the reply was recorded and flagged for a person. Nothing was reopened.`
          : `${record.case_id} is ${statusInWords(record.status)}; the reply was recorded for the person reviewing it.`;
        return {
          message_id: message.message_id,
          handled: false,
          note,
          case_id: record.case_id,
          status: record.status,
          outcome: record.outcome,
        };
      }
      return readReply(record, message);
    });
  }

  /**
   * Reads a reply kept before whose reading never finished (the process died, or the database failed, after the
   * email was stored or after it was classified): a redelivery of the email finishes it instead of leaving the
   * rider unanswered. Reading again repeats no effect: the stored classification is reused and emails are keyed.
   */
  async function resumeUnreadReply(messageId: string): Promise<ReplyResult> {
    const kept = await findMessage(deps.prisma, messageId);
    if (kept?.direction !== "inbound") throw notFound(`No inbound message ${messageId}.`);
    const thread = (await findThread(deps.prisma, kept.thread_id))!;
    return withLease(deps.pool, `vanpool:${thread.vanpool_id}`, async () => {
      const message = (await findMessage(deps.prisma, messageId))!;
      const record = await getCase(deps.prisma, thread.case_id);
      return isUnread(message, record) ? readReply(record, message) : alreadyRecorded(record, message);
    });
  }

  /** A rider's reply the Case Manager has yet to finish reading: no read mark, and its case still waits for a reply. */
  function isUnread(message: MessageRecord, record: CaseRecord): boolean {
    return !message.auto_reply && message.read_at === null && record.status === "pending_reply";
  }

  /** The Case Manager reads the reply, then marks it read; runs under the vanpool's lease. */
  async function readReply(record: CaseRecord, message: MessageRecord): Promise<ReplyResult> {
    const result = await runCaseManager(
      {
        task: "reply",
        vanpool_id: record.vanpool_id,
        case: taskCase(record),
        reply: { message_id: message.message_id, from: message.from },
      },
      caseThreadId(record.case_id),
    );
    await changed(record.case_id);
    await markRead(deps.prisma, message.message_id, deps.now());
    return { ...result, message_id: message.message_id, handled: true, note: result.reasoning };
  }

  function alreadyRecorded(record: CaseRecord, message: MessageRecord): ReplyResult {
    return {
      message_id: message.message_id,
      handled: false,
      note: `This email was already recorded as ${message.message_id}; nothing was done again.`,
      case_id: record.case_id,
      status: record.status,
      outcome: record.outcome,
    };
  }

  /** Runs what is due: decisions not yet carried out, then reply timeouts. */
  async function tick(now = deps.now()): Promise<{ applied: DecisionResult[]; timeouts: CaseManagerResult[] }> {
    const applied: DecisionResult[] = [];
    for (const approval of await listUnappliedDecisions(deps.prisma)) applied.push(await applyDecision(approval));
    const timeouts: CaseManagerResult[] = [];
    for (const record of await casesAwaitingReply(deps.prisma)) {
      if (isReplyOverdue(record.status, record.last_outbound_at, now, record.reply_extended_until))
        timeouts.push(await replyTimeout(record.case_id, now));
    }
    return { applied, timeouts };
  }

  /** Runs the reply timeout of a case if it is still due at `now`: a reply or a newer email supersedes it. */
  async function replyTimeout(caseId: string, now: Date, sentAt?: Date): Promise<CaseManagerResult> {
    const { vanpool_id } = await getCase(deps.prisma, caseId);
    return withLease(deps.pool, `vanpool:${vanpool_id}`, async () => {
      const record = await getCase(deps.prisma, caseId);
      const superseded = sentAt && record.last_outbound_at?.getTime() !== sentAt.getTime();
      if (superseded || !isReplyOverdue(record.status, record.last_outbound_at, now, record.reply_extended_until))
        return {
          vanpool_id: record.vanpool_id,
          case_id: record.case_id,
          status: record.status,
          outcome: record.outcome,
          reasoning: "Handled meanwhile.",
          tools_used: [],
        };
      await recordEvent(deps.prisma, {
        actor: "scheduler",
        action: "case.reply_timeout",
        subjectType: "case",
        subjectId: record.case_id,
        at: now,
        details: { last_outbound_at: record.last_outbound_at },
      });
      const result = await runCaseManager(
        { task: "timeout", vanpool_id: record.vanpool_id, case: taskCase(record) },
        caseThreadId(record.case_id),
      );
      await changed(record.case_id);
      return result;
    });
  }

  async function decide(
    approvalId: string,
    decision: Decision,
    actor: string,
    extra: { body?: string; reason?: string } = {},
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
    if (!jobs) return applyDecision(await recordDecision(deps.prisma, input));
    // Committed with its job: once the click is acknowledged, the decision is carried out even after a crash.
    const decided = await recordDecision(deps.prisma, input, (db) => jobs.applyDecision(approvalId, db));
    return { approval: decided, note: "Recorded; carrying it out now.", queued: true };
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
  }): Promise<DecisionResult & { complete: boolean; firstOfTwo: boolean }> {
    const vote = {
      ...input,
      requiredApprovals: deps.settings.cancelApprovals,
      now: deps.now(),
    };
    const recorded = await recordRiderDecision(
      deps.prisma,
      vote,
      jobs && ((db) => jobs.applyDecision(input.approvalId, db)),
    );
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
    return withLease(deps.pool, `approval:${approval.approval_id}`, async () => {
      const current = await getApproval(deps.prisma, approval.approval_id);
      if (current.applied_at) return { approval: current, note: current.result_note ?? "Already carried out." };
      const now = deps.now();
      const paused = current.kind === "escalation_reply" ? createOutreachAgent(deps) : createCaseManagerAgent(deps);
      const threadId = current.graph_thread_id!;
      const waiting = await pendingInterrupts(paused.agent, threadId);
      if (!waiting.includes(current.interrupt_id ?? "")) {
        // The agent already moved on: a crash after it resumed, or a send that failed. What the decision
        // asks for is finished here directly; every step finds what an earlier run did and does not repeat it.
        const finished = current.kind === "cancellation" ? await finishCancellation(current) : true;
        await ensureApprovedEmailSent(current);
        const note =
          finished && (current.kind === "cancellation" || current.status !== "rejected")
            ? await describeOutcome(current)
            : "The agent was no longer waiting on this request; nothing more was done.";
        await markApplied(deps.prisma, current.approval_id, note, now);
        await changed(current.case_id);
        return { approval: { ...current, applied_at: now, result_note: note }, note };
      }
      const request = current.payload as { tool: string } & Record<string, unknown>;
      const { tool, reply_message_id: _r, reply_body: _b, reply_attachments: _a, ...args } = request;
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
      await withLease(deps.pool, `vanpool:${record.vanpool_id}`, async () => {
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
   * (re-checked first, once), or the case closed as resolved when no one is to be removed.
   * False when the case had moved on already (closed some other way, or no longer before cancelling).
   */
  async function finishCancellation(approval: ApprovalRecord): Promise<boolean> {
    const record = await getCase(deps.prisma, approval.case_id);
    if (record.status !== "pre_cancel" && record.status !== "cancelled") return false;
    const removing = approval.status === "approved" ? await settleRemovals(approval, record.vanpool_id) : [];
    await withLease(deps.pool, `vanpool:${record.vanpool_id}`, async () => {
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
    return true;
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

  async function describeOutcome(approval: ApprovalRecord): Promise<string> {
    const record = await getCase(deps.prisma, approval.case_id);
    const status = STATUS_LABEL[record.status] ?? record.status;
    if (approval.kind === "escalation_reply") {
      if (approval.status === "rejected") return `Nothing was sent; ${record.case_id} is back to ${status}.`;
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

  /**
   * A follow-up to one flagged rider, asked for in conversation: drafted and held as an approval
   * request (the same card as a reply to review). A draft already waiting is returned instead.
   */
  async function draftFollowUp(
    caseId: string,
    employeeId: string,
  ): Promise<{ approval_id: string; existing: boolean }> {
    const { vanpool_id } = await getCase(deps.prisma, caseId);
    return withLease(deps.pool, `vanpool:${vanpool_id}`, async () => {
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

  return {
    auditVanpool,
    receiveReply,
    resumeUnreadReply,
    tick,
    replyTimeout,
    decide,
    decideRider,
    applyDecision,
    draftFollowUp,
  };
}

export type CaseWorkflow = ReturnType<typeof createCaseWorkflow>;
