// US ZIP code centroids from the `zipcodes` package: the offline stand-in for a
// rider's home when no coordinates are on file.
import zipcodes from "zipcodes";
import { haversineMiles, type LatLng } from "../../domain/geo.js";

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

export interface Zip3Area {
  center: LatLng;
  /** How far nine in ten of the area's ZIP centroids lie from its center, in miles (at least 3). */
  radiusMiles: number;
}

let areas: Map<string, Zip3Area> | undefined;

/** The area of a ZIP3 (`951`): the mean of its ZIPs' centroids and how far they spread. What a reader who may not see a home's ZIP or position is shown instead. */
export function lookupZip3Area(zip3: string): Zip3Area | undefined {
  if (!areas) {
    const groups = new Map<string, LatLng[]>();
    for (const code of Object.values(
      zipcodes.codes as Record<string, { zip: string; latitude: number; longitude: number }>,
    )) {
      if (!/^\d{5}$/.test(code.zip) || !Number.isFinite(code.latitude)) continue;
      const key = code.zip.slice(0, 3);
      const group = groups.get(key) ?? [];
      group.push({ lat: code.latitude, lng: code.longitude });
      groups.set(key, group);
    }
    areas = new Map(
      [...groups].map(([key, points]) => {
        const center = {
          lat: points.reduce((s, p) => s + p.lat, 0) / points.length,
          lng: points.reduce((s, p) => s + p.lng, 0) / points.length,
        };
        const spread = points.map((p) => haversineMiles(center, p)).sort((a, b) => a - b);
        return [key, { center, radiusMiles: Math.max(3, spread[Math.floor((spread.length - 1) * 0.9)]!) }];
      }),
    );
  }
  return areas.get(zip3);
}
