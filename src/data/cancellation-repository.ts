// Carrying out an approved cancellation is one transaction: the riders are removed, each
// removal is recorded once, and the case is cancelled, all or nothing. Run again (a retry,
// a restart after a crash) it finds the work done and changes nothing.
import { recordEvent } from "./audit-log.js";
import { type CaseRecord, changeCaseIn, getCase, markCancellationUndone } from "./case-repository.js";
import type { PrismaClient } from "./prisma.js";

export interface CancellationInput {
  caseId: string;
  approvalId: string;
  /** Riders to remove: the approved ones still failing their checks. */
  employeeIds: readonly string[];
  /** Who approved, recorded with each removal. */
  decidedBy: string | null;
  reason: string;
  actor: string;
  now: Date;
}

/** Removes the riders and cancels the case; returns the case and the riders this call removed. */
export async function cancelMemberships(
  prisma: PrismaClient,
  input: CancellationInput,
): Promise<{ record: CaseRecord; newlyRemoved: string[] }> {
  return prisma.$transaction(async (tx) => {
    const record = await getCase(tx, input.caseId);
    const active = await tx.rider.findMany({
      where: { vanpoolId: record.vanpool_id, employeeId: { in: [...input.employeeIds] }, status: "active" },
      select: { employeeId: true },
    });
    const newlyRemoved = active.map((r) => r.employeeId);
    const { count } = await tx.rider.updateMany({
      where: { vanpoolId: record.vanpool_id, employeeId: { in: newlyRemoved }, status: "active" },
      data: { status: "removed", removedAt: input.now, removedReason: `${input.caseId}: ${input.reason}` },
    });
    // Another run removed one of them meanwhile: this one rolls back, so no removal is recorded twice.
    if (count !== newlyRemoved.length) throw new Error(`Riders of ${record.vanpool_id} changed while being removed.`);
    for (const employeeId of newlyRemoved)
      await recordEvent(tx, {
        actor: `approved-by:${input.decidedBy}`,
        action: "rider.removed",
        subjectType: "case",
        subjectId: input.caseId,
        at: input.now,
        details: { employee_id: employeeId, vanpool_id: record.vanpool_id, approval_id: input.approvalId },
      });
    const closed =
      record.status === "cancelled"
        ? record
        : await changeCaseIn(tx, input.caseId, {
            status: "cancelled",
            outcome: "cancelled",
            why: input.reason,
            actor: input.actor,
            now: input.now,
            meta: { cancelled_riders: input.employeeIds, approval_id: input.approvalId },
          });
    return { record: closed, newlyRemoved };
  });
}

export interface UndoneRider {
  employee_id: string;
  /** Their removal notice had not gone yet and was withheld. */
  notice_withheld: boolean;
}

/**
 * Undoes a carried-out cancellation in one transaction: its removed riders are reinstated, each
 * removal notice not sent yet is withheld, each reinstatement is recorded once and the case waits
 * for a person's new decision. `claimed` is false when an earlier run undid it; `riders` then lists what that run did.
 */
export async function undoMemberships(
  prisma: PrismaClient,
  input: { approvalId: string; caseId: string; noticeKey(employeeId: string): string; actor: string; now: Date },
): Promise<{ claimed: boolean; riders: UndoneRider[]; undoneBy: string }> {
  return prisma.$transaction(async (tx) => {
    const record = await getCase(tx, input.caseId);
    const removed = await tx.riderDecision.findMany({ where: { approvalId: input.approvalId, outcome: "removed" } });
    const claimed = await tx.riderDecision.updateMany({
      where: { approvalId: input.approvalId, outcome: "removed" },
      data: { outcome: "reinstated", undoneBy: input.actor, undoneAt: input.now, updatedAt: input.now },
    });
    if (claimed.count !== removed.length) throw new Error(`The undo of ${input.approvalId} raced another one.`);
    const undone = removed.length
      ? removed
      : await tx.riderDecision.findMany({ where: { approvalId: input.approvalId, outcome: "reinstated" } });
    const ids = undone.map((d) => d.employeeId);
    if (removed.length === 0) {
      const withheld = await tx.message.findMany({
        where: { idempotencyKey: { in: ids.map(input.noticeKey) }, status: "discarded" },
        select: { idempotencyKey: true },
      });
      const wasWithheld = (id: string) => withheld.some((m) => m.idempotencyKey === input.noticeKey(id));
      return {
        claimed: false,
        riders: ids.map((id) => ({ employee_id: id, notice_withheld: wasWithheld(id) })),
        undoneBy: undone[0]?.undoneBy ?? input.actor,
      };
    }
    const riders: UndoneRider[] = [];
    for (const id of ids) {
      const { count } = await tx.message.updateMany({
        where: { idempotencyKey: input.noticeKey(id), status: { in: ["queued", "draft"] } },
        data: { status: "discarded" },
      });
      const withheld = count === 1;
      riders.push({ employee_id: id, notice_withheld: withheld });
      await recordEvent(tx, {
        actor: `person:${input.actor}`,
        action: "rider.reinstated",
        subjectType: "case",
        subjectId: input.caseId,
        at: input.now,
        details: {
          employee_id: id,
          approval_id: input.approvalId,
          removal_notice: withheld ? "withheld" : "already sent",
        },
      });
    }
    await tx.rider.updateMany({
      where: { vanpoolId: record.vanpool_id, employeeId: { in: ids }, status: "removed" },
      data: { status: "active", removedAt: null, removedReason: null },
    });
    await markCancellationUndone(tx, input.caseId, { actor: `person:${input.actor}`, now: input.now, reinstated: ids });
    return { claimed: true, riders, undoneBy: input.actor };
  });
}
