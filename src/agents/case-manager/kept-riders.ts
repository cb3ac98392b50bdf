// Riders a person kept (docs/exceptions.md): an audit that finds a rider failing a check that a live
// exception covers, on the facts it was granted on, treats them as not flagged when it decides about a
// case. The stored check result stays as it was: the rider fails, kept by the exception.
import { findExceptionsOn, findRiderFacts } from "../../data/exception-repository.js";
import type { PrismaClient } from "../../data/prisma.js";
import { findLatestResults } from "../../data/verification-repository.js";
import { checkFacts, exceptionCoverage, type RiderException } from "../../domain/exceptions.js";
import { CHECK_KINDS, type CheckKind, type Verdict } from "../../domain/specialist-result.js";

export interface CheckVerdicts {
  vanpool_id: string;
  location: { verdict: Verdict; flagged: string[] };
  shift: { verdict: Verdict; flagged: string[] };
  /** Absent from results stored before the employment check existed. */
  employment?: { verdict: Verdict; flagged: string[] };
}

export interface KeptRider {
  employee_id: string;
  check: CheckKind;
  exception: RiderException;
}

/** Per vanpool, its failing riders that a live exception covers now. */
export async function findKeptRiders(
  prisma: PrismaClient,
  audits: readonly CheckVerdicts[],
  now: Date,
): Promise<Map<string, KeptRider[]>> {
  const kept = new Map<string, KeptRider[]>();
  const failing = audits.filter((a) => CHECK_KINDS.some((c) => a[c]?.verdict === "fail"));
  const exceptions = await findExceptionsOn(
    prisma,
    failing.map((a) => a.vanpool_id),
  );
  if (exceptions.length === 0) return kept;
  const facts = await findRiderFacts(prisma, [...new Set(exceptions.map((e) => e.employee_id))]);
  for (const audit of failing)
    for (const check of CHECK_KINDS)
      for (const employeeId of audit[check]?.verdict === "fail" ? audit[check].flagged : []) {
        const source = facts.get(employeeId);
        if (!source) continue;
        const coverage = exceptionCoverage(
          exceptions,
          { employee_id: employeeId, vanpool_id: audit.vanpool_id, facts: checkFacts(check, source) },
          now,
        );
        if (coverage.kind === "covered")
          kept.set(audit.vanpool_id, [
            ...(kept.get(audit.vanpool_id) ?? []),
            { employee_id: employeeId, check, exception: coverage.exception },
          ]);
      }
  return kept;
}

/**
 * The verdicts a case is decided on: riders kept by an exception are not flagged, and a check that failed only
 * for kept riders counts as passing.
 */
export function withoutKept<T extends CheckVerdicts>(audit: T, kept: readonly KeptRider[]): T {
  const result = { ...audit };
  for (const check of CHECK_KINDS) {
    const found = audit[check];
    if (!found) continue;
    const flagged = found.flagged.filter((id) => !kept.some((k) => k.check === check && k.employee_id === id));
    result[check] = { verdict: found.verdict === "fail" && flagged.length === 0 ? "pass" : found.verdict, flagged };
  }
  return result;
}

/** The riders of a vanpool's latest audit that fail but a live exception keeps (the status answer, an audit's answer). */
export async function keptRidersOf(prisma: PrismaClient, vanpoolId: string, now: Date): Promise<KeptRider[]> {
  const { location, shift, employment } = await findLatestResults(prisma, vanpoolId);
  if (!location || !shift) return [];
  return (
    (await findKeptRiders(prisma, [{ vanpool_id: vanpoolId, location, shift, employment }], now)).get(vanpoolId) ?? []
  );
}
