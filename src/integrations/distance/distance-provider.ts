import type { LatLng } from "../../domain/geo.js";
import type { DistanceMethod } from "../../domain/location-policy.js";

export interface MeasuredDistance {
  miles: number;
  method: DistanceMethod;
  /** Set when the provider could not measure and straight-line miles stand in. */
  fallback_reason?: string;
}

/** Distances from many homes to one pickup point, in the order of `origins`. */
export interface DistanceProvider {
  readonly name: string;
  measure(origins: LatLng[], destination: LatLng): Promise<MeasuredDistance[]>;
}
