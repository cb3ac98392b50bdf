// Exceptions a person granted for failing riders (docs/exceptions.md): granted with the rider's facts for the
// check as they are now, listed, revoked, and read back for the audits that must honour them.
import {
  type CheckFacts,
  checkFacts,
  type ExceptionReason,
  type RiderException,
  type RiderFactsSource,
} from "../domain/exceptions.js";
import type { LatLng } from "../domain/geo.js";
import { newId } from "../domain/ids.js";
import type { Schedule } from "../domain/schedule.js";
import type { CheckKind } from "../domain/specialist-result.js";
import { notFound } from "../errors.js";
import { recordEvent } from "./audit-log.js";
import type { Prisma, PrismaClient } from "./prisma.js";

type Db = PrismaClient | Prisma.TransactionClient;
type ExceptionRow = Prisma.RiderExceptionGetPayload<object>;

export function toException(row: ExceptionRow): RiderException {
  return {
    exception_id: row.id,
    employee_id: row.employeeId,
    vanpool_id: row.vanpoolId,
    check: row.check,
    reason: row.reason as ExceptionReason,
    note: row.note,
    granted_by: row.grantedBy,
    granted_at: row.grantedAt,
    expires_at: row.expiresAt,
    facts: row.facts as unknown as CheckFacts,
    case_id: row.caseId,
    revoked_by: row.revokedBy,
    revoked_at: row.revokedAt,
  };
}

/** Each rider's facts as the checks read them now: home ZIP and coordinates, shift and its hours. */
export async function findRiderFacts(db: Db, employeeIds: readonly string[]): Promise<Map<string, RiderFactsSource>> {
  if (employeeIds.length === 0) return new Map();
  const rows = await db.employee.findMany({
    where: { id: { in: [...employeeIds] } },
    select: {
      id: true,
      homeZip: true,
      homeLat: true,
      homeLng: true,
      status: true,
      separationDate: true,
      shift: { select: { id: true, schedule: true } },
    },
  });
  return new Map(
    rows.map((row) => [
      row.id,
      {
        home_zip: row.homeZip,
        home_coords: (row.homeLat === null || row.homeLng === null
          ? null
          : { lat: row.homeLat, lng: row.homeLng }) satisfies LatLng | null,
        shift: row.shift ? { shift_id: row.shift.id, schedule: row.shift.schedule as unknown as Schedule } : null,
        employment: { status: row.status, separation_date: row.separationDate },
      },
    ]),
  );
}

export interface GrantInput {
  caseId: string;
  vanpoolId: string;
  /** Each kept rider with the checks they fail. */
  riders: { employee_id: string; checks: readonly CheckKind[] }[];
  reason: ExceptionReason;
  note: string;
  grantedBy: string;
  /** The decision that granted it: keep, keep_everyone, close_resolved. */
  decision: string;
  now: Date;
  expiresAt: Date;
}

/**
 * Grants one exception per rider and check on the facts as they are now. Run again for the same case and
 * decision (a retried job) it grants nothing twice. Returns the exceptions of this case and decision.
 */
export async function grantExceptions(db: Db, input: GrantInput): Promise<RiderException[]> {
  const facts = await findRiderFacts(
    db,
    input.riders.map((r) => r.employee_id),
  );
  const existing = await db.riderException.findMany({ where: { caseId: input.caseId, decision: input.decision } });
  const has = (employeeId: string, check: CheckKind) =>
    existing.some((e) => e.employeeId === employeeId && e.check === check);
  const rows = input.riders.flatMap((rider) => {
    const source = facts.get(rider.employee_id);
    if (!source) return [];
    return rider.checks
      .filter((check) => !has(rider.employee_id, check))
      .map((check) => ({
        id: newId("exception"),
        employeeId: rider.employee_id,
        vanpoolId: input.vanpoolId,
        check,
        reason: input.reason,
        note: input.note,
        grantedBy: input.grantedBy,
        grantedAt: input.now,
        expiresAt: input.expiresAt,
        facts: checkFacts(check, source) as unknown as Prisma.InputJsonValue,
        caseId: input.caseId,
        decision: input.decision,
      }));
  });
  if (rows.length > 0) {
    await db.riderException.createMany({ data: rows });
    for (const row of rows)
      await recordEvent(db, {
        actor: `person:${input.grantedBy}`,
        action: "exception.granted",
        subjectType: "case",
        subjectId: input.caseId,
        at: input.now,
        details: {
          exception_id: row.id,
          employee_id: row.employeeId,
          check: row.check,
          reason: row.reason,
          expires_at: row.expiresAt.toISOString(),
        },
      });
  }
  const all = await db.riderException.findMany({
    where: { caseId: input.caseId, decision: input.decision },
    orderBy: [{ employeeId: "asc" }, { check: "asc" }],
  });
  return all.map(toException);
}

/** Every exception ever granted on these vanpools: the audit decides which of them still covers a rider. */
export async function findExceptionsOn(db: Db, vanpoolIds: readonly string[]): Promise<RiderException[]> {
  if (vanpoolIds.length === 0) return [];
  const rows = await db.riderException.findMany({ where: { vanpoolId: { in: [...vanpoolIds] } } });
  return rows.map(toException);
}

export async function findExceptionsById(db: Db, ids: readonly string[]): Promise<RiderException[]> {
  if (ids.length === 0) return [];
  const rows = await db.riderException.findMany({ where: { id: { in: [...ids] } }, orderBy: { id: "asc" } });
  return rows.map(toException);
}

/** Exceptions that hold at `now` (not revoked, not expired), the soonest to expire first. */
export async function listLiveExceptions(db: Db, now: Date): Promise<RiderException[]> {
  const rows = await db.riderException.findMany({
    where: { revokedAt: null, expiresAt: { gt: now } },
    orderBy: [{ expiresAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toException);
}

/** Revokes a live exception: the next audit checks the rider normally. */
export async function revokeException(
  prisma: PrismaClient,
  input: { exceptionId: string; actor: string; now: Date },
): Promise<RiderException> {
  return prisma.$transaction(async (tx) => {
    const row = await tx.riderException.findUnique({ where: { id: input.exceptionId } });
    if (!row) throw notFound(`No exception ${input.exceptionId}. Exception ids look like EXC-1A2B3C4D5E6F7A8B.`);
    const { count } = await tx.riderException.updateMany({
      where: { id: input.exceptionId, revokedAt: null },
      data: { revokedBy: input.actor, revokedAt: input.now },
    });
    if (count === 1)
      await recordEvent(tx, {
        actor: `person:${input.actor}`,
        action: "exception.revoked",
        subjectType: row.caseId ? "case" : "vanpool",
        subjectId: row.caseId ?? row.vanpoolId,
        at: input.now,
        details: { exception_id: row.id, employee_id: row.employeeId, check: row.check },
      });
    return toException(await tx.riderException.findUniqueOrThrow({ where: { id: input.exceptionId } }));
  });
}

/**
 * For the digest and the report: exceptions granted in [since, until) (without `until`, from `since` on), and live
 * ones expiring after `until` and by `soon`.
 */
export async function countExceptions(
  db: Db,
  window: { since: Date; until?: Date; soon: Date },
): Promise<{ granted: number; expiring: number }> {
  const [granted, expiring] = await Promise.all([
    db.riderException.count({
      where: { grantedAt: { gte: window.since, ...(window.until ? { lt: window.until } : {}) } },
    }),
    window.until
      ? db.riderException.count({ where: { revokedAt: null, expiresAt: { gt: window.until, lte: window.soon } } })
      : 0,
  ]);
  return { granted, expiring };
}
