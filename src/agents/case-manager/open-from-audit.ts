// The Case Manager's step after a sweep: decides, from the results the sweep has just
// stored, which vanpools get a case, which open cases are resolved and which still fail,
// by the same rules the Case Manager follows after an audit, without running the
// specialists a second time. The first emails of a new case are sent afterwards, by a job
// (src/cases/first-emails.ts).
import { type CaseRecord, changeCase } from "../../data/case-repository.js";
import type { NewCase } from "../../data/sweep-repository.js";
import { caseReason, decideAfterAudit } from "../../domain/case-lifecycle.js";
import type { CheckKind, Verdict } from "../../domain/specialist-result.js";
import type { AgentDeps } from "../deps.js";
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
