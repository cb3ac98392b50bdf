// `audit` and `audit-report`: run the checks, then let the Case Manager open or advance cases.
import type { AgentDeps } from "../agents/deps.js";
import { loadSettings, seedIfEmpty, withContext } from "../app/context.js";
import { log } from "../app/log.js";
import type { CaseManagerResult } from "../cases/case-manager-run.js";
import { createCaseWorkflow } from "../cases/case-workflow.js";
import { findOpenCase } from "../data/case-repository.js";
import { type AuditSummary, auditAllVanpools, latestAudit } from "../verification/audit-service.js";
import { out, UsageError } from "./command-kit.js";
import { formatWorkflowResult } from "./decision-commands.js";
import { formatAudit, formatSummary, progressBar } from "./format.js";

export async function auditCommand(vanpool: string | undefined, options: { all?: boolean; json?: boolean }) {
  if (options.all && vanpool) throw new UsageError("`audit --all` takes no vanpool id.");
  if (!options.all && !vanpool) throw new UsageError("Give one vanpool id (like VP-101) or --all.");
  if (vanpool && !/^VP-\d+$/i.test(vanpool))
    throw new UsageError(`"${vanpool}" is not a vanpool id; they look like VP-101.`);
  const settings = loadSettings();
  await withContext(
    settings,
    async (ctx) => {
      if (!vanpool) {
        const { formatSweep, runSweepAndWait } = await import("./sweep-command.js");
        const totals = await runSweepAndWait(ctx, { log, onProgress: options.json ? undefined : progressBar() });
        out(options.json ? `${JSON.stringify(totals, null, 2)}\n` : formatSweep(totals, settings.timeZone));
        return;
      }
      // The Case Manager runs both specialists (and stores their results), then opens or advances the case.
      const caseResult = await createCaseWorkflow(ctx.agentDeps).auditVanpool(vanpool.toUpperCase());
      const audit = await latestAudit(ctx.agentDeps.prisma, caseResult.vanpool_id);
      out(
        options.json
          ? `${JSON.stringify({ ...audit, case: caseResult }, null, 2)}\n`
          : `${formatAudit(audit)}\n\nCase: ${formatWorkflowResult(caseResult)}\n`,
      );
    },
    { jobs: "worker" },
  );
}

/** One audit of every vanpool, opening cases, printed as a table. */
export async function auditReportCommand(): Promise<void> {
  const settings = loadSettings();
  await withContext(
    settings,
    async ({ db, auditDeps, agentDeps }) => {
      log(
        `Pool Patrol on ${db.kind === "embedded" ? `the embedded PostgreSQL (${settings.dataDir})` : "the PostgreSQL at DATABASE_URL"}.`,
      );
      await seedIfEmpty({ db, agentDeps });
      const summary = await auditAllVanpools(auditDeps, { trigger: "startup_audit", onProgress: progressBar() });
      const cases = await openCasesFor(agentDeps, summary);
      out(
        `${formatSummary(summary)}\n${formatCases(cases)}\nDetails: npx poolpatrol audit VP-101 (any id above), npx poolpatrol case show CASE-…, npx poolpatrol approvals.\n`,
      );
    },
    { jobs: "worker" },
  );
}

/** After a bulk audit, the Case Manager opens (or advances) a case for every vanpool that needs one. */
async function openCasesFor(deps: AgentDeps, summary: AuditSummary): Promise<CaseManagerResult[]> {
  const workflow = createCaseWorkflow(deps);
  const results: CaseManagerResult[] = [];
  for (const item of summary.attention) {
    const open = await findOpenCase(deps.prisma, item.vanpool_id);
    if (!open) results.push(await workflow.auditVanpool(item.vanpool_id));
  }
  return results;
}

function formatCases(cases: CaseManagerResult[]): string {
  if (cases.length === 0) return "";
  return `\nCases opened:\n${cases.map((c) => `  ${c.case_id ?? "-"}  ${c.vanpool_id.padEnd(8)} ${c.status ?? c.outcome}`).join("\n")}\n`;
}
