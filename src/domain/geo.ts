export interface LatLng {
  lat: number;
  lng: number;
}

const EARTH_RADIUS_MILES = 3958.8;

/** Great-circle (straight-line) distance in miles. */
export function haversineMiles(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** What Slack and emails may show instead of a distance: never an address. */
export function distanceBand(miles: number): string {
  if (miles < 10) return "under 10 mi";
  if (miles < 25) return "10-25 mi";
  if (miles < 50) return "25-50 mi";
  if (miles < 75) return "50-75 mi";
  if (miles < 100) return "75-100 mi";
  return "over 100 mi";
}
