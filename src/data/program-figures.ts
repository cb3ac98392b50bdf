// The figures the digest and App Home report, read from the database.
import { casesWithHumanDecision, countReversedCancellations } from "./approval-repository.js";
import { listCasesClosedSince } from "./case-repository.js";
import type { PrismaClient } from "./prisma.js";
import { countRunsFinishedSince } from "./verification-repository.js";

/** Estimates used for "audit hours saved": minutes a person spends per manual vanpool check and per case worked by hand. */
export const MANUAL_MINUTES_PER_VANPOOL_CHECK = 15;
export const MANUAL_MINUTES_PER_CASE = 45;
/** The seeds' baseline: about 2 FTE of auditing, i.e. 80 hours a week. */
export const BASELINE_HOURS_PER_WEEK = 80;

export interface ProgramFigures {
  closedCases: number;
  /** Closed without any human decision. */
  automationRate: number | null;
  medianHoursToResolution: number | null;
  vanpoolChecks: number;
  hoursSaved: number;
  /** Cancellations a reviewer rejected or undid (overrides) since the start. */
  reversals: number;
}

export async function programFigures(prisma: PrismaClient, since: Date): Promise<ProgramFigures> {
  const closed = await listCasesClosedSince(prisma, since);
  const [withDecision, vanpoolChecks, reversals] = await Promise.all([
    casesWithHumanDecision(
      prisma,
      closed.map((c) => c.case_id),
    ),
    countRunsFinishedSince(prisma, since),
    countReversedCancellations(prisma),
  ]);
  const automated = closed.filter((c) => !withDecision.has(c.case_id)).length;
  return {
    closedCases: closed.length,
    automationRate: closed.length ? automated / closed.length : null,
    medianHoursToResolution: median(closed.map((c) => (c.resolved_at!.getTime() - c.created_at.getTime()) / 3_600_000)),
    vanpoolChecks,
    hoursSaved: (vanpoolChecks * MANUAL_MINUTES_PER_VANPOOL_CHECK + automated * MANUAL_MINUTES_PER_CASE) / 60,
    reversals,
  };
}

function median(values: number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
