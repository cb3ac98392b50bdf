// The program's figures for a window, read from the database: the one definition the digest, the
// report (Slack and CLI), App Home, the web dashboard and the Case Manager's answers share.
import type { CaseReason } from "../domain/case-lifecycle.js";
import { casesWithHumanDecision, countReversedCancellations } from "./approval-repository.js";
import { listCasesClosedSince, listCasesOpenedBetween } from "./case-repository.js";
import { countOutboundEmails } from "./email-repository.js";
import { countExceptions } from "./exception-repository.js";
import type { PrismaClient } from "./prisma.js";
import { countRunsFinishedSince } from "./verification-repository.js";

/** Estimates used for "audit hours saved": minutes a person spends per manual vanpool check and per case worked by hand. */
export const MANUAL_MINUTES_PER_VANPOOL_CHECK = 15;
export const MANUAL_MINUTES_PER_CASE = 45;
/** The seeds' baseline: about 2 FTE of auditing, i.e. 80 hours a week. */
export const BASELINE_HOURS_PER_WEEK = 80;

export interface FigureCase {
  case_id: string;
  vanpool_id: string;
  reason: CaseReason;
}

export interface ClosedCase extends FigureCase {
  status: "resolved" | "cancelled";
  /** Closed without any human decision. */
  automated: boolean;
  hours_to_close: number;
}

export interface ProgramFigures {
  /** Cases opened in the window, the earliest first. */
  opened: FigureCase[];
  /** Cases closed in the window, the earliest closed first. */
  closed: ClosedCase[];
  closedCases: number;
  /** Closed without any human decision. */
  automationRate: number | null;
  medianHoursToResolution: number | null;
  p90HoursToResolution: number | null;
  vanpoolChecks: number;
  hoursSaved: number;
  /** Hours saved over the 2-FTE baseline's hours in the window (a window shorter than a week counts as one). */
  baselineShare: number;
  /** Cancellations a reviewer rejected or undid in the window. */
  reversals: number;
  /** Exceptions (riders kept while failing a check) granted in the window. */
  exceptionsGranted: number;
  emails: { sent: number; failed: number; bounced: number };
}

/** The figures of [since, until); without `until`, everything from `since` on. */
export async function programFigures(prisma: PrismaClient, since: Date, until?: Date): Promise<ProgramFigures> {
  const [opened, closed, vanpoolChecks, reversals, exceptions, emails] = await Promise.all([
    listCasesOpenedBetween(prisma, since, until),
    listCasesClosedSince(prisma, since, until),
    countRunsFinishedSince(prisma, since, until),
    countReversedCancellations(prisma, since, until),
    countExceptions(prisma, { since, until, soon: since }),
    countOutboundEmails(prisma, since, until),
  ]);
  const withDecision = await casesWithHumanDecision(
    prisma,
    closed.map((c) => c.case_id),
  );
  const closedCases: ClosedCase[] = closed.map((c) => ({
    case_id: c.case_id,
    vanpool_id: c.vanpool_id,
    reason: c.reason,
    status: c.status as ClosedCase["status"],
    automated: !withDecision.has(c.case_id),
    hours_to_close: (c.resolved_at!.getTime() - c.created_at.getTime()) / 3_600_000,
  }));
  const automated = closedCases.filter((c) => c.automated).length;
  const hours = closedCases.map((c) => c.hours_to_close).sort((a, b) => a - b);
  const hoursSaved = (vanpoolChecks * MANUAL_MINUTES_PER_VANPOOL_CHECK + automated * MANUAL_MINUTES_PER_CASE) / 60;
  const weeks = Math.max(1, ((until ?? new Date()).getTime() - since.getTime()) / (7 * 86_400_000));
  return {
    opened: opened.map((c) => ({ case_id: c.case_id, vanpool_id: c.vanpool_id, reason: c.reason })),
    closed: closedCases,
    closedCases: closedCases.length,
    automationRate: closedCases.length ? automated / closedCases.length : null,
    medianHoursToResolution: percentile(hours, 0.5),
    p90HoursToResolution: percentile(hours, 0.9),
    vanpoolChecks,
    hoursSaved,
    baselineShare: hoursSaved / (BASELINE_HOURS_PER_WEEK * weeks),
    reversals,
    exceptionsGranted: exceptions.granted,
    emails,
  };
}

/** The p-th percentile of sorted values, interpolated between neighbours (the median at 0.5). */
function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = (sorted.length - 1) * p;
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}
