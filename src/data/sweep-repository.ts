// Sweeps and their pages: what a scheduled or requested audit of every vanpool did,
// written page by page so a sweep killed halfway resumes where it stopped.
import { type CaseReason, CLOSED_STATUSES } from "../domain/case-lifecycle.js";
import type { RiderException } from "../domain/exceptions.js";
import { newId } from "../domain/ids.js";
import type { CheckKind } from "../domain/specialist-result.js";
import { type CaseRecord, toCaseRecord } from "./case-repository.js";
import { findExceptionsById } from "./exception-repository.js";
import { type SqlExecutor, transactionExecutor } from "./job-executor.js";
import type { Prisma, PrismaClient } from "./prisma.js";

export interface SweepTotals {
  sweep_id: string;
  trigger: string;
  vanpools: number;
  checked: number;
  new_cases: string[];
  still_failing: number;
  resolved: number;
  errors: string[];
  /** Exceptions that kept failing riders from a case. */
  kept: RiderException[];
  pages: number;
  pages_done: number;
  started_at: Date;
  finished_at: Date | null;
  slack: { channel: string; ts: string } | null;
}

/** A case a sweep opens for a failing vanpool. */
export interface NewCase {
  vanpool_id: string;
  status: "pending_reply" | "hitl_review";
  reason: CaseReason;
  failed_checks: CheckKind[];
  flagged: string[];
  details: string;
}

export interface PageResult {
  checked: number;
  newCases: string[];
  stillFailing: number;
  resolved: number;
  errors: string[];
  /** Ids of the exceptions that kept failing riders from a case. */
  kept: string[];
}

export async function listActiveVanpoolIds(prisma: PrismaClient): Promise<string[]> {
  const rows = await prisma.vanpool.findMany({
    where: { status: "active" },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  return rows.map((r) => r.id);
}

/** Creates the sweep and its pages; false when this slot's sweep exists already (another replica, a retry). */
export async function createSweep(
  prisma: PrismaClient,
  sweep: { id: string; trigger: string; pageCount: number; vanpoolCount: number; now: Date },
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const created = await tx.sweep.createMany({
      data: [
        {
          id: sweep.id,
          trigger: sweep.trigger,
          pageCount: sweep.pageCount,
          vanpoolCount: sweep.vanpoolCount,
          startedAt: sweep.now,
        },
      ],
      skipDuplicates: true,
    });
    if (created.count === 0) return false;
    await tx.sweepPage.createMany({
      data: Array.from({ length: sweep.pageCount }, (_, page) => ({ sweepId: sweep.id, page })),
    });
    return true;
  });
}

export async function isPageFinished(prisma: PrismaClient, sweepId: string, page: number): Promise<boolean> {
  const row = await prisma.sweepPage.findUnique({ where: { sweepId_page: { sweepId, page } } });
  return Boolean(row?.finishedAt);
}

/**
 * Opens a page's new cases and marks the page finished in one transaction, with the jobs
 * `queue` adds for them: a page killed before it commits opened nothing, one that committed
 * is skipped when run again. A vanpool that got a case meanwhile (an audit from Slack) is
 * counted as still failing. Returns the ids of the cases opened.
 */
export async function openCasesAndFinishPage(
  prisma: PrismaClient,
  page: {
    sweepId: string;
    page: number;
    cases: NewCase[];
    actor: string;
    result: PageResult;
    now: Date;
    queue: (db: SqlExecutor, cases: { case_id: string; status: string }[]) => Promise<void>;
  },
): Promise<string[]> {
  return prisma.$transaction(
    async (tx) => {
      const rows = page.cases.map((c) => ({ id: newId("case"), ...c }));
      await tx.case.createMany({
        data: rows.map((c) => ({
          id: c.id,
          vanpoolId: c.vanpool_id,
          status: c.status,
          reason: c.reason,
          failedChecks: c.failed_checks,
          meta: { details: c.details, flagged: c.flagged, opened_by: page.actor },
          createdAt: page.now,
          updatedAt: page.now,
        })),
        skipDuplicates: true,
      });
      const opened = new Set(
        (await tx.case.findMany({ where: { id: { in: rows.map((c) => c.id) } }, select: { id: true } })).map(
          (r) => r.id,
        ),
      );
      const created = rows.filter((c) => opened.has(c.id));
      await tx.auditEvent.createMany({
        data: created.map((c) => ({
          actor: page.actor,
          action: "case.opened",
          subjectType: "case",
          subjectId: c.id,
          createdAt: page.now,
          details: {
            vanpool_id: c.vanpool_id,
            status: c.status,
            reason: c.reason,
            failed_checks: c.failed_checks,
            flagged: c.flagged,
          } satisfies Prisma.InputJsonValue,
        })),
      });
      const result: PageResult = {
        ...page.result,
        newCases: [...page.result.newCases, ...created.map((c) => c.id)].sort(),
        stillFailing: page.result.stillFailing + rows.length - created.length,
      };
      await tx.sweepPage.update({
        where: { sweepId_page: { sweepId: page.sweepId, page: page.page } },
        data: { ...result, finishedAt: page.now },
      });
      await page.queue(
        transactionExecutor(tx),
        created.map((c) => ({ case_id: c.id, status: c.status })),
      );
      return created.map((c) => c.id);
    },
    // One statement per kind of row, but a page of a big sweep under load can take a while.
    { maxWait: 30_000, timeout: 120_000 },
  );
}

/** The vanpools of `ids` already audited by this sweep (before a crash), so a retried page does not audit them twice. */
export async function vanpoolsAuditedBy(prisma: PrismaClient, trigger: string, ids: string[]): Promise<Set<string>> {
  const rows = await prisma.verificationRun.findMany({
    where: { trigger, vanpoolId: { in: ids } },
    select: { vanpoolId: true },
    distinct: ["vanpoolId"],
  });
  return new Set(rows.map((r) => r.vanpoolId));
}

export async function findOpenCases(prisma: PrismaClient, vanpoolIds: string[]): Promise<Map<string, CaseRecord>> {
  const rows = await prisma.case.findMany({
    where: { vanpoolId: { in: vanpoolIds }, status: { notIn: [...CLOSED_STATUSES] } },
  });
  return new Map(rows.map((row) => [row.vanpoolId, toCaseRecord(row)]));
}

export async function allPagesFinished(prisma: PrismaClient, sweepId: string): Promise<boolean> {
  return (await prisma.sweepPage.count({ where: { sweepId, finishedAt: null } })) === 0;
}

export async function isSweepFinished(prisma: PrismaClient, sweepId: string): Promise<boolean> {
  const row = await prisma.sweep.findUnique({ where: { id: sweepId }, select: { finishedAt: true } });
  return Boolean(row?.finishedAt);
}

export async function markSweepFinished(prisma: PrismaClient, sweepId: string, now: Date): Promise<void> {
  await prisma.sweep.updateMany({ where: { id: sweepId, finishedAt: null }, data: { finishedAt: now } });
}

export async function findSweepTotals(prisma: PrismaClient, sweepId: string): Promise<SweepTotals | undefined> {
  const sweep = await prisma.sweep.findUnique({
    where: { id: sweepId },
    include: { pages: { orderBy: { page: "asc" } } },
  });
  if (!sweep) return undefined;
  const done = sweep.pages.filter((p) => p.finishedAt);
  return {
    sweep_id: sweep.id,
    trigger: sweep.trigger,
    vanpools: sweep.vanpoolCount,
    checked: done.reduce((n, p) => n + p.checked, 0),
    new_cases: done.flatMap((p) => p.newCases),
    still_failing: done.reduce((n, p) => n + p.stillFailing, 0),
    resolved: done.reduce((n, p) => n + p.resolved, 0),
    errors: done.flatMap((p) => p.errors),
    kept: await findExceptionsById(prisma, [...new Set(done.flatMap((p) => p.kept))]),
    pages: sweep.pageCount,
    pages_done: done.length,
    started_at: sweep.startedAt,
    finished_at: sweep.finishedAt,
    slack: sweep.slackChannel && sweep.slackTs ? { channel: sweep.slackChannel, ts: sweep.slackTs } : null,
  };
}

export async function findUnfinishedSweep(prisma: PrismaClient): Promise<string | undefined> {
  const row = await prisma.sweep.findFirst({ where: { finishedAt: null }, orderBy: { startedAt: "desc" } });
  return row?.id;
}

export async function setSweepMessage(prisma: PrismaClient, sweepId: string, channel: string, ts: string) {
  await prisma.sweep.update({ where: { id: sweepId }, data: { slackChannel: channel, slackTs: ts } });
}

/** Whether a Slack message is a sweep's summary: its thread holds the alerts of the cases the sweep opened. */
export async function isSweepSummary(prisma: PrismaClient, channel: string, ts: string): Promise<boolean> {
  return (await prisma.sweep.count({ where: { slackChannel: channel, slackTs: ts } })) > 0;
}

/** New cases of a sweep whose alert is not in Slack yet. */
export async function casesWithoutAlert(prisma: PrismaClient, caseIds: string[]): Promise<string[]> {
  const rows = await prisma.case.findMany({
    where: { id: { in: caseIds }, slackTs: null },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  return rows.map((r) => r.id);
}

/** Emails sent so far to the riders of a sweep's new cases. */
export async function countSweepEmailsSent(prisma: PrismaClient, sweepId: string): Promise<number> {
  return prisma.message.count({
    where: {
      direction: "outbound",
      status: "sent",
      thread: { case: { meta: { path: ["opened_by"], equals: `sweep:${sweepId}` } } },
    },
  });
}
