// US ZIP code centroids from the `zipcodes` package: the offline stand-in for a
// rider's home when no coordinates are on file.
import zipcodes from "zipcodes";
import type { LatLng } from "../../domain/geo.js";

export interface ZipCentroid {
  point: LatLng;
  city: string;
  state: string;
}

export function lookupZipCentroid(zip: string): ZipCentroid | undefined {
  const found = /^\d{5}$/.test(zip) ? zipcodes.lookup(zip) : undefined;
  if (!found) return undefined;
  return { point: { lat: found.latitude, lng: found.longitude }, city: found.city, state: found.state };
}
