// A flagged rider's own facts for an email, taken from the stored evidence: their
// distance or their shift against the van's, nothing about anyone else.

import type { VanpoolSnapshot } from "../../domain/snapshot.js";
import type { EvidenceItem, SpecialistResult } from "../../domain/specialist-result.js";
import type { RiderFacts } from "./templates.js";

export function riderFacts(
  van: VanpoolSnapshot,
  employee: { employee_id: string; first_name: string },
  results: Partial<Record<"location" | "shift", Pick<SpecialistResult, "evidence" | "policy">>>,
): RiderFacts {
  const facts: RiderFacts = { first_name: employee.first_name, vanpool_id: van.vanpool_id, vanpool_name: van.name };
  const location = results.location;
  if (location) {
    const profile = find(location.evidence, "employee_profile", employee.employee_id);
    const distance = find(location.evidence, "distance_check", employee.employee_id);
    const pickup = location.evidence.find((e) => e.type === "vanpool_pickup");
    if (profile && distance) {
      facts.location = {
        home_city: (profile.home_city as string | null) ?? null,
        home_zip: (profile.home_zip as string | null) ?? null,
        distance_miles: (distance.distance_miles as number | null) ?? null,
        threshold_miles: Number(distance.threshold_miles),
        pickup: (pickup?.address as string | null) ?? null,
      };
    }
  }
  const shift = results.shift;
  if (shift) {
    const rider = find(shift.evidence, "employee_shift", employee.employee_id);
    const reference = shift.evidence.find((e) => e.type === "shift_reference");
    if (rider) {
      facts.shift = {
        shift_name: (rider.shift_name as string | null) ?? null,
        schedule: (rider.schedule as string | null) ?? null,
        van_schedule: (reference?.description as string | null) ?? null,
        compatible_percent:
          typeof rider.compatible_day_ratio === "number" ? Math.round(rider.compatible_day_ratio * 100) : null,
        required_percent: Math.round(Number(shift.policy.min_compatible_day_ratio ?? 0.8) * 100),
        tolerance_minutes: Number(shift.policy.tolerance_minutes ?? 60),
      };
    }
  }
  return facts;
}

function find(evidence: EvidenceItem[], type: string, employeeId: string): EvidenceItem | undefined {
  return evidence.find((e) => e.type === type && e.employee_id === employeeId);
}
