// The re-audits of an open case (a reply's, a timeout's, an import's, a person's), each recorded once per key as an
// event naming the runs it made, so the case thread can tell each one and its result once (thread-story.ts).
import type { CaseStatus } from "../domain/case-lifecycle.js";
import type { ReAuditCause } from "../domain/re-audit-pacing.js";
import { recordEvent } from "./audit-log.js";
import type { PrismaClient } from "./prisma.js";
import { findResultsOfRuns, type LatestResults } from "./verification-repository.js";

export const RE_AUDITED = "case.re_audited";

export interface ReAuditRecord {
  /** What it was for (a reply, a timeout, a job): one record per key. */
  key: string;
  at: Date;
  cause: ReAuditCause;
  /** The checks that failed on the case before it. */
  failed_before: string[];
  results: LatestResults;
  /** Whether it counted toward the limit; null for an audit asked for by hand or by an import (never counted). */
  counted: boolean | null;
  /** Re-audits counted after it, and from when a reply's counts again. */
  count: number;
  counts_from: Date | null;
  /** Where the case stood after it. */
  status: CaseStatus;
}

type Details = Omit<ReAuditRecord, "key" | "at" | "results" | "counts_from"> & {
  key: string;
  runs: string[];
  counts_from: string | null;
};

/** Records a re-audit once per key: a retried job or a reply read again adds nothing. */
export async function recordReAudit(
  prisma: PrismaClient,
  input: Omit<ReAuditRecord, "results"> & { caseId: string; runs: string[] },
): Promise<void> {
  const { caseId, at, ...rest } = input;
  const already = await prisma.auditEvent.findFirst({
    where: { subjectType: "case", subjectId: caseId, action: RE_AUDITED, details: { path: ["key"], equals: rest.key } },
    select: { id: true },
  });
  if (already) return;
  const details: Details = { ...rest, counts_from: rest.counts_from?.toISOString() ?? null };
  await recordEvent(prisma, {
    actor: "agent:case_manager",
    action: RE_AUDITED,
    subjectType: "case",
    subjectId: caseId,
    at,
    details: { ...details },
  });
}

/** The case's re-audits, oldest first, each with the results of its runs. */
export async function listReAudits(prisma: PrismaClient, caseId: string): Promise<ReAuditRecord[]> {
  const events = await prisma.auditEvent.findMany({
    where: { subjectType: "case", subjectId: caseId, action: RE_AUDITED },
    orderBy: { id: "asc" },
  });
  return Promise.all(
    events.map(async (event) => {
      const { runs, counts_from, ...details } = event.details as unknown as Details;
      return {
        ...details,
        at: event.createdAt,
        counts_from: counts_from ? new Date(counts_from) : null,
        results: await findResultsOfRuns(prisma, runs),
      };
    }),
  );
}
