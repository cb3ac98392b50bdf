// A rider's earlier cases, read in one place for every surface that shows a rider's history: the case alert and
// the cancellation card of a new case, the rider's web page, and the Case Manager's answer to "has Diego been
// flagged before?". For each earlier case: how it ended for the rider (removed, kept, reinstated), the
// exceptions it granted them, whether they escalated, and their last reply.
import type { RiderException } from "../domain/exceptions.js";
import { type CaseRecord, toCaseRecord } from "./case-repository.js";
import { toException } from "./exception-repository.js";
import type { PrismaClient } from "./prisma.js";

export interface EarlierCase {
  record: CaseRecord;
  /** What carrying out a cancellation did to this rider: removed, kept, kept_passes or reinstated; null if none. */
  rider_outcome: string | null;
  /** Exceptions granted to this rider on that case (kept by a person). */
  exceptions: RiderException[];
  /** Whether any of their replies on that case was read as an escalation (a complaint, HR, a manager). */
  escalated: boolean;
  /** Their last reply on that case (its text as written: redact before showing it in the channel). */
  last_reply: { at: Date; bucket: string | null; text: string } | null;
}

/** The cases that flagged a rider, newest first. */
export async function listCasesOfRider(prisma: PrismaClient, employeeId: string): Promise<CaseRecord[]> {
  const rows = await prisma.case.findMany({
    where: { meta: { path: ["flagged"], array_contains: [employeeId] } },
    orderBy: { createdAt: "desc" },
  });
  return rows.map(toCaseRecord);
}

/**
 * Each rider's cases opened before `before` (newest first, at most `limit` each), the case `before.caseId`
 * itself left out. Riders with no earlier case are absent from the map.
 */
export async function findEarlierCasesOfRiders(
  prisma: PrismaClient,
  employeeIds: readonly string[],
  before: { caseId?: string; at: Date },
  limit = 3,
): Promise<Map<string, EarlierCase[]>> {
  const history = new Map<string, EarlierCase[]>();
  if (employeeIds.length === 0) return history;
  const riders = [...employeeIds];
  // A rider kept or removed may have left the case's flagged list: their decisions and exceptions name it too.
  const [decided, kept] = await Promise.all([
    prisma.riderDecision.findMany({
      where: { employeeId: { in: riders } },
      select: { employeeId: true, approval: { select: { caseId: true } } },
    }),
    prisma.riderException.findMany({
      where: { employeeId: { in: riders }, caseId: { not: null } },
      select: { employeeId: true, caseId: true },
    }),
  ]);
  const named = [
    ...decided.map((d) => ({ employeeId: d.employeeId, caseId: d.approval.caseId })),
    ...kept.map((e) => ({ employeeId: e.employeeId, caseId: e.caseId! })),
  ];
  const rows = await prisma.case.findMany({
    where: {
      createdAt: { lt: before.at },
      ...(before.caseId ? { id: { not: before.caseId } } : {}),
      OR: [
        ...riders.map((id) => ({ meta: { path: ["flagged"], array_contains: [id] } })),
        { id: { in: named.map((n) => n.caseId) } },
      ],
    },
    orderBy: { createdAt: "desc" },
  });
  if (rows.length === 0) return history;
  const caseIds = rows.map((r) => r.id);
  const [employees, decisions, exceptions, replies] = await Promise.all([
    prisma.employee.findMany({ where: { id: { in: riders } }, select: { id: true, email: true } }),
    prisma.riderDecision.findMany({
      where: { employeeId: { in: riders }, approval: { caseId: { in: caseIds } }, outcome: { not: null } },
      select: { employeeId: true, outcome: true, updatedAt: true, approval: { select: { caseId: true } } },
      orderBy: { updatedAt: "asc" },
    }),
    prisma.riderException.findMany({
      where: { employeeId: { in: riders }, caseId: { in: caseIds } },
      orderBy: { grantedAt: "asc" },
    }),
    prisma.message.findMany({
      where: { direction: "inbound", autoReply: null, thread: { caseId: { in: caseIds } } },
      select: {
        fromAddress: true,
        bucket: true,
        body: true,
        replyText: true,
        receivedAt: true,
        createdAt: true,
        thread: { select: { caseId: true } },
      },
      orderBy: { createdAt: "asc" },
    }),
  ]);
  const emailOf = new Map(employees.map((e) => [e.id, e.email.toLowerCase()]));
  for (const employeeId of employeeIds) {
    const earlier = rows
      .map(toCaseRecord)
      .filter(
        (record) =>
          record.flagged.includes(employeeId) ||
          named.some((n) => n.employeeId === employeeId && n.caseId === record.case_id),
      )
      .slice(0, limit)
      .map((record): EarlierCase => {
        const theirs = replies.filter(
          (m) => m.thread.caseId === record.case_id && m.fromAddress.toLowerCase() === emailOf.get(employeeId),
        );
        const last = theirs.at(-1);
        return {
          record,
          rider_outcome:
            decisions.filter((d) => d.approval.caseId === record.case_id && d.employeeId === employeeId).at(-1)
              ?.outcome ?? null,
          exceptions: exceptions
            .filter((e) => e.caseId === record.case_id && e.employeeId === employeeId)
            .map(toException),
          escalated: theirs.some((m) => m.bucket === "escalation"),
          last_reply: last
            ? { at: last.receivedAt ?? last.createdAt, bucket: last.bucket, text: last.replyText ?? last.body }
            : null,
        };
      });
    if (earlier.length) history.set(employeeId, earlier);
  }
  return history;
}
