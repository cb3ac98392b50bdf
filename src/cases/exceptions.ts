// Exceptions (docs/exceptions.md): a person's decision to keep a failing rider, granted per rider and failing
// check on the facts as they are now, so later audits and sweeps leave that rider alone while it holds.
// Listed and revoked from Slack and the command line.
import type { AgentDeps } from "../agents/deps.js";
import { getCase } from "../data/case-repository.js";
import { grantExceptions, listLiveExceptions, revokeException } from "../data/exception-repository.js";
import { findLatestResults } from "../data/verification-repository.js";
import { type ExceptionChoice, exceptionExpiry, type RiderException } from "../domain/exceptions.js";
import type { CheckKind } from "../domain/specialist-result.js";

export type { ExceptionChoice };

/** A decision taken without the form (an older card, a script): recorded as the program manager's. */
export const DEFAULT_CHOICE: ExceptionChoice = { reason: "program_manager", note: "" };

export function createExceptions(deps: Pick<AgentDeps, "now" | "prisma" | "settings">) {
  /**
   * Grants an exception to each kept rider for each check they fail in the vanpool's latest results (the case's
   * failed checks when the results do not name them). `decision` names what granted it (keep, keep_everyone…).
   */
  async function grantForKept(input: {
    caseId: string;
    employeeIds: readonly string[];
    actor: string;
    decision: string;
    choice?: ExceptionChoice;
  }): Promise<RiderException[]> {
    if (input.employeeIds.length === 0) return [];
    const record = await getCase(deps.prisma, input.caseId);
    const latest = await findLatestResults(deps.prisma, record.vanpool_id);
    const failing = (employeeId: string): CheckKind[] => {
      const named = record.failed_checks.filter(
        (check) => latest[check]?.verdict === "fail" && latest[check]?.flagged.includes(employeeId),
      );
      return named.length ? named : record.failed_checks;
    };
    const choice = input.choice ?? DEFAULT_CHOICE;
    const now = deps.now();
    return grantExceptions(deps.prisma, {
      caseId: record.case_id,
      vanpoolId: record.vanpool_id,
      riders: input.employeeIds.map((id) => ({ employee_id: id, checks: failing(id) })),
      reason: choice.reason,
      note: choice.note,
      grantedBy: input.actor,
      decision: input.decision,
      now,
      expiresAt: exceptionExpiry(now, deps.settings.exceptionDays, choice.days),
    });
  }

  return {
    grantForKept,
    listLive: () => listLiveExceptions(deps.prisma, deps.now()),
    revoke: (exceptionId: string, actor: string) =>
      revokeException(deps.prisma, { exceptionId, actor, now: deps.now() }),
  };
}

export type Exceptions = ReturnType<typeof createExceptions>;
