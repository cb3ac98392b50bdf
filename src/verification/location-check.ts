// Measures each rider's home-to-pickup distance, then applies the location policy.
import type { LatLng } from "../domain/geo.js";
import {
  evaluateLocation,
  type LocationPolicy,
  type PickupPoint,
  type RiderDistance,
} from "../domain/location-policy.js";
import type { SpecialistResult } from "../domain/specialist-result.js";
import type { DistanceProvider } from "../integrations/distance/index.js";
import { lookupZipCentroid } from "../integrations/distance/zip-centroids.js";

/** The shape of the `location` evaluation datasets, and what a vanpool snapshot maps to. */
export interface LocationCheckInput {
  vanpool: {
    vanpool_id: string;
    work_site_coords: LatLng;
    pickup_coords?: LatLng | null;
    work_site_address?: string | null;
    pickup_address?: string | null;
  };
  riders: { employee_id: string; home_zip?: string | null; home_coords?: LatLng | null; home_city?: string | null }[];
}

export async function checkLocation(
  input: LocationCheckInput,
  distance: DistanceProvider,
  policy: LocationPolicy,
): Promise<SpecialistResult> {
  const { vanpool } = input;
  const pickup: PickupPoint = vanpool.pickup_coords
    ? {
        vanpool_id: vanpool.vanpool_id,
        source: "pickup",
        address: vanpool.pickup_address ?? null,
        point: vanpool.pickup_coords,
      }
    : {
        vanpool_id: vanpool.vanpool_id,
        source: "work_site",
        address: vanpool.work_site_address ?? null,
        point: vanpool.work_site_coords,
      };

  const homes = input.riders.map((rider) => {
    if (rider.home_coords)
      return { source: "home_coords" as const, point: rider.home_coords, city: rider.home_city ?? null };
    const centroid = rider.home_zip ? lookupZipCentroid(rider.home_zip) : undefined;
    if (centroid)
      return { source: "zip_centroid" as const, point: centroid.point, city: rider.home_city ?? centroid.city };
    return { source: "unknown" as const, point: null, city: rider.home_city ?? null };
  });
  const located = homes.flatMap((home, i) => (home.point ? [{ index: i, point: home.point }] : []));
  const measured = await distance.measure(
    located.map((l) => l.point),
    pickup.point,
  );
  const distanceByRider = new Map(located.map((l, i) => [l.index, measured[i]!]));

  const riders: RiderDistance[] = input.riders.map((rider, i) => ({
    employee_id: rider.employee_id,
    home_zip: rider.home_zip ?? null,
    home_city: homes[i]!.city,
    home_source: homes[i]!.source,
    home_point: homes[i]!.point,
    distance: distanceByRider.get(i) ?? null,
  }));
  return evaluateLocation(pickup, riders, policy);
}
