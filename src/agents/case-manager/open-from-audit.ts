// The Case Manager's step after a sweep: decides, from the results the sweep has just
// stored, which vanpools get a case, which open cases are resolved and which still fail,
// by the same rules the Case Manager follows after an audit, without running the
// specialists a second time. The first emails of a new case are sent afterwards, by a job.
import { finishAgentRun, startAgentRun } from "../../data/agent-run-repository.js";
import { type CaseRecord, changeCase, getCase } from "../../data/case-repository.js";
import type { NewCase } from "../../data/sweep-repository.js";
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

export interface CasePlan {
  open: NewCase[];
  /** Open cases whose vanpool now passes both checks. */
  resolve: string[];
  /** Cases this same sweep opened before a crash: counted as its new cases again, their emails finished. */
  resumed: CaseRecord[];
  stillFailing: number;
}

const CHECKS: CheckKind[] = ["location", "shift"];

/** `open` holds the vanpools' open cases; `actor` names the sweep. */
export function planCases(audits: AuditVerdicts[], open: Map<string, CaseRecord>, actor: string): CasePlan {
  const plan: CasePlan = { open: [], resolve: [], resumed: [], stillFailing: 0 };
  for (const audit of audits) {
    const verdicts = { location: audit.location.verdict, shift: audit.shift.verdict };
    const current = open.get(audit.vanpool_id);
    if (current?.meta.opened_by === actor) plan.resumed.push(current);
    else if (current) {
      if (verdicts.location === "pass" && verdicts.shift === "pass") plan.resolve.push(current.case_id);
      else plan.stillFailing++;
    } else {
      const decision = decideAfterAudit(verdicts);
      if (decision.kind === "open_case") plan.open.push(newCase(audit, decision.status));
    }
  }
  return plan;
}

function newCase(audit: AuditVerdicts, status: NewCase["status"]): NewCase {
  const failed = CHECKS.filter((check) => audit[check].verdict === "fail");
  const flagged = [...new Set(failed.flatMap((check) => audit[check].flagged))];
  return {
    vanpool_id: audit.vanpool_id,
    status,
    reason: caseReason(failed),
    failed_checks: failed,
    flagged,
    details: describeFailure(failed, flagged, status),
  };
}

export async function resolvePassingCase(deps: AgentDeps, caseId: string, actor: string): Promise<void> {
  const reason = "A new audit passes both checks.";
  await changeCase(deps.prisma, caseId, {
    status: "resolved",
    outcome: "resolved",
    why: reason,
    meta: { resolution: reason },
    actor,
    now: deps.now(),
  });
}

/** A new case emails its flagged riders when it opens waiting for their reply. */
export const emailsOnOpening = (status: string) => status === "pending_reply";

/**
 * The first email to the flagged riders of a case a sweep opened, if it still waits for
 * their reply. Each email is keyed, so running this again (a retried job) sends nothing twice.
 * With the rules model, the Outreach Agent's one step for it (send_email to each recipient,
 * its drafts unchanged) is carried out here as a recorded run: the same drafts, checks and
 * keys, without a graph to checkpoint. A configured model runs the agent.
 */
export async function sendInitialEmails(deps: AgentDeps, caseId: string): Promise<void> {
  const input = { case_id: caseId, purpose: "initial" as const };
  if (!createAgentModel("outreach", deps.settings, outreachRules).isRules) {
    if (emailsOnOpening((await getCase(deps.prisma, caseId)).status)) await runOutreach(deps, input);
    return;
  }
  const { record, task } = await prepareOutreach(deps, input);
  if (!emailsOnOpening(record.status)) return;
  const plan = outreachRules({ task: { ...task }, called: [], results: [] });
  if (!Array.isArray(plan)) return;
  const runId = await startAgentRun(deps.prisma, {
    agent: "outreach",
    model: "rules",
    caseId,
    vanpoolId: record.vanpool_id,
    now: deps.now(),
    instanceId: deps.jobs?.instanceId,
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
