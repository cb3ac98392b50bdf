// Cases as plain records. Status changes go through the lifecycle state machine and
// leave an audit event in the same transaction.

import {
  assertTransition,
  type CaseReason,
  type CaseStatus,
  CLOSED_STATUSES,
  isClosed,
  LifecycleError,
} from "../domain/case-lifecycle.js";
import { newId } from "../domain/ids.js";
import { countsTowardLimit, paceAfterCounted } from "../domain/re-audit-pacing.js";
import type { CheckKind } from "../domain/specialist-result.js";
import { notFound } from "../errors.js";
import { recordEvent } from "./audit-log.js";
import type { Prisma, PrismaClient } from "./prisma.js";

export interface CaseRecord {
  case_id: string;
  vanpool_id: string;
  status: CaseStatus;
  reason: CaseReason;
  failed_checks: CheckKind[];
  flagged: string[];
  details: string;
  meta: Record<string, unknown>;
  outcome: "verified" | "resolved" | "cancelled" | null;
  re_audit_count: number;
  /** From when a reply's re-audit on unchanged data counts again (docs/case-lifecycle.md); null before the first. */
  re_audit_counts_from: Date | null;
  last_outbound_at: Date | null;
  /** An out-of-office notice moved the reply deadline to this time. */
  reply_extended_until: Date | null;
  created_at: Date;
  updated_at: Date;
  resolved_at: Date | null;
}

type Db = PrismaClient | Prisma.TransactionClient;
type CaseRow = Prisma.CaseGetPayload<object>;

export function toCaseRecord(row: CaseRow): CaseRecord {
  const meta = (row.meta ?? {}) as Record<string, unknown>;
  return {
    case_id: row.id,
    vanpool_id: row.vanpoolId,
    status: row.status,
    reason: row.reason,
    failed_checks: row.failedChecks as CheckKind[],
    flagged: Array.isArray(meta.flagged) ? (meta.flagged as string[]) : [],
    details: typeof meta.details === "string" ? meta.details : "",
    meta,
    outcome: row.outcome,
    re_audit_count: row.reAuditCount,
    re_audit_counts_from: row.reAuditCountsFrom,
    last_outbound_at: row.lastOutboundAt,
    reply_extended_until: row.replyExtendedUntil,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    resolved_at: row.resolvedAt,
  };
}

export async function findCase(db: Db, caseId: string): Promise<CaseRecord | undefined> {
  const row = await db.case.findUnique({ where: { id: caseId } });
  return row ? toCaseRecord(row) : undefined;
}

export async function getCase(db: Db, caseId: string): Promise<CaseRecord> {
  const found = await findCase(db, caseId);
  if (!found) throw caseNotFound(caseId);
  return found;
}

export const caseNotFound = (caseId: string) =>
  notFound(`No case ${caseId}. Case ids look like CASE-1A2B3C4D5E6F7A8B; \`poolpatrol cases\` lists them.`);

export async function findOpenCase(db: Db, vanpoolId: string): Promise<CaseRecord | undefined> {
  const row = await db.case.findFirst({ where: { vanpoolId, status: { notIn: [...CLOSED_STATUSES] } } });
  return row ? toCaseRecord(row) : undefined;
}

/** Cases opened in [since, until), the earliest first. */
export async function listCasesOpenedBetween(db: Db, since: Date, until?: Date): Promise<CaseRecord[]> {
  const rows = await db.case.findMany({
    where: { createdAt: { gte: since, ...(until ? { lt: until } : {}) } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map(toCaseRecord);
}

export async function listCases(
  db: Db,
  filter: { status?: CaseStatus; vanpoolId?: string } = {},
): Promise<CaseRecord[]> {
  const rows = await db.case.findMany({
    where: {
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.vanpoolId ? { vanpoolId: filter.vanpoolId } : {}),
    },
    orderBy: [{ updatedAt: "desc" }],
  });
  return rows.map(toCaseRecord);
}

/** The open cases touched last, newest first: what an auditor is likely to ask about. */
export async function recentOpenCases(db: Db, limit: number): Promise<CaseRecord[]> {
  const rows = await db.case.findMany({
    where: { status: { notIn: [...CLOSED_STATUSES] } },
    orderBy: [{ updatedAt: "desc" }],
    take: limit,
  });
  return rows.map(toCaseRecord);
}

export type OpenCaseInput = Pick<
  CaseRecord,
  "vanpool_id" | "status" | "reason" | "failed_checks" | "flagged" | "details"
> & { actor: string; now: Date };

export async function openCase(prisma: PrismaClient, input: OpenCaseInput): Promise<CaseRecord> {
  return prisma.$transaction(async (tx) => {
    const row = await tx.case.create({
      data: {
        id: newId("case"),
        vanpoolId: input.vanpool_id,
        status: input.status,
        reason: input.reason,
        failedChecks: input.failed_checks,
        meta: { details: input.details, flagged: input.flagged, opened_by: input.actor },
        createdAt: input.now,
        updatedAt: input.now,
      },
    });
    await recordEvent(tx, {
      actor: input.actor,
      action: "case.opened",
      subjectType: "case",
      subjectId: row.id,
      at: input.now,
      details: {
        vanpool_id: input.vanpool_id,
        status: input.status,
        reason: input.reason,
        failed_checks: input.failed_checks,
        flagged: input.flagged,
      },
    });
    return toCaseRecord(row);
  });
}

export interface CaseChange {
  status?: CaseStatus;
  failed_checks?: CheckKind[];
  flagged?: string[];
  details?: string;
  outcome?: "resolved" | "cancelled";
  why: string;
  actor: string;
  now: Date;
  meta?: Record<string, unknown>;
}

/** Applies a change if the state machine allows it; throws LifecycleError otherwise. */
export async function changeCase(prisma: PrismaClient, caseId: string, change: CaseChange): Promise<CaseRecord> {
  return prisma.$transaction((tx) => changeCaseIn(tx, caseId, change));
}

/**
 * What went wrong is recorded on the case (`action`, with `why` in its details) and, unless the case is
 * closed, it goes to a person with that reason on its alert.
 */
export async function handCaseToPerson(
  prisma: PrismaClient,
  caseId: string,
  input: { action: string; why: string; details: Record<string, unknown>; actor: string; now: Date },
): Promise<void> {
  const { action, why, details, actor, now } = input;
  await recordEvent(prisma, {
    actor,
    action,
    subjectType: "case",
    subjectId: caseId,
    at: now,
    details: { ...details, why },
  });
  if (isClosed((await getCase(prisma, caseId)).status)) return;
  await changeCase(prisma, caseId, { status: "hitl_review", why, actor, now, meta: { attention: why } });
}

/** `changeCase` inside the caller's transaction, so the change commits with the caller's other writes. */
export async function changeCaseIn(
  tx: Prisma.TransactionClient,
  caseId: string,
  change: CaseChange,
): Promise<CaseRecord> {
  const current = await getCase(tx, caseId);
  const status = change.status ?? current.status;
  if (isClosed(current.status))
    throw new LifecycleError(`${caseId} is ${current.status}; a closed case is never changed or reopened.`);
  // Staying in the same status is an update, not a transition.
  if (change.status && change.status !== current.status) assertTransition(current.status, change.status);
  // Why a case needed a person holds only while it does: alerts, threads and digests show it.
  const { attention: _settled, ...settled } = current.meta;
  const leavesReview = current.status === "hitl_review" && status !== "hitl_review";
  const meta = {
    ...(leavesReview ? settled : current.meta),
    ...change.meta,
    ...(change.flagged ? { flagged: change.flagged } : {}),
    ...(change.details ? { details: change.details } : {}),
    updated_by: change.actor,
  };
  const row = await tx.case.update({
    where: { id: caseId },
    data: {
      status,
      ...(change.failed_checks ? { failedChecks: change.failed_checks } : {}),
      meta,
      ...(isClosed(status)
        ? { outcome: change.outcome ?? (status === "cancelled" ? "cancelled" : "resolved"), resolvedAt: change.now }
        : {}),
      updatedAt: change.now,
    },
  });
  if (isClosed(status)) {
    // Nothing may be decided on a closed case: what was waiting expires (never as a decision).
    const expired = await tx.approvalRequest.updateMany({
      where: { caseId, status: "pending" },
      data: {
        status: "expired",
        decidedBy: "system",
        decidedAt: change.now,
        decisionReason: `case ${status}`,
        appliedAt: change.now,
        resultNote: `Expired: ${caseId} was ${status} first.`,
      },
    });
    if (expired.count > 0)
      await recordEvent(tx, {
        actor: "system",
        action: "approval.expired",
        subjectType: "case",
        subjectId: caseId,
        at: change.now,
        details: { count: expired.count, why: `case ${status}` },
      });
  }
  await recordEvent(tx, {
    actor: change.actor,
    action: change.status && change.status !== current.status ? "case.status_changed" : "case.updated",
    subjectType: "case",
    subjectId: caseId,
    at: change.now,
    details: {
      from: current.status,
      to: status,
      why: change.why,
      ...(change.failed_checks ? { failed_checks: change.failed_checks } : {}),
    },
  });
  return toCaseRecord(row);
}

/** Cases that closed (resolved or cancelled) at or after `since` (and before `until`), the earliest closed first. */
export async function listCasesClosedSince(db: Db, since: Date, until?: Date): Promise<CaseRecord[]> {
  const rows = await db.case.findMany({
    where: { status: { in: [...CLOSED_STATUSES] }, resolvedAt: { gte: since, ...(until ? { lt: until } : {}) } },
    orderBy: { resolvedAt: "asc" },
  });
  return rows.map(toCaseRecord);
}

/**
 * Decides once per `key` (what the re-audit was for: a reply, a timeout, else the agent run) whether a re-audit
 * counts toward the limit of three, however many specialists called it and however often a failed reading or a
 * retried timeout ran it again. A reply's re-audit on the data of the last counted one, within a business day of
 * it, does not count (`countsTowardLimit`). Returns the count after it and whether this one counted.
 */
export async function countReAudit(
  prisma: PrismaClient,
  caseId: string,
  input: { key: string; basis: string; at: Date; timeZone: string },
): Promise<number> {
  const { key, basis, at, timeZone } = input;
  const row = await prisma.case.findUnique({ where: { id: caseId } });
  if (!row) throw caseNotFound(caseId);
  if (row.reAuditKeys.includes(key)) return row.reAuditCount;
  const pace = { counts_from: row.reAuditCountsFrom, basis: row.reAuditBasis };
  const counts = countsTowardLimit({ key, at, basis, pace });
  const next = counts ? paceAfterCounted(at, basis, timeZone) : pace;
  await prisma.case.updateMany({
    where: { id: caseId, NOT: { reAuditKeys: { has: key } } },
    data: {
      reAuditKeys: { push: key },
      ...(counts
        ? { reAuditCount: { increment: 1 }, reAuditCountsFrom: next.counts_from, reAuditBasis: next.basis }
        : {}),
    },
  });
  return (await getCase(prisma, caseId)).re_audit_count;
}

/** The case of a vanpool changed at or after `since` (the one an agent run just closed, say). */
export async function findCaseUpdatedSince(
  prisma: PrismaClient,
  vanpoolId: string,
  since: Date,
): Promise<CaseRecord | undefined> {
  const row = await prisma.case.findFirst({
    where: { vanpoolId, updatedAt: { gte: since } },
    orderBy: { updatedAt: "desc" },
  });
  return row ? toCaseRecord(row) : undefined;
}

/** Cases waiting on riders since an email was sent, the longest waiting first. */
export async function casesAwaitingReply(prisma: PrismaClient): Promise<CaseRecord[]> {
  const rows = await prisma.case.findMany({
    where: { status: "pending_reply", lastOutboundAt: { not: null } },
    orderBy: { lastOutboundAt: "asc" },
  });
  return rows.map(toCaseRecord);
}

/** The case whose Slack alert opened a thread. */
export async function findCaseBySlackThread(
  db: Db,
  channel: string,
  threadTs: string,
): Promise<CaseRecord | undefined> {
  const row = await db.case.findFirst({ where: { slackChannel: channel, slackTs: threadTs } });
  return row ? toCaseRecord(row) : undefined;
}

export async function countCasesByStatus(db: Db): Promise<Partial<Record<CaseStatus, number>>> {
  const rows = await db.case.groupBy({ by: ["status"], _count: { _all: true } });
  return Object.fromEntries(rows.map((r) => [r.status, r._count._all]));
}

/**
 * An undone cancellation: its riders were reinstated within the undo window, so the case goes back to
 * "needs a person" for a new decision on them (docs/exceptions.md). The one change a closed case takes,
 * made only by the undo path. Returns the case's status after it.
 */
export async function markCancellationUndone(
  tx: Prisma.TransactionClient,
  caseId: string,
  input: { actor: string; now: Date; reinstated: string[] },
): Promise<CaseStatus> {
  const current = await getCase(tx, caseId);
  if (current.status !== "cancelled") return current.status;
  // Undo means "decide again": the case waits for a person's new decision, unless the vanpool got another
  // case meanwhile (one open case per vanpool), which then carries the decision and this one stays closed.
  const other = await tx.case.count({
    where: { vanpoolId: current.vanpool_id, id: { not: caseId }, status: { notIn: [...CLOSED_STATUSES] } },
  });
  const status = other > 0 ? "resolved" : "hitl_review";
  const undone = { by: input.actor, at: input.now.toISOString(), riders: input.reinstated };
  await tx.case.update({
    where: { id: caseId },
    data: {
      status,
      outcome: status === "resolved" ? "resolved" : null,
      resolvedAt: status === "resolved" ? input.now : null,
      updatedAt: input.now,
      meta: {
        ...current.meta,
        flagged: input.reinstated,
        details: `Cancellation undone: ${input.reinstated.join(", ")} reinstated. Decide again: keep them with an exception (Close as resolved), or propose their removal again later.`,
        cancellation_undone: undone,
      },
    },
  });
  await recordEvent(tx, {
    actor: input.actor,
    action: "case.status_changed",
    subjectType: "case",
    subjectId: caseId,
    at: input.now,
    details: {
      from: "cancelled",
      to: status,
      why: `cancellation undone; ${input.reinstated.join(", ")} reinstated`,
    },
  });
  return status;
}
