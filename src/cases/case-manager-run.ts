// One turn of the Case Manager on a task (an audit, a reply, a timeout): the rules model takes over when a
// configured model fails, an interrupt becomes an approval request, and the result says where the case stands.
// Every use case in this folder runs the Case Manager through it.
import { randomUUID } from "node:crypto";
import { type CaseManagerTask, createCaseManagerAgent } from "../agents/case-manager/agent.js";
import type { AgentDeps } from "../agents/deps.js";
import { isToolFailure } from "../agents/logged-tool.js";
import { type AgentTurn, runAgentTurn } from "../agents/run-agent.js";
import { createApproval } from "../data/approval-repository.js";
import { recordEvent } from "../data/audit-log.js";
import { type CaseRecord, findCase, findCaseUpdatedSince, findOpenCase } from "../data/case-repository.js";
import { isDatabaseError } from "../data/pg-pool.js";
import { recordReAudit } from "../data/re-audit-repository.js";
import { findLatestResults } from "../data/verification-repository.js";
import type { ReAuditCause } from "../domain/re-audit-pacing.js";
import { caseJobs } from "../queue/queues.js";

export interface CaseManagerResult {
  vanpool_id: string;
  case_id: string | null;
  status: CaseRecord["status"] | null;
  outcome: "verified" | "resolved" | "cancelled" | null;
  reasoning: string;
  tools_used: string[];
  approval_id?: string;
}

/** The Case Manager's tools that run a check (`run_location_specialist`…): a turn that called one re-audited. */
const SPECIALIST_TOOL = /^run_\w+_specialist$/;

export function caseThreadId(caseId: string): string {
  return `case:${caseId}`;
}

export type CaseManagerRunner = ReturnType<typeof createCaseManagerRunner>;

export function createCaseManagerRunner(deps: AgentDeps) {
  const jobs = deps.jobs ? caseJobs(deps.jobs) : undefined;

  /** Slack catches up with a case changed here, whichever process runs the bot. */
  async function changed(caseId: string | null | undefined): Promise<void> {
    if (caseId) await jobs?.syncCase(caseId);
  }

  /**
   * `reAuditKey` names what a re-audit of this task is for, so reading it again or retrying it counts it once (and
   * the case thread tells it once); `cause` says why an audit of an open case ran (an import, a person).
   */
  async function runCaseManager(
    task: CaseManagerTask,
    threadId: string,
    reAuditKey?: string,
    cause?: ReAuditCause,
  ): Promise<CaseManagerResult> {
    const started = deps.now();
    let turn: AgentTurn;
    // The thread the turn ended on: an interrupt waits there, and the decision resumes it there.
    let turnThreadId = threadId;
    // A re-audit goes in the case thread before the email it leads to (a follow-up, a confirmation), so the thread
    // reads in time order: it is recorded once its checks have run and before the Outreach Agent writes.
    const hooks = {
      beforeOutreach: async (purpose: string) => {
        const record = task.case && (await findCase(deps.prisma, task.case.case_id));
        if (record) await noteReAudit(task, record, started, reAuditKey ?? threadId, cause, purpose === "confirmation");
      },
    };
    const caseManager = createCaseManagerAgent(deps, hooks);
    try {
      turn = await runAgentTurn(deps, {
        ...caseManager,
        threadId,
        caseId: task.case?.case_id,
        vanpoolId: task.vanpool_id,
        task: task as unknown as Record<string, unknown>,
        reAuditKey,
      });
    } catch (error) {
      const { model } = caseManager;
      // A tool or the database failed, not the model: the step ends here and its job is retried, as on the rules model.
      if (model.isRules || isToolFailure(error) || isDatabaseError(error)) throw error;
      // The model failed or timed out: the rules model takes the step over, and the trail says so.
      await recordEvent(deps.prisma, {
        actor: "agent:case_manager",
        action: "agent.fallback_to_rules",
        subjectType: task.case ? "case" : "vanpool",
        subjectId: task.case?.case_id ?? task.vanpool_id,
        at: deps.now(),
        details: { model: model.name, error: (error as Error).message },
      });
      const rules = createCaseManagerAgent(
        { ...deps, settings: { ...deps.settings, models: { ...deps.settings.models, case_manager: "rules" } } },
        hooks,
      );
      turnThreadId = `${threadId}~rules-${randomUUID().slice(0, 8)}`;
      turn = await runAgentTurn(deps, {
        ...rules,
        threadId: turnThreadId,
        caseId: task.case?.case_id,
        vanpoolId: task.vanpool_id,
        task: task as unknown as Record<string, unknown>,
        reAuditKey,
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
        graphThreadId: turnThreadId,
        interruptId: turn.interrupt.id,
        actor: "agent:case_manager",
        now: deps.now(),
      });
      approvalId = approval.approval_id;
    }
    const record = task.case
      ? await findCase(deps.prisma, task.case.case_id)
      : await latestCaseSince(task.vanpool_id, started);
    if (task.case && record && turn.toolCalls.some((name) => SPECIALIST_TOOL.test(name)))
      await noteReAudit(task, record, started, reAuditKey ?? threadId, cause);
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

  /**
   * The re-audit this turn ran on an open case, recorded once per key for the case thread (thread-story.ts); nothing
   * while no check has run yet. `resolving`: a confirmation email is about to go, and the case closes right after.
   */
  async function noteReAudit(
    task: CaseManagerTask,
    after: CaseRecord,
    started: Date,
    key: string,
    cause: ReAuditCause = { kind: "audit" },
    resolving = false,
  ): Promise<void> {
    const before = task.case!;
    const latest = await findLatestResults(deps.prisma, task.vanpool_id);
    const runs = Object.values(latest).flatMap((r) => (r && r.finished_at >= started ? [r.run_id] : []));
    if (runs.length === 0) return;
    // Only a reply's or a timeout's re-audit is counted toward the limit; an audit asked for by hand is not.
    const counting = task.task !== "audit";
    await recordReAudit(deps.prisma, {
      caseId: before.case_id,
      key,
      at: deps.now(),
      cause:
        task.task === "reply" && task.reply
          ? { kind: "reply", from: task.reply.from }
          : task.task === "timeout"
            ? { kind: "timeout" }
            : cause,
      failed_before: before.failed_checks,
      runs,
      counted: counting ? after.re_audit_count > before.re_audit_count : null,
      count: after.re_audit_count,
      counts_from: after.re_audit_counts_from,
      status: resolving ? "resolved" : after.status,
    });
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

  return { runCaseManager, taskCase, changed };
}
