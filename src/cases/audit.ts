// Audits one vanpool under its lease: the Case Manager opens, advances or closes its case from the checks.
import { randomUUID } from "node:crypto";
import type { AgentDeps } from "../agents/deps.js";
import { withLease } from "../data/case-lease.js";
import { type CaseRecord, findOpenCase } from "../data/case-repository.js";
import { findThreadForCase } from "../data/email-repository.js";
import { findEmployeeContacts } from "../data/employee-repository.js";
import { findVanpoolSnapshot } from "../data/vanpool-repository.js";
import type { ReAuditCause } from "../domain/re-audit-pacing.js";
import { notFound } from "../errors.js";
import type { CaseManagerResult, CaseManagerRunner } from "./case-manager-run.js";

export function createAudit(
  deps: Pick<AgentDeps, "pool" | "prisma" | "settings">,
  { runCaseManager, taskCase, changed }: CaseManagerRunner,
) {
  /**
   * `because`: why an open case is audited again (an import, a person), told in its thread; `key` names the audit
   * (its job), so a retried job tells it once. `open_before`: the case open when it started, under the lease, so
   * the caller tells a case this audit opened from one another audit opened meanwhile.
   */
  async function auditVanpool(
    vanpoolId: string,
    options: { because?: ReAuditCause; key?: string } = {},
  ): Promise<CaseManagerResult & { open_before: string | null }> {
    if (!(await findVanpoolSnapshot(deps.prisma, vanpoolId)))
      throw notFound(`No vanpool ${vanpoolId}. Vanpool ids look like VP-101.`);
    return withLease(deps, `vanpool:${vanpoolId}`, async () => {
      const open = await findOpenCase(deps.prisma, vanpoolId);
      const missing = open ? await firstEmailsMissing(open) : false;
      // Audits run on a thread of their own: they never disturb a case waiting on a person.
      const result = await runCaseManager(
        {
          task: "audit",
          vanpool_id: vanpoolId,
          case: open ? taskCase(open) : null,
          ...(missing ? { first_emails_missing: true } : {}),
        },
        `audit:${vanpoolId}:${randomUUID()}`,
        options.key,
        options.because,
      );
      await changed(result.case_id);
      return { ...result, open_before: open?.case_id ?? null };
    });
  }

  /**
   * A case opened by an audit that stopped before every flagged rider was written to (its run failed): the next
   * audit (the job's retry, the Re-audit button) sends the first emails by key, so only the missing ones go out.
   */
  async function firstEmailsMissing(record: CaseRecord): Promise<boolean> {
    if (record.status !== "pending_reply" || record.re_audit_count > 0) return false;
    const thread = await findThreadForCase(deps.prisma, record.case_id);
    const writtenTo = new Set(
      (thread?.messages ?? [])
        .filter((m) => m.direction === "outbound")
        .flatMap((m) => m.to.map((a) => a.toLowerCase())),
    );
    const flagged = await findEmployeeContacts(deps.prisma, record.flagged);
    return flagged.some((e) => !writtenTo.has(e.email.toLowerCase()));
  }

  return { auditVanpool };
}
