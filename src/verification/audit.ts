// Audits one vanpool: every check in parallel, combined into one verdict.

import type { VerificationPolicy } from "../config/settings.js";
import { type EmploymentCheckInput, evaluateEmployment } from "../domain/employment-policy.js";
import { dateInTimeZone, isTimeZone } from "../domain/schedule.js";
import { evaluateShift, type ShiftCheckInput } from "../domain/shift-policy.js";
import type { VanpoolSnapshot } from "../domain/snapshot.js";
import {
  type CheckKind,
  combineVerdicts,
  type SpecialistResult,
  type VanpoolAudit,
} from "../domain/specialist-result.js";
import type { DistanceProvider } from "../integrations/distance/index.js";
import { checkLocation, type LocationCheckInput } from "./location-check.js";

export interface AuditDeps {
  distance: DistanceProvider;
  policy: VerificationPolicy;
  /** Injected clock: the audit week starts on this day in the vanpool's time zone. */
  now: () => Date;
  defaultTimeZone: string;
}

export function toLocationInput(snapshot: VanpoolSnapshot): LocationCheckInput {
  return {
    vanpool: {
      vanpool_id: snapshot.vanpool_id,
      work_site_coords: snapshot.work_site_coords,
      pickup_coords: snapshot.pickup_coords,
      work_site_address: snapshot.work_site_address,
      pickup_address: snapshot.pickup_address,
    },
    riders: snapshot.riders.map((r) => ({
      employee_id: r.employee_id,
      home_zip: r.home_zip,
      home_coords: r.home_coords,
      home_city: r.home_city,
    })),
  };
}

export function toShiftInput(snapshot: VanpoolSnapshot, asOf: string): ShiftCheckInput {
  return {
    vanpool: { vanpool_id: snapshot.vanpool_id, schedule: snapshot.operating_schedule },
    riders: snapshot.riders.map((r) => ({
      employee_id: r.employee_id,
      shift: r.shift ? { name: r.shift.name, schedule: r.shift.schedule } : null,
      pto_dates: r.pto_dates,
    })),
    as_of: asOf,
  };
}

/** `today` is the audit week's first day: today in the vanpool's time zone. */
export function toEmploymentInput(snapshot: VanpoolSnapshot, today: string): EmploymentCheckInput {
  return {
    vanpool: { vanpool_id: snapshot.vanpool_id },
    riders: snapshot.riders.map((r) => ({
      employee_id: r.employee_id,
      first_name: r.first_name,
      last_name: r.last_name,
      ...r.employment,
    })),
    today,
  };
}

export function auditWeekStart(snapshot: VanpoolSnapshot, deps: Pick<AuditDeps, "defaultTimeZone">, now: Date): string {
  const timeZone = snapshot.time_zone ?? deps.defaultTimeZone;
  if (!isTimeZone(timeZone)) throw new Error(`unknown time zone "${timeZone}" (fix the vanpool's time_zone)`);
  return dateInTimeZone(now, timeZone);
}

/** One check of one vanpool: what a specialist computes. */
export async function runCheck(
  check: CheckKind,
  snapshot: VanpoolSnapshot,
  deps: AuditDeps,
  asOf: string,
): Promise<SpecialistResult> {
  if (check === "location")
    return checkLocation(toLocationInput(snapshot), deps.distance, { maxDistanceMiles: deps.policy.maxDistanceMiles });
  if (check === "employment") return evaluateEmployment(toEmploymentInput(snapshot, asOf));
  return evaluateShift(toShiftInput(snapshot, asOf), {
    toleranceMinutes: deps.policy.shiftToleranceMinutes,
    minCompatibleDayRatio: deps.policy.minCompatibleDayRatio,
  });
}

export async function auditVanpool(snapshot: VanpoolSnapshot, deps: AuditDeps): Promise<VanpoolAudit> {
  const startedAt = deps.now();
  const asOf = auditWeekStart(snapshot, deps, startedAt);
  const [location, shift, employment] = await Promise.all([
    runCheck("location", snapshot, deps, asOf),
    runCheck("shift", snapshot, deps, asOf),
    runCheck("employment", snapshot, deps, asOf),
  ]);
  return {
    vanpool_id: snapshot.vanpool_id,
    as_of: asOf,
    verdict: combineVerdicts([location.verdict, shift.verdict, employment.verdict]),
    location,
    shift,
    employment,
    started_at: startedAt,
    finished_at: deps.now(),
  };
}
