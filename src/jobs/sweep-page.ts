// One page of a sweep: audits its vanpools (those a crashed attempt has not already
// audited), then opens or advances their cases from the stored results, a bounded
// number at a time. Safe to run again: a finished page is skipped, a half-done one
// picks up where it stopped.

import { type AuditVerdicts, applyAuditToCase } from "../agents/case-manager/open-from-audit.js";
import type { AgentDeps } from "../agents/deps.js";
import {
  findOpenCases,
  finishPage,
  isPageFinished,
  type PageResult,
  vanpoolsAuditedBy,
} from "../data/sweep-repository.js";
import { findLatestResults } from "../data/verification-repository.js";
import { auditAndStore, mapWithConcurrency } from "../verification/audit-service.js";

export interface SweepPageJob {
  sweepId: string;
  page: number;
  vanpoolIds: string[];
}

/** The verification-run trigger and case actor of a sweep: how its work is found again after a crash. */
export const sweepTrigger = (sweepId: string) => `sweep:${sweepId}`;

export async function runSweepPage(deps: AgentDeps, concurrency: number, job: SweepPageJob): Promise<void> {
  const { prisma } = deps;
  if (await isPageFinished(prisma, job.sweepId, job.page)) return;
  const trigger = sweepTrigger(job.sweepId);
  const before = await vanpoolsAuditedBy(prisma, trigger, job.vanpoolIds);
  const audits = await auditAndStore(
    deps,
    job.vanpoolIds.filter((id) => !before.has(id)),
    trigger,
  );
  const verdicts: AuditVerdicts[] = [...audits, ...(await storedVerdicts(deps, [...before]))];
  const open = await findOpenCases(
    prisma,
    verdicts.map((v) => v.vanpool_id),
  );
  const result: PageResult = { checked: verdicts.length, newCases: [], stillFailing: 0, resolved: 0, errors: [] };
  const needCase = verdicts.filter(
    (v) => open.has(v.vanpool_id) || v.location.verdict !== "pass" || v.shift.verdict !== "pass",
  );
  await mapWithConcurrency(needCase, concurrency, async (audit) => {
    try {
      const step = await applyAuditToCase(deps, audit, open.get(audit.vanpool_id), trigger);
      if (step.kind === "new_case") result.newCases.push(step.case_id);
      else if (step.kind === "still_failing") result.stillFailing++;
      else if (step.kind === "resolved") result.resolved++;
    } catch (error) {
      result.errors.push(`${audit.vanpool_id}: ${(error as Error).message}`);
    }
  });
  result.newCases.sort();
  await finishPage(prisma, job.sweepId, job.page, result, deps.now());
}

async function storedVerdicts(deps: AgentDeps, vanpoolIds: string[]): Promise<AuditVerdicts[]> {
  const verdicts: AuditVerdicts[] = [];
  for (const vanpoolId of vanpoolIds) {
    const { location, shift } = await findLatestResults(deps.prisma, vanpoolId);
    if (location && shift) verdicts.push({ vanpool_id: vanpoolId, location, shift });
  }
  return verdicts;
}
