// The Case Manager's step after a sweep: opens or advances a vanpool's case from the
// results the sweep has just stored, by the same rules the Case Manager follows after
// an audit, without running the specialists a second time.
import { finishAgentRun, startAgentRun } from "../../data/agent-run-repository.js";
import { type CaseRecord, changeCase, openCase } from "../../data/case-repository.js";
import { caseReason, decideAfterAudit } from "../../domain/case-lifecycle.js";
import type { CheckKind, Verdict } from "../../domain/specialist-result.js";
import type { AgentDeps } from "../deps.js";
import { createAgentModel } from "../models/index.js";
import { OUTREACH_PROMPT_VERSION, outreachRules } from "../outreach/agent.js";
import { prepareOutreach, runOutreach } from "../outreach/run-outreach.js";
import { createOutreachTools } from "../outreach/tools.js";
import { describeFailure } from "./agent.js";

export interface AuditVerdicts {
  vanpool_id: string;
  location: { verdict: Verdict; flagged: string[] };
  shift: { verdict: Verdict; flagged: string[] };
}

export type CaseStep =
  | { kind: "no_case" }
  | { kind: "new_case"; case_id: string }
  | { kind: "still_failing"; case_id: string }
  | { kind: "resolved"; case_id: string };

const CHECKS: CheckKind[] = ["location", "shift"];

/**
 * `open` is the vanpool's open case, if any. `actor` names the sweep: a case this same
 * actor opened before a crash is finished (its first email sent once) rather than counted
 * as an older case, so a resumed sweep neither duplicates nor drops anything.
 */
export async function applyAuditToCase(
  deps: AgentDeps,
  audit: AuditVerdicts,
  open: CaseRecord | undefined,
  actor: string,
): Promise<CaseStep> {
  const verdicts = { location: audit.location.verdict, shift: audit.shift.verdict };
  if (open && open.meta.opened_by !== actor) {
    if (verdicts.location === "pass" && verdicts.shift === "pass") {
      const reason = "A new audit passes both checks.";
      await changeCase(deps.prisma, open.case_id, {
        status: "resolved",
        outcome: "resolved",
        why: reason,
        meta: { resolution: reason },
        actor,
        now: deps.now(),
      });
      return { kind: "resolved", case_id: open.case_id };
    }
    return { kind: "still_failing", case_id: open.case_id };
  }
  const decision = decideAfterAudit(verdicts);
  if (decision.kind === "no_case") return { kind: "no_case" };
  const record = open ?? (await openFromVerdicts(deps, audit, decision.status, actor));
  // Each email is keyed, so running this again after a crash sends nothing twice.
  if (decision.email && record.status === "pending_reply") await sendInitialEmails(deps, record.case_id);
  return { kind: "new_case", case_id: record.case_id };
}

function openFromVerdicts(
  deps: AgentDeps,
  audit: AuditVerdicts,
  status: "pending_reply" | "hitl_review",
  actor: string,
): Promise<CaseRecord> {
  const failed = CHECKS.filter((check) => audit[check].verdict === "fail");
  const flagged = [...new Set(failed.flatMap((check) => audit[check].flagged))];
  return openCase(deps.prisma, {
    vanpool_id: audit.vanpool_id,
    status,
    reason: caseReason(failed),
    failed_checks: failed,
    flagged,
    details: describeFailure(failed, flagged, status),
    actor,
    now: deps.now(),
  });
}

/**
 * The first email to the flagged riders. With the rules model, the Outreach Agent's one
 * step for it (send_email to each recipient, its drafts unchanged) is carried out here as
 * a recorded run: the same drafts, checks and keys, without a graph to checkpoint, which
 * cost about ten times the rest of opening a case. A configured model runs the agent.
 */
async function sendInitialEmails(deps: AgentDeps, caseId: string): Promise<void> {
  const input = { case_id: caseId, purpose: "initial" as const };
  if (!createAgentModel("outreach", deps.settings, outreachRules).isRules) {
    await runOutreach(deps, input);
    return;
  }
  const { record, task } = await prepareOutreach(deps, input);
  const plan = outreachRules({ task: { ...task }, called: [], results: [] });
  if (!Array.isArray(plan)) return;
  const runId = await startAgentRun(deps.prisma, {
    agent: "outreach",
    model: "rules",
    caseId,
    vanpoolId: record.vanpool_id,
    now: deps.now(),
    input: { prompt_version: OUTREACH_PROMPT_VERSION, ...task },
  });
  const { sendEmail } = createOutreachTools(deps);
  const failures: string[] = [];
  for (const call of plan) {
    const answer = JSON.parse(
      String(await sendEmail.invoke(sendEmail.schema.parse(call.args), { configurable: { agent_run_id: runId } })),
    ) as {
      error?: string;
    };
    if (answer.error) failures.push(answer.error);
  }
  await finishAgentRun(deps.prisma, runId, {
    status: failures.length ? "failed" : "succeeded",
    output: { final: `Sent ${plan.length - failures.length} initial email(s).` },
    error: failures.join("; ") || undefined,
    now: deps.now(),
  });
  if (failures.length) throw new Error(failures.join("; "));
}
