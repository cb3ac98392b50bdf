// Audits one vanpool under its lease: the Case Manager opens, advances or closes its case from the checks.
import { randomUUID } from "node:crypto";
import type { AgentDeps } from "../agents/deps.js";
import { withLease } from "../data/case-lease.js";
import { findOpenCase } from "../data/case-repository.js";
import { findVanpoolSnapshot } from "../data/vanpool-repository.js";
import { notFound } from "../errors.js";
import type { CaseManagerResult, CaseManagerRunner } from "./case-manager-run.js";

export function createAudit(deps: AgentDeps, { runCaseManager, taskCase, changed }: CaseManagerRunner) {
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

  return { auditVanpool };
}
