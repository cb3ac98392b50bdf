// One page of a sweep: audits its vanpools (those a crashed attempt has not already
// audited), resolves open cases that now pass, then opens the new cases in bulk from the
// stored results, in the transaction that finishes the page and queues each new case's
// first emails as a job. Safe to run again: a finished page is skipped.

import { findKeptRiders } from "../agents/case-manager/kept-riders.js";
import {
  type AuditVerdicts,
  emailsOnOpening,
  planCases,
  resolvePassingCase,
} from "../agents/case-manager/open-from-audit.js";
import type { AgentDeps } from "../agents/deps.js";
import type { SqlExecutor } from "../data/job-executor.js";
import {
  findOpenCases,
  isPageFinished,
  openCasesAndFinishPage,
  type PageResult,
  vanpoolsAuditedBy,
} from "../data/sweep-repository.js";
import { findLatestResultsOf } from "../data/verification-repository.js";
import { auditAndStore, mapWithConcurrency, notChecked } from "../verification/audit-service.js";

export interface SweepPageJob {
  sweepId: string;
  page: number;
  vanpoolIds: string[];
}

/** The first emails of one page's new cases: one job per page, not per case, keeps pg-boss's queue short. */
export interface SweepOutreachJob {
  sweepId: string;
  page: number;
  caseIds: string[];
}

/** The verification-run trigger and case actor of a sweep: how its work is found again after a crash. */
export const sweepTrigger = (sweepId: string) => `sweep:${sweepId}`;

export interface SweepPageDeps {
  agent: AgentDeps;
  /** Open cases resolved at once. */
  concurrency: number;
  /** Queues the first emails of the page's new cases inside the page's transaction. */
  queueOutreach(db: SqlExecutor, job: SweepOutreachJob): Promise<void>;
  /** Queues the Case Manager's audit of a vanpool with a rider who no longer works here (CasePlan.handOff). */
  queueHandOff(db: SqlExecutor, vanpoolId: string, sweepId: string): Promise<void>;
}

/** Runs the page; returns the cases whose first emails it queued (none when the page was done already). */
export async function runSweepPage(deps: SweepPageDeps, job: SweepPageJob): Promise<string[]> {
  const { prisma } = deps.agent;
  if (await isPageFinished(prisma, job.sweepId, job.page)) return [];
  const trigger = sweepTrigger(job.sweepId);
  const before = await vanpoolsAuditedBy(prisma, trigger, job.vanpoolIds);
  const toAudit = job.vanpoolIds.filter((id) => !before.has(id));
  const verdicts: AuditVerdicts[] = await storedVerdicts(deps.agent, [...before]);
  const audited = await auditAndStore(deps.agent, toAudit, trigger);
  verdicts.push(...audited.audits);
  const plan = planCases(
    verdicts,
    await findOpenCases(
      prisma,
      verdicts.map((v) => v.vanpool_id),
    ),
    trigger,
    await findKeptRiders(prisma, verdicts, deps.agent.now()),
  );
  const result: PageResult = {
    checked: verdicts.length,
    newCases: plan.resumed.map((c) => c.case_id),
    stillFailing: plan.stillFailing,
    resolved: 0,
    // A vanpool that could not be checked is counted here and checked again by the next sweep.
    errors: audited.errors.map((e) => e.message),
    kept: plan.kept,
  };
  await mapWithConcurrency(plan.resolve, deps.concurrency, async (caseId) => {
    try {
      await resolvePassingCase(deps.agent, caseId, trigger);
      result.resolved++;
    } catch (error) {
      result.errors.push(`${caseId}: ${(error as Error).message}`);
    }
  });
  const resumed = plan.resumed.filter((c) => emailsOnOpening(c.status)).map((c) => c.case_id);
  let outreach: string[] = [];
  await openCasesAndFinishPage(prisma, {
    sweepId: job.sweepId,
    page: job.page,
    cases: plan.open,
    actor: trigger,
    result,
    now: deps.agent.now(),
    queue: async (db, opened) => {
      outreach = [...resumed, ...opened.filter((c) => emailsOnOpening(c.status)).map((c) => c.case_id)];
      if (outreach.length > 0)
        await deps.queueOutreach(db, { sweepId: job.sweepId, page: job.page, caseIds: outreach });
      for (const vanpoolId of plan.handOff) await deps.queueHandOff(db, vanpoolId, job.sweepId);
    },
  });
  return outreach;
}

/** The verdicts a crashed attempt of this page stored, read back in one query. */
async function storedVerdicts(deps: Pick<AgentDeps, "pool">, vanpoolIds: string[]): Promise<AuditVerdicts[]> {
  const latest = await findLatestResultsOf(deps.pool, vanpoolIds);
  return vanpoolIds.flatMap((vanpoolId) => {
    const { location, shift, employment } = latest.get(vanpoolId) ?? {};
    return location && shift ? [{ vanpool_id: vanpoolId, location, shift, employment }] : [];
  });
}

/**
 * A page whose last attempt failed (not one vanpool's checks: those are counted by runSweepPage) is finished
 * with each of its vanpools counted as not checked, so its sweep still ends and says so; the next sweep checks
 * them again.
 */
export async function finishPageNotChecked(deps: SweepPageDeps, job: SweepPageJob, error: Error): Promise<void> {
  const why = `its page of the sweep failed on every try (${error.message})`;
  await openCasesAndFinishPage(deps.agent.prisma, {
    sweepId: job.sweepId,
    page: job.page,
    cases: [],
    actor: sweepTrigger(job.sweepId),
    result: {
      checked: 0,
      newCases: [],
      stillFailing: 0,
      resolved: 0,
      errors: job.vanpoolIds.map((id) => notChecked(id, why).message),
      kept: [],
    },
    now: deps.agent.now(),
    queue: async () => {},
  });
}
