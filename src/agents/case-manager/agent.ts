// The Case Manager: runs the specialists (as tools), opens and advances the case
// along the lifecycle, routes to Outreach, and asks a person before any
// cancellation (cancel_membership is interrupted for approve / reject).
import { createAgent, humanInTheLoopMiddleware } from "langchain";
import {
  type CaseStatus,
  checksToReAudit,
  decideAfterAudit,
  decideAfterReAudit,
  MAX_RE_AUDITS,
  type ReAuditTrigger,
  statusInWords,
} from "../../domain/case-lifecycle.js";
import { CHECK_KINDS, type CheckKind, type Verdict } from "../../domain/specialist-result.js";
import type { AgentDeps } from "../deps.js";
import { endRunOnToolFailure } from "../logged-tool.js";
import { createAgentModel } from "../models/index.js";
import { latest, type ToolCallPlan, type Turn } from "../models/rules-model.js";
import type { BuiltAgent } from "../run-agent.js";
import { answerUnfinishedToolCalls } from "../unfinished-tool-calls.js";
import { type CaseManagerHooks, createCaseManagerTools } from "./tools.js";

export const CASE_MANAGER_PROMPT_VERSION = "case-manager-v2";
const SYSTEM_PROMPT = `You are Pool Patrol's Case Manager for a vanpool subsidy program. You receive a JSON task with the vanpool, its open case (if any) and what happened.
Facts come only from the specialists; never decide a verdict yourself. Lifecycle:
- A rider the employment specialist flags no longer works here and is never emailed: upsert_case status pre_cancel (failed check employment, flagged = those riders), then cancel_membership for them in its own turn.
- task "audit" with an open case: run the three specialists; all pass -> close_case. Still failing with first_emails_missing true: run_outreach purpose "initial" (only riders never written to are emailed).
- Riders a specialist lists as "kept" (a person's exception) count as not flagged, and a check failing only for them as passing.
- task "audit" with no case: run the three specialists (location, shift, employment) in parallel. All pass: stop (no case). Any fail: upsert_case (status pending_reply, failed checks, flagged riders, details), then run_outreach purpose "initial". Only inconclusive: upsert_case with status hitl_review and no email.
- task "reply": run_outreach purpose "reply" with the message id. escalation / hitl_required: upsert_case status hitl_review. question: stop. acknowledgment or update: re-run only the specialists of the failed checks, with case_id.
- task "timeout": re-run the specialists of the failed checks with case_id.
- After a re-audit: all pass -> (for an update, run_outreach "confirmation") then close_case. Still failing: acknowledgment -> upsert_case hitl_review; update -> upsert_case pending_reply then run_outreach "follow_up"; timeout, or the third re-audit -> upsert_case pre_cancel, then cancel_membership for the flagged riders in its own turn.
- If a person rejects a cancellation, close_case with the reviewer's reason.
Finish with one short sentence: the case id, its status and why.`;

export interface CaseManagerTask {
  task: "audit" | "reply" | "timeout";
  vanpool_id: string;
  case: {
    case_id: string;
    status: CaseStatus;
    failed_checks: CheckKind[];
    flagged: string[];
    re_audit_count: number;
  } | null;
  reply?: { message_id: string; from: string };
  /** An audit of an open case some of whose flagged riders never got their first email (the opening run failed). */
  first_emails_missing?: boolean;
}

interface SpecialistAnswer {
  verdict: Verdict;
  flagged: string[];
  reasoning: string;
  re_audit_count: number | null;
  /** Flagged riders a person kept by an exception. */
  kept: string[];
}

/**
 * A specialist's latest answer. One whose tool failed (an error instead of a result) has no verdict: it counts as
 * inconclusive, so a person decides, rather than as a check that found nothing wrong.
 */
function specialistAnswer(turn: Turn, check: CheckKind): SpecialistAnswer | undefined {
  const answer = latest<Partial<SpecialistAnswer>>(turn, `run_${check}_specialist`);
  if (!answer) return undefined;
  return {
    verdict: answer.verdict ?? "inconclusive",
    flagged: answer.flagged ?? [],
    reasoning: answer.reasoning ?? "",
    re_audit_count: answer.re_audit_count ?? null,
    kept: ((answer as { kept?: { employee_id: string }[] }).kept ?? []).map((k) => k.employee_id),
  };
}

/** The answer a case is decided on: riders kept by an exception are not flagged (docs/exceptions.md). */
function withoutKeptRiders(answer: SpecialistAnswer): SpecialistAnswer {
  const flagged = answer.flagged.filter((id) => !answer.kept.includes(id));
  return { ...answer, flagged, verdict: answer.verdict === "fail" && flagged.length === 0 ? "pass" : answer.verdict };
}
interface OutreachAnswer {
  bucket: string | null;
  hitl_required: boolean;
  sent: boolean;
}

export function caseManagerRules(turn: Turn): ToolCallPlan[] | { final: string } {
  const task = turn.task as unknown as CaseManagerTask;
  const spec = (check: CheckKind) => specialistAnswer(turn, check);
  const upserted = latest<{ case_id: string; status: string }>(turn, "upsert_case");
  const caseId = task.case?.case_id ?? upserted?.case_id;

  const cancellation = turn.results.find((r) => r.name === "cancel_membership");
  if (cancellation) {
    if (!cancellation.rejected) return { final: `${caseId}: membership cancelled after approval.` };
    if (!turn.called.includes("close_case"))
      return [
        {
          name: "close_case",
          args: { case_id: caseId, reason: cancellationRejection(String(cancellation.content)) },
        },
      ];
    return { final: `${caseId}: resolved; the reviewer overrode the cancellation.` };
  }

  if (task.task === "audit" && !task.case) {
    const found = CHECK_KINDS.map(spec);
    if (found.some((a) => !a)) return allSpecialists(task.vanpool_id);
    const answers = Object.fromEntries(CHECK_KINDS.map((c, i) => [c, withoutKeptRiders(found[i]!)])) as Record<
      CheckKind,
      SpecialistAnswer
    >;
    const decision = decideAfterAudit(Object.fromEntries(CHECK_KINDS.map((c) => [c, answers[c].verdict])));
    const kept = unique(found.flatMap((a) => a!.kept));
    if (decision.kind === "no_case")
      return {
        final: kept.length
          ? `${task.vanpool_id}: no case; ${kept.join(", ")} still fail${kept.length === 1 ? "s" : ""} but a person kept them by an exception.`
          : `${task.vanpool_id}: verified, every check passes; no case.`,
      };
    if (decision.status === "pre_cancel") return departedRiders(turn, task, answers.employment, caseId ?? null);
    const failed = CHECK_KINDS.filter((c) => answers[c].verdict === "fail");
    if (!upserted) {
      const flagged = unique(failed.flatMap((c) => answers[c].flagged));
      return [
        {
          name: "upsert_case",
          args: {
            vanpool_id: task.vanpool_id,
            status: decision.status,
            failed_checks: failed,
            flagged,
            details: describeFailure(failed, flagged, decision.status),
          },
        },
      ];
    }
    if (decision.email && !turn.called.includes("run_outreach"))
      return [{ name: "run_outreach", args: { case_id: caseId, purpose: "initial" } }];
    return { final: `${caseId}: opened, ${statusInWords(decision.status)}.` };
  }

  if (task.task === "audit") return manualReAudit(turn, task);

  if (task.task === "reply") {
    const outreach = latest<OutreachAnswer>(turn, "run_outreach");
    if (!outreach)
      return [
        { name: "run_outreach", args: { case_id: caseId, purpose: "reply", message_id: task.reply!.message_id } },
      ];
    const first = turn.results.find((r) => r.name === "run_outreach")!.content as OutreachAnswer;
    if (first.hitl_required) {
      if (!upserted)
        return [
          {
            name: "upsert_case",
            args: {
              vanpool_id: task.vanpool_id,
              case_id: caseId,
              status: "hitl_review",
              details: "A rider's reply needs a person: the drafted answer is waiting for review.",
            },
          },
        ];
      return { final: `${caseId}: waiting for a person to review the drafted reply.` };
    }
    if (first.bucket === "question")
      return { final: `${caseId}: answered the rider's question; still waiting for replies.` };
    return reAudit(turn, task, first.bucket === "update" ? "update" : "acknowledgment");
  }
  return reAudit(turn, task, "timeout");
}

function reAudit(turn: Turn, task: CaseManagerTask, trigger: ReAuditTrigger): ToolCallPlan[] | { final: string } {
  const current = task.case!;
  const checks = checksToReAudit(current.failed_checks);
  const found = checks.map((c) => specialistAnswer(turn, c));
  if (found.some((a) => !a)) return checks.map((c) => specialistCall(c, task.vanpool_id, current.case_id));
  const answers = found.map((a) => withoutKeptRiders(a!));
  const stillFailing = checks.filter((_, i) => answers[i]!.verdict === "fail");
  const flagged = unique(checks.flatMap((_, i) => answers[i]!.flagged));
  const count = Math.max(...answers.map((a) => a!.re_audit_count ?? current.re_audit_count + 1));
  const undecided = stillFailing.length === 0 && answers.some((a) => a!.verdict === "inconclusive");
  const decision = undecided
    ? { status: "hitl_review" as const, email: null, requestCancellation: false }
    : decideAfterReAudit(trigger, stillFailing.length === 0, count);
  const upserted = latest(turn, "upsert_case");
  const outreachCalls = turn.results.filter((r) => r.name === "run_outreach").length;
  const replyOutreach = task.task === "reply" ? 1 : 0;

  if (decision.status === "resolved") {
    if (decision.email === "confirmation" && outreachCalls === replyOutreach)
      return [
        {
          name: "run_outreach",
          args: { case_id: current.case_id, purpose: "confirmation", message_id: task.reply?.message_id ?? null },
        },
      ];
    if (!turn.called.includes("close_case"))
      return [
        {
          name: "close_case",
          args: {
            case_id: current.case_id,
            reason: `Re-audit after ${trigger} passed: ${checks.join(" and ")} now meet the policy.`,
          },
        },
      ];
    return { final: `${current.case_id}: resolved after the ${trigger} re-audit.` };
  }
  // A case already proposed for cancellation (a retried timeout whose request was never stored) stays as it is.
  const alreadyThere = current.status === "pre_cancel" && decision.status === "pre_cancel";
  if (!upserted && !alreadyThere) {
    return [
      {
        name: "upsert_case",
        args: {
          vanpool_id: task.vanpool_id,
          case_id: current.case_id,
          status: decision.status,
          failed_checks: stillFailing.length ? stillFailing : current.failed_checks,
          flagged: flagged.length ? flagged : current.flagged,
          details: undecided
            ? "The re-audit could not decide: data is missing or a check did not finish."
            : `Re-audit after ${trigger} still fails ${stillFailing.join(" and ")} (${count} of ${MAX_RE_AUDITS} re-audits counted).`,
        },
      },
    ];
  }
  if (decision.email === "follow_up" && outreachCalls === replyOutreach)
    return [
      {
        name: "run_outreach",
        args: { case_id: current.case_id, purpose: "follow_up", message_id: task.reply?.message_id ?? null },
      },
    ];
  if (decision.requestCancellation && !turn.called.includes("cancel_membership")) {
    return [
      {
        name: "cancel_membership",
        args: {
          case_id: current.case_id,
          employee_ids: flagged.length ? flagged : current.flagged,
          reason: `Still failing ${stillFailing.join(" and ")} after ${count} re-audit(s) (${trigger}).`,
        },
      },
    ];
  }
  return { final: `${current.case_id}: ${statusInWords(decision.status)} after the ${trigger} re-audit.` };
}

/** An audit asked for on a vanpool whose case is open: fresh evidence, closed if it now passes. */
function manualReAudit(turn: Turn, task: CaseManagerTask): ToolCallPlan[] | { final: string } {
  const current = task.case!;
  const found = CHECK_KINDS.map((c) => specialistAnswer(turn, c));
  if (found.some((a) => !a)) return allSpecialists(task.vanpool_id);
  const departed = withoutKeptRiders(specialistAnswer(turn, "employment")!);
  if (departed.verdict === "fail" && current.status !== "pre_cancel")
    return departedRiders(turn, task, departed, current.case_id);
  // Fixed data closes the case even while a cancellation waits: that request then expires.
  if (found.every((a) => a!.verdict === "pass")) {
    if (!turn.called.includes("close_case"))
      return [{ name: "close_case", args: { case_id: current.case_id, reason: "A new audit passes every check." } }];
    return { final: `${current.case_id}: resolved, every check now passes.` };
  }
  if (task.first_emails_missing && !turn.called.includes("run_outreach"))
    return [{ name: "run_outreach", args: { case_id: current.case_id, purpose: "initial" } }];
  return { final: `${current.case_id}: still ${statusInWords(current.status)}; the new evidence is stored.` };
}

/**
 * Riders whose employment ended: no email to anyone, the case goes to an approver with their removal proposed,
 * decided like any cancellation (docs/verification-policy.md).
 */
function departedRiders(
  turn: Turn,
  task: CaseManagerTask,
  employment: SpecialistAnswer,
  caseId: string | null,
): ToolCallPlan[] | { final: string } {
  const upserted = latest<{ case_id: string }>(turn, "upsert_case");
  const id = caseId ?? upserted?.case_id ?? null;
  const flagged = employment.flagged;
  if (!upserted)
    return [
      {
        name: "upsert_case",
        args: {
          vanpool_id: task.vanpool_id,
          ...(id ? { case_id: id } : {}),
          status: "pre_cancel",
          failed_checks: ["employment"],
          flagged,
          details: describeFailure(["employment"], flagged, "pre_cancel"),
        },
      },
    ];
  if (!turn.called.includes("cancel_membership"))
    return [
      {
        name: "cancel_membership",
        args: { case_id: id, employee_ids: flagged, reason: employment.reasoning || "They no longer work here." },
      },
    ];
  return { final: `${id}: ${statusInWords("pre_cancel")}; the riders no longer work here.` };
}

const allSpecialists = (vanpoolId: string) => CHECK_KINDS.map((c) => specialistCall(c, vanpoolId, null));

function specialistCall(check: CheckKind, vanpoolId: string, caseId: string | null): ToolCallPlan {
  return { name: `run_${check}_specialist`, args: { vanpool_id: vanpoolId, case_id: caseId } };
}

export function describeFailure(failed: readonly CheckKind[], flagged: string[], status: string): string {
  if (failed.length === 0) return "Some riders could not be checked (missing data); a person should review.";
  if (failed.includes("employment"))
    return `${flagged.join(", ")} no longer work${flagged.length === 1 ? "s" : ""} here; their removal waits for an approver, and no one is emailed.`;
  return `${failed.join(" and ")} check${failed.length > 1 ? "s" : ""} failed for ${flagged.join(", ")}; ${status === "pending_reply" ? "riders emailed" : "waiting for review"}.`;
}

const unique = <T>(items: T[]) => [...new Set(items)];

export function createCaseManagerAgent(deps: AgentDeps, hooks?: CaseManagerHooks): BuiltAgent {
  const model = createAgentModel("case_manager", deps.settings, caseManagerRules);
  const agent = createAgent({
    model: model.chat,
    tools: createCaseManagerTools(deps, hooks),
    systemPrompt: SYSTEM_PROMPT,
    checkpointer: deps.checkpointer,
    middleware: [
      answerUnfinishedToolCalls,
      endRunOnToolFailure,
      humanInTheLoopMiddleware({ interruptOn: { cancel_membership: { allowedDecisions: ["approve", "reject"] } } }),
    ],
  });
  return { agentName: "case_manager", promptVersion: CASE_MANAGER_PROMPT_VERSION, agent, model };
}

/**
 * The resolution of a rejected cancellation, in the words the workflow uses when it closes the case itself:
 * "Rejected by U0ALICE: reason" -> "Cancellation rejected by U0ALICE: reason"; any other message as it is.
 */
export function cancellationRejection(message: string): string {
  return /^Rejected by /.test(message) ? `Cancellation r${message.slice(1)}` : message;
}
