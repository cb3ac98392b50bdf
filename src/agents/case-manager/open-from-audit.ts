// The Case Manager's step after a sweep: decides, from the results the sweep has just
// stored, which vanpools get a case, which open cases are resolved and which still fail,
// by the same rules the Case Manager follows after an audit, without running the
// specialists a second time. The first emails of a new case are sent afterwards, by a job
// (src/cases/first-emails.ts).
import { type CaseRecord, changeCase } from "../../data/case-repository.js";
import type { NewCase } from "../../data/sweep-repository.js";
import { caseReason, decideAfterAudit } from "../../domain/case-lifecycle.js";
import { CHECK_KINDS } from "../../domain/specialist-result.js";
import type { AgentDeps } from "../deps.js";
import { describeFailure } from "./agent.js";
import { type CheckVerdicts, type KeptRider, withoutKept } from "./kept-riders.js";

export type AuditVerdicts = CheckVerdicts;

export interface CasePlan {
  open: NewCase[];
  /**
   * Vanpools with a rider who no longer works here: the Case Manager opens (or moves) their case and asks an
   * approver to remove them, which needs its turn (the cancellation request), so the sweep does not.
   */
  handOff: string[];
  /** Open cases whose vanpool now passes every check. */
  resolve: string[];
  /** Cases this same sweep opened before a crash: counted as its new cases again, their emails finished. */
  resumed: CaseRecord[];
  stillFailing: number;
  /** The exceptions that kept failing riders from a case (or from this sweep's count of them). */
  kept: string[];
}

/**
 * `open` holds the vanpools' open cases; `actor` names the sweep; `kept` the failing riders a live exception
 * covers, per vanpool: no case is opened for them.
 */
export function planCases(
  audits: AuditVerdicts[],
  open: Map<string, CaseRecord>,
  actor: string,
  kept: Map<string, KeptRider[]> = new Map(),
): CasePlan {
  const plan: CasePlan = { open: [], handOff: [], resolve: [], resumed: [], stillFailing: 0, kept: [] };
  for (const audit of audits) {
    const keptHere = kept.get(audit.vanpool_id) ?? [];
    plan.kept.push(...keptHere.map((k) => k.exception.exception_id));
    const current = open.get(audit.vanpool_id);
    if (current?.meta.opened_by === actor) plan.resumed.push(current);
    else if (current) {
      // An open case is decided on the facts: it resolves only when every rider passes.
      if (CHECK_KINDS.every((check) => (audit[check]?.verdict ?? "pass") === "pass"))
        plan.resolve.push(current.case_id);
      else if (current.status !== "pre_cancel" && withoutKept(audit, keptHere).employment?.verdict === "fail")
        plan.handOff.push(audit.vanpool_id);
      else plan.stillFailing++;
    } else {
      const decidedOn = withoutKept(audit, keptHere);
      const decision = decideAfterAudit(
        Object.fromEntries(CHECK_KINDS.map((check) => [check, decidedOn[check]?.verdict ?? "pass"])),
      );
      if (decision.kind === "open_case" && decision.status === "pre_cancel") plan.handOff.push(audit.vanpool_id);
      else if (decision.kind === "open_case") plan.open.push(newCase(decidedOn, decision.status));
    }
  }
  return plan;
}

function newCase(audit: AuditVerdicts, status: NewCase["status"]): NewCase {
  const failed = CHECK_KINDS.filter((check) => audit[check]?.verdict === "fail");
  const flagged = [...new Set(failed.flatMap((check) => audit[check]?.flagged ?? []))];
  return {
    vanpool_id: audit.vanpool_id,
    status,
    reason: caseReason(failed),
    failed_checks: failed,
    flagged,
    details: describeFailure(failed, flagged, status),
  };
}

export async function resolvePassingCase(
  deps: Pick<AgentDeps, "now" | "prisma">,
  caseId: string,
  actor: string,
): Promise<void> {
  const reason = "A new audit passes every check.";
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
