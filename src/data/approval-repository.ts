// Human decisions. Deciding is one atomic pending -> decided update: a second click,
// a second approver or a stale card finds the row decided and changes nothing.
import { newId } from "../domain/ids.js";
import { castVote, everyRiderDecided, type RiderChoice, type VoteResult } from "../domain/rider-decisions.js";
import { AppError, invalidInput, notFound } from "../errors.js";
import { recordEvent } from "./audit-log.js";
import { type SqlExecutor, transactionExecutor } from "./job-executor.js";
import type { Prisma, PrismaClient } from "./prisma.js";

export type ApprovalKind = "escalation_reply" | "cancellation";
export type ApprovalStatus = "pending" | "approved" | "edited" | "rejected" | "expired";
export type Decision = "approve" | "edit" | "reject";

export interface ApprovalRecord {
  approval_id: string;
  kind: ApprovalKind;
  case_id: string;
  payload: Record<string, unknown>;
  status: ApprovalStatus;
  graph_thread_id: string | null;
  interrupt_id: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  decision_reason: string | null;
  edited_body: string | null;
  applied_at: Date | null;
  result_note: string | null;
  created_at: Date;
}

/**
 * "rejected by U0ALICE: she still rides the van": a decision as the case's history records it.
 * The one wording for who decided and why; `Rejected by ...` and `Cancellation rejected by ...` are built from it.
 */
export function decisionBy(approval: Pick<ApprovalRecord, "status" | "decided_by" | "decision_reason">): string {
  return `${approval.status} by ${approval.decided_by}${approval.decision_reason ? `: ${approval.decision_reason}` : ""}`;
}

type Row = Prisma.ApprovalRequestGetPayload<object>;
const toRecord = (r: Row): ApprovalRecord => ({
  approval_id: r.id,
  kind: r.kind,
  case_id: r.caseId,
  payload: r.payload as Record<string, unknown>,
  status: r.status,
  graph_thread_id: r.graphThreadId,
  interrupt_id: r.interruptId,
  decided_by: r.decidedBy,
  decided_at: r.decidedAt,
  decision_reason: r.decisionReason,
  edited_body: r.editedBody,
  applied_at: r.appliedAt,
  result_note: r.resultNote,
  created_at: r.createdAt,
});

export class AlreadyDecidedError extends AppError {
  constructor(readonly approval: ApprovalRecord) {
    super(
      "conflict",
      approval.status === "expired"
        ? `${approval.approval_id} expired at ${approval.decided_at?.toISOString()} without a decision; nothing was done.`
        : `${approval.approval_id} was already ${approval.status} by ${approval.decided_by} at ${approval.decided_at?.toISOString()}; nothing changed.`,
    );
    this.name = "AlreadyDecidedError";
  }
}

export async function createApproval(
  prisma: PrismaClient,
  input: {
    kind: ApprovalKind;
    caseId: string;
    payload: Record<string, unknown>;
    graphThreadId: string;
    interruptId: string;
    actor: string;
    now: Date;
  },
): Promise<ApprovalRecord> {
  // The same interrupt never gets two requests, even if the caller runs twice.
  const existing = await prisma.approvalRequest.findFirst({
    where: { graphThreadId: input.graphThreadId, interruptId: input.interruptId },
  });
  if (existing) return toRecord(existing);
  return prisma.$transaction(async (tx) => {
    const row = await tx.approvalRequest.create({
      data: {
        id: newId("approval"),
        kind: input.kind,
        caseId: input.caseId,
        payload: input.payload as Prisma.InputJsonValue,
        graphThreadId: input.graphThreadId,
        interruptId: input.interruptId,
        createdAt: input.now,
        updatedAt: input.now,
      },
    });
    await recordEvent(tx, {
      actor: input.actor,
      action: "approval.requested",
      subjectType: "case",
      subjectId: input.caseId,
      at: input.now,
      details: { approval_id: row.id, kind: input.kind },
    });
    return toRecord(row);
  });
}

export async function findApproval(prisma: PrismaClient, approvalId: string): Promise<ApprovalRecord | undefined> {
  const row = await prisma.approvalRequest.findUnique({ where: { id: approvalId } });
  return row ? toRecord(row) : undefined;
}

export async function getApproval(prisma: PrismaClient, approvalId: string): Promise<ApprovalRecord> {
  const found = await findApproval(prisma, approvalId);
  if (!found) throw notFound(`No approval request ${approvalId}. \`poolpatrol approvals\` lists the pending ones.`);
  return found;
}

/** Which of these cases had a person decide an approval request (approve, edit or reject). */
export async function casesWithHumanDecision(prisma: PrismaClient, caseIds: string[]): Promise<Set<string>> {
  const rows = await prisma.approvalRequest.findMany({
    where: { caseId: { in: caseIds }, status: { in: ["approved", "edited", "rejected"] } },
    select: { caseId: true },
  });
  return new Set(rows.map((r) => r.caseId));
}

/**
 * Reversals in [since, until): cancellations a reviewer rejected, and carried-out cancellations undone (their
 * riders reinstated), counted once per cancellation request.
 */
export async function countReversedCancellations(prisma: PrismaClient, since: Date, until?: Date): Promise<number> {
  const within = { gte: since, ...(until ? { lt: until } : {}) };
  return prisma.approvalRequest.count({
    where: {
      kind: "cancellation",
      OR: [
        { status: "rejected", decidedAt: within },
        { riders: { some: { outcome: "reinstated", undoneAt: within } } },
      ],
    },
  });
}

export async function listApprovals(
  prisma: PrismaClient,
  filter: { status?: ApprovalStatus; caseId?: string } = {},
): Promise<ApprovalRecord[]> {
  const rows = await prisma.approvalRequest.findMany({
    where: { ...(filter.status ? { status: filter.status } : {}), ...(filter.caseId ? { caseId: filter.caseId } : {}) },
    orderBy: { createdAt: "asc" },
  });
  return rows.map(toRecord);
}

/**
 * Atomic pending -> decided. Throws AlreadyDecidedError when someone (or something) got there first.
 * `alsoInTransaction` (enqueueing the job that carries the decision out) commits with the decision or not at all.
 */
export async function recordDecision(
  prisma: PrismaClient,
  input: DecisionInput,
  alsoInTransaction?: (db: SqlExecutor) => Promise<unknown>,
): Promise<ApprovalRecord> {
  return prisma.$transaction(async (tx) => {
    const decided = await decideInTransaction(tx, input);
    await alsoInTransaction?.(transactionExecutor(tx));
    return decided;
  });
}

interface DecisionInput {
  approvalId: string;
  decision: Decision;
  actor: string;
  now: Date;
  body?: string;
  reason?: string;
}

async function decideInTransaction(tx: Prisma.TransactionClient, input: DecisionInput): Promise<ApprovalRecord> {
  const status: ApprovalStatus =
    input.decision === "approve" ? "approved" : input.decision === "edit" ? "edited" : "rejected";
  const updated = await tx.approvalRequest.updateMany({
    where: { id: input.approvalId, status: "pending" },
    data: {
      status,
      decidedBy: input.actor,
      decidedAt: input.now,
      editedBody: input.body ?? null,
      decisionReason: input.reason ?? null,
      updatedAt: input.now,
    },
  });
  const row = await tx.approvalRequest.findUnique({ where: { id: input.approvalId } });
  if (!row) throw notFound(`No approval request ${input.approvalId}.`);
  if (updated.count === 0) throw new AlreadyDecidedError(toRecord(row));
  await recordEvent(tx, {
    actor: input.actor,
    action: `approval.${status}`,
    subjectType: "case",
    subjectId: row.caseId,
    at: input.now,
    details: {
      approval_id: row.id,
      kind: row.kind,
      ...(input.reason ? { reason: input.reason } : {}),
      ...(input.body ? { edited: true } : {}),
    },
  });
  return toRecord(row);
}

export interface RiderDecisionRecord {
  employee_id: string;
  decision: RiderChoice | null;
  first_approver: string | null;
  first_approved_at: Date | null;
  decided_by: string | null;
  decided_at: Date | null;
  evidence_version: string | null;
  /** What carrying it out did: removed, kept, or kept because the re-check passed. */
  outcome: "removed" | "kept" | "kept_passes" | "reinstated" | null;
  undone_by: string | null;
  undone_at: Date | null;
}

type RiderRow = Prisma.RiderDecisionGetPayload<object>;
const toRiderRecord = (r: RiderRow): RiderDecisionRecord => ({
  employee_id: r.employeeId,
  decision: r.decision as RiderChoice | null,
  first_approver: r.firstApprover,
  first_approved_at: r.firstApprovedAt,
  decided_by: r.decidedBy,
  decided_at: r.decidedAt,
  evidence_version: r.evidenceVersion,
  outcome: r.outcome as RiderDecisionRecord["outcome"],
  undone_by: r.undoneBy,
  undone_at: r.undoneAt,
});

/** Per-rider decisions of every cancellation request of a case, by request id, in one query. */
export async function listCaseRiderDecisions(
  prisma: PrismaClient,
  caseId: string,
): Promise<Record<string, RiderDecisionRecord[]>> {
  const requests = await prisma.approvalRequest.findMany({
    where: { caseId, kind: "cancellation" },
    select: { id: true, riders: { orderBy: { id: "asc" } } },
  });
  return Object.fromEntries(requests.map((r) => [r.id, r.riders.map(toRiderRecord)]));
}

export async function listRiderDecisions(prisma: PrismaClient, approvalId: string): Promise<RiderDecisionRecord[]> {
  const rows = await prisma.riderDecision.findMany({ where: { approvalId }, orderBy: { id: "asc" } });
  return rows.map(toRiderRecord);
}

/** A rider's decision was refused: decided already, or the same approver twice under the two-person rule. */
export class RiderDecisionRefused extends AppError {
  constructor(
    message: string,
    readonly vote: VoteResult,
    readonly employeeId: string,
  ) {
    super("conflict", message);
    this.name = "RiderDecisionRefused";
  }
}

/**
 * One approver's decision on one flagged rider of a pending cancellation, under a row lock on
 * the request so concurrent clicks are taken one at a time. Once every rider is decided, the
 * request itself is decided (approved when anyone is to be removed, rejected when all are kept)
 * and `whenComplete` (queueing the job that carries it out) commits with it.
 */
export async function recordRiderDecision(
  prisma: PrismaClient,
  input: {
    approvalId: string;
    employeeId: string;
    choice: RiderChoice;
    actor: string;
    evidenceVersion: string;
    requiredApprovals: number;
    now: Date;
  },
  whenComplete?: (db: SqlExecutor) => Promise<unknown>,
): Promise<{ approval: ApprovalRecord; vote: VoteResult; complete: boolean }> {
  return prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM approval_requests WHERE id = ${input.approvalId} FOR UPDATE`;
    const row = await tx.approvalRequest.findUnique({ where: { id: input.approvalId } });
    if (!row) throw notFound(`No approval request ${input.approvalId}.`);
    const approval = toRecord(row);
    if (approval.status !== "pending") throw new AlreadyDecidedError(approval);
    const riders = (approval.payload as { employee_ids?: string[] }).employee_ids ?? [];
    if (!riders.includes(input.employeeId))
      throw invalidInput(`${input.employeeId} is not one of the riders this request is about. Nothing was changed.`);
    const key = { approvalId_employeeId: { approvalId: input.approvalId, employeeId: input.employeeId } };
    const current = await tx.riderDecision.findUnique({ where: key });
    const vote = castVote(current ? toRiderRecord(current) : undefined, input, input.requiredApprovals);
    if (vote.kind === "already_decided")
      throw new RiderDecisionRefused(
        `${input.employeeId} was already decided (${vote.decision === "keep" ? "kept" : "to be removed"}${vote.by ? ` by ${vote.by}` : ""}). Nothing was changed.`,
        vote,
        input.employeeId,
      );
    if (vote.kind === "same_approver")
      throw new RiderDecisionRefused(
        `You already approved removing ${input.employeeId}; a second, different approver must confirm it. Nothing was changed.`,
        vote,
        input.employeeId,
      );
    const data =
      vote.kind === "first_of_two"
        ? { firstApprover: input.actor, firstApprovedAt: input.now, evidenceVersion: input.evidenceVersion }
        : {
            decision: vote.decision,
            decidedBy: input.actor,
            decidedAt: input.now,
            evidenceVersion: input.evidenceVersion,
          };
    await tx.riderDecision.upsert({
      where: key,
      create: { approvalId: input.approvalId, employeeId: input.employeeId, ...data, updatedAt: input.now },
      update: { ...data, updatedAt: input.now },
    });
    await recordEvent(tx, {
      actor: input.actor,
      action:
        vote.kind === "first_of_two"
          ? "rider.removal_first_approval"
          : vote.decision === "keep"
            ? "rider.keep_decided"
            : "rider.removal_decided",
      subjectType: "case",
      subjectId: approval.case_id,
      at: input.now,
      details: {
        approval_id: approval.approval_id,
        employee_id: input.employeeId,
        evidence_version: input.evidenceVersion,
      },
    });
    const decisions = (await tx.riderDecision.findMany({ where: { approvalId: input.approvalId } })).map(toRiderRecord);
    if (!everyRiderDecided(riders, decisions)) return { approval, vote, complete: false };
    const removing = decisions.filter((d) => d.decision === "remove").map((d) => d.employee_id);
    const decided = await decideInTransaction(tx, {
      approvalId: input.approvalId,
      decision: removing.length ? "approve" : "reject",
      actor: input.actor,
      now: input.now,
      reason: removing.length ? undefined : "every rider was kept",
    });
    await whenComplete?.(transactionExecutor(tx));
    return { approval: decided, vote, complete: true };
  });
}

/**
 * What to do with each rider once a cancellation is approved: riders decided on the card
 * keep their decision; a request approved whole (the CLI) removes every rider it names.
 */
export async function ensureRiderDecisions(
  prisma: PrismaClient,
  approval: ApprovalRecord,
): Promise<RiderDecisionRecord[]> {
  const riders = (approval.payload as { employee_ids?: string[] }).employee_ids ?? [];
  const remove = approval.status === "approved";
  for (const employeeId of riders)
    await prisma.riderDecision.upsert({
      where: { approvalId_employeeId: { approvalId: approval.approval_id, employeeId } },
      create: {
        approvalId: approval.approval_id,
        employeeId,
        decision: remove ? "remove" : "keep",
        decidedBy: approval.decided_by,
        decidedAt: approval.decided_at,
        updatedAt: approval.decided_at ?? new Date(),
      },
      update: {},
    });
  return listRiderDecisions(prisma, approval.approval_id);
}

/** Records what carrying out did for a rider; the first outcome stays. */
export async function setRiderOutcome(
  prisma: PrismaClient,
  approvalId: string,
  employeeId: string,
  outcome: NonNullable<RiderDecisionRecord["outcome"]>,
): Promise<void> {
  await prisma.riderDecision.updateMany({ where: { approvalId, employeeId, outcome: null }, data: { outcome } });
}

export async function markApplied(prisma: PrismaClient, approvalId: string, note: string, now: Date): Promise<void> {
  await prisma.approvalRequest.updateMany({
    where: { id: approvalId, appliedAt: null },
    data: { appliedAt: now, resultNote: note },
  });
}

/** Decided but not yet carried out: what a crash between decision and resume leaves behind. */
export async function listUnappliedDecisions(prisma: PrismaClient): Promise<ApprovalRecord[]> {
  const rows = await prisma.approvalRequest.findMany({
    where: { status: { in: ["approved", "edited", "rejected"] }, appliedAt: null },
    orderBy: { decidedAt: "asc" },
  });
  return rows.map(toRecord);
}

/** The decided, not yet applied request behind a resumed tool call. */
export async function findDecidedUnapplied(
  prisma: PrismaClient,
  caseId: string,
  kind: ApprovalKind,
): Promise<ApprovalRecord | undefined> {
  const row = await prisma.approvalRequest.findFirst({
    where: { caseId, kind, status: { in: ["approved", "edited"] }, appliedAt: null },
    orderBy: { decidedAt: "desc" },
  });
  return row ? toRecord(row) : undefined;
}

/** Requests still pending after `cutoff` become expired (never a decision). Returns those this call expired. */
export async function expirePendingBefore(
  prisma: PrismaClient,
  input: { cutoff: Date; now: Date; note: string },
): Promise<ApprovalRecord[]> {
  const due = await prisma.approvalRequest.findMany({ where: { status: "pending", createdAt: { lte: input.cutoff } } });
  const expired: ApprovalRecord[] = [];
  for (const row of due) {
    const claimed = await prisma.approvalRequest.updateMany({
      where: { id: row.id, status: "pending" },
      data: {
        status: "expired",
        decidedBy: "system",
        decidedAt: input.now,
        appliedAt: input.now,
        resultNote: input.note,
      },
    });
    if (claimed.count === 1) {
      await recordEvent(prisma, {
        actor: "scheduler",
        action: "approval.expired",
        subjectType: "case",
        subjectId: row.caseId,
        at: input.now,
        details: { approval_id: row.id },
      });
      expired.push(toRecord({ ...row, status: "expired" }));
    }
  }
  return expired;
}

/** Pending requests posted in Slack and older than `cutoff`, not yet reminded: claimed once each. */
export async function claimReminders(
  prisma: PrismaClient,
  input: { cutoff: Date; now: Date },
): Promise<ApprovalRecord[]> {
  const due = await prisma.approvalRequest.findMany({
    where: { status: "pending", remindedAt: null, slackTs: { not: null }, createdAt: { lte: input.cutoff } },
  });
  const claimed: ApprovalRecord[] = [];
  for (const row of due) {
    const won = await prisma.approvalRequest.updateMany({
      where: { id: row.id, remindedAt: null },
      data: { remindedAt: input.now },
    });
    if (won.count === 1) claimed.push(toRecord(row));
  }
  return claimed;
}
