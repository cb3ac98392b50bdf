// Location policy (docs/verification-policy.md): each rider must live within range of the pickup.
// Points and distances are measured beforehand (see src/verification); this module
// only decides.
import type { LatLng } from "./geo.js";
import {
  combineVerdicts,
  type EvidenceItem,
  plural,
  type SpecialistResult,
  type Verdict,
} from "./specialist-result.js";

export interface LocationPolicy {
  maxDistanceMiles: number;
}

export type HomePointSource = "home_coords" | "zip_centroid" | "unknown";
export type DistanceMethod = "haversine" | "driving";

export interface RiderDistance {
  employee_id: string;
  home_zip: string | null;
  home_city: string | null;
  home_source: HomePointSource;
  home_point: LatLng | null;
  /** null when the home point is unknown. */
  distance: { miles: number; method: DistanceMethod; fallback_reason?: string } | null;
}

export interface PickupPoint {
  vanpool_id: string;
  source: "pickup" | "work_site";
  address: string | null;
  point: LatLng;
}

export function evaluateLocation(
  pickup: PickupPoint,
  riders: RiderDistance[],
  policy: LocationPolicy,
): SpecialistResult {
  const recordedPolicy = { max_distance_miles: policy.maxDistanceMiles };
  const pickupEvidence: EvidenceItem = {
    type: "vanpool_pickup",
    vanpool_id: pickup.vanpool_id,
    point_source: pickup.source,
    address: pickup.address,
    pickup_coords: pickup.point,
  };
  if (riders.length === 0) {
    return {
      check: "location",
      verdict: "inconclusive",
      confidence: 1,
      flagged: [],
      policy: recordedPolicy,
      reasoning: `${pickup.vanpool_id} has no active riders, so there is nothing to compare.`,
      evidence: [pickupEvidence],
    };
  }

  const assessed = riders.map((rider) => {
    const verdict: Verdict =
      rider.distance === null ? "inconclusive" : rider.distance.miles <= policy.maxDistanceMiles ? "pass" : "fail";
    return { rider, verdict, confidence: riderConfidence(rider, verdict, policy) };
  });
  const verdict = combineVerdicts(assessed.map((a) => a.verdict));
  const failing = assessed.filter((a) => a.verdict === "fail");
  const unknown = assessed.filter((a) => a.verdict === "inconclusive");
  const where =
    pickup.source === "pickup"
      ? `the pickup point${pickup.address ? ` (${pickup.address})` : ""}`
      : `the work site${pickup.address ? ` (${pickup.address})` : ""}, the van's pickup point`;
  const limit = `${policy.maxDistanceMiles} miles`;
  const describe = (r: RiderDistance) =>
    `${r.employee_id} (${r.home_city ?? r.home_zip ?? "unknown home"}, ${r.distance!.miles.toFixed(1)} mi)`;
  const unknownText =
    unknown.length > 0
      ? `${plural(unknown.length, "rider")} could not be located (no home coordinates and an unknown ZIP): ${unknown.map((a) => `${a.rider.employee_id} (ZIP ${a.rider.home_zip ?? "missing"})`).join(", ")}.`
      : "";
  const fallback = riders.find((r) => r.distance?.fallback_reason);
  const fallbackText = fallback
    ? ` Driving distance was unavailable (${fallback.distance!.fallback_reason}); straight-line miles were used.`
    : "";

  let reasoning: string;
  if (verdict === "fail") {
    reasoning = `${plural(failing.length, "rider")} of ${riders.length} live farther than ${limit} from ${where}: ${failing.map((a) => describe(a.rider)).join("; ")}.${unknownText ? ` ${unknownText}` : ""}`;
  } else if (verdict === "inconclusive") {
    reasoning = `No located rider lives farther than ${limit} from ${where}, but ${unknownText.charAt(0).toLowerCase()}${unknownText.slice(1)}`;
  } else {
    const farthest = assessed.reduce((a, b) => (b.rider.distance!.miles > a.rider.distance!.miles ? b : a));
    reasoning = `All ${plural(riders.length, "rider")} live within ${limit} of ${where}; the farthest is ${describe(farthest.rider)}.`;
  }

  const decisive = verdict === "fail" ? failing : assessed;
  return {
    check: "location",
    verdict,
    confidence: verdict === "inconclusive" ? 2 : Math.min(...decisive.map((a) => a.confidence)),
    reasoning: reasoning + fallbackText,
    evidence: [
      pickupEvidence,
      ...assessed.flatMap(({ rider, verdict: riderVerdict }): EvidenceItem[] => [
        {
          type: "employee_profile",
          employee_id: rider.employee_id,
          home_zip: rider.home_zip,
          home_city: rider.home_city,
          home_point_source: rider.home_source,
          home_coords: rider.home_point,
        },
        {
          type: "distance_check",
          employee_id: rider.employee_id,
          distance_miles: rider.distance ? Math.round(rider.distance.miles * 10) / 10 : null,
          method: rider.distance?.method ?? null,
          ...(rider.distance?.fallback_reason ? { fallback_reason: rider.distance.fallback_reason } : {}),
          threshold_miles: policy.maxDistanceMiles,
          verdict: riderVerdict,
        },
      ]),
    ],
    flagged: failing.map((a) => a.rider.employee_id),
    policy: recordedPolicy,
  };
}

/** Exact coordinates are certain; a ZIP centroid near the threshold is not. */
function riderConfidence(rider: RiderDistance, verdict: Verdict, policy: LocationPolicy): number {
  if (verdict === "inconclusive" || !rider.distance) return 2;
  const margin = Math.abs(rider.distance.miles - policy.maxDistanceMiles);
  if (rider.home_source === "home_coords") return margin < 1 ? 4 : 5;
  return margin < 5 ? 3 : 4;
}
