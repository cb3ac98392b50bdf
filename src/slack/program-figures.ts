// The figures the digest and App Home report, read from the database.
import type { PrismaClient } from "../data/prisma.js";

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
  /** Cancellations a reviewer rejected (overrides) since the start. */
  reversals: number;
}

export async function programFigures(prisma: PrismaClient, since: Date): Promise<ProgramFigures> {
  const closed = await prisma.case.findMany({
    where: { status: { in: ["resolved", "cancelled"] }, resolvedAt: { gte: since } },
    select: { id: true, createdAt: true, resolvedAt: true },
  });
  const withDecision = new Set(
    (
      await prisma.approvalRequest.findMany({
        where: { caseId: { in: closed.map((c) => c.id) }, status: { in: ["approved", "edited", "rejected"] } },
        select: { caseId: true },
      })
    ).map((a) => a.caseId),
  );
  const durations = closed
    .map((c) => (c.resolvedAt!.getTime() - c.createdAt.getTime()) / 3_600_000)
    .sort((a, b) => a - b);
  const median =
    durations.length === 0
      ? null
      : durations.length % 2
        ? durations[(durations.length - 1) / 2]!
        : (durations[durations.length / 2 - 1]! + durations[durations.length / 2]!) / 2;
  const vanpoolChecks = await prisma.verificationRun.count({ where: { finishedAt: { gte: since } } });
  const automated = closed.filter((c) => !withDecision.has(c.id)).length;
  return {
    closedCases: closed.length,
    automationRate: closed.length ? automated / closed.length : null,
    medianHoursToResolution: median,
    vanpoolChecks,
    hoursSaved: (vanpoolChecks * MANUAL_MINUTES_PER_VANPOOL_CHECK + automated * MANUAL_MINUTES_PER_CASE) / 60,
    reversals: await prisma.approvalRequest.count({ where: { kind: "cancellation", status: "rejected" } }),
  };
}
