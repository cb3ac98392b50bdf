// Stores audits as verification runs with one specialist result per check: the
// evidence that "why did this case fail?" reads later.
import { randomUUID } from "node:crypto";
import type { SpecialistResult, Verdict } from "../domain/specialist-result.js";
import type { VanpoolAudit } from "../verification/audit.js";
import type { PrismaClient } from "./prisma.js";

export interface StoredRun {
  run_id: string;
  vanpool_id: string;
  case_id: string | null;
  trigger: string;
  verdict: Verdict;
  as_of: string;
  finished_at: Date;
  results: (SpecialistResult & { model: string })[];
}

export async function saveAudits(
  prisma: PrismaClient,
  audits: VanpoolAudit[],
  options: { trigger: string; caseIdByVanpool?: Map<string, string> },
): Promise<string[]> {
  const runs = audits.map((audit) => ({
    id: randomUUID(),
    vanpoolId: audit.vanpool_id,
    caseId: options.caseIdByVanpool?.get(audit.vanpool_id) ?? null,
    trigger: options.trigger,
    verdict: audit.verdict,
    policy: { ...audit.location.policy, ...audit.shift.policy },
    asOf: audit.as_of,
    startedAt: audit.started_at,
    finishedAt: audit.finished_at,
  }));
  const results = audits.flatMap((audit, i) =>
    [audit.location, audit.shift].map((result) => ({
      runId: runs[i]!.id,
      check: result.check,
      verdict: result.verdict,
      confidence: result.confidence,
      reasoning: result.reasoning,
      evidence: result.evidence as object[],
      flagged: result.flagged,
    })),
  );
  await prisma.$transaction([
    prisma.verificationRun.createMany({ data: runs }),
    prisma.specialistResult.createMany({ data: results }),
  ]);
  return runs.map((r) => r.id);
}

export async function findLatestRun(prisma: PrismaClient, vanpoolId: string): Promise<StoredRun | undefined> {
  const run = await prisma.verificationRun.findFirst({
    where: { vanpoolId },
    orderBy: { finishedAt: "desc" },
    include: { results: true },
  });
  if (!run) return undefined;
  return {
    run_id: run.id,
    vanpool_id: run.vanpoolId,
    case_id: run.caseId,
    trigger: run.trigger,
    verdict: run.verdict,
    as_of: run.asOf,
    finished_at: run.finishedAt,
    results: run.results.map((r) => ({
      check: r.check,
      verdict: r.verdict,
      confidence: r.confidence,
      reasoning: r.reasoning,
      evidence: r.evidence as SpecialistResult["evidence"],
      flagged: r.flagged,
      policy: run.policy as Record<string, number>,
      model: r.model,
    })),
  };
}
