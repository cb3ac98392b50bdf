// The vanpool's map, drawn on the server as inline SVG with no tile server and no key: US county and
// state lines from us-atlas (topojson) projected with d3-geo, the pickup, the work site, a ring at the
// distance limit, and each rider's home coloured by their location verdict (a shape too, so colour is
// never the only sign). An approver sees each home at its coordinates or ZIP centroid; a member sees
// only the ZIP3 area it lies in, never a point.
import fs from "node:fs";
import { createRequire } from "node:module";
import { type ExtendedFeature, type GeoPermissibleObjects, geoBounds, geoCircle, geoMercator, geoPath } from "d3-geo";
import { feature } from "topojson-client";
import type { LatLng } from "../../domain/geo.js";
import { type Html, html } from "./page.js";

export interface MapHome {
  /** "EMP-1028 Diego Fuentes: fails, 50-75 mi", the marker's accessible name. */
  label: string;
  employeeId: string;
  verdict: string | null;
  /** Approvers: the home's point. */
  point?: LatLng;
  /** Members: the ZIP3 area instead. */
  area?: { center: LatLng; radiusMiles: number };
}

export interface MapInput {
  pickup: LatLng;
  /** Whether the pickup is the work site (no pickup point on file). */
  pickupIsWorkSite: boolean;
  workSite: LatLng;
  limitMiles: number;
  homes: MapHome[];
}

export const VERDICT_COLOURS: Record<"pass" | "fail" | "inconclusive", string> = {
  pass: "#1b6b35",
  fail: "#a4161a",
  inconclusive: "#8a5a00",
};
const VERDICT_WORDS = { pass: "Within the limit", fail: "Beyond the limit", inconclusive: "Could not be located" };
const WIDTH = 640;
const HEIGHT = 480;
const MILES_PER_DEGREE = 69.0934;

type Shape = ExtendedFeature;

interface Atlas {
  counties: { shape: Shape; bounds: [[number, number], [number, number]] }[];
  states: { shape: Shape; bounds: [[number, number], [number, number]] }[];
}

let atlas: Atlas | undefined;

/** us-atlas's county and state shapes with their bounds, read once. */
function loadAtlas(): Atlas {
  if (atlas) return atlas;
  const file = createRequire(import.meta.url).resolve("us-atlas/counties-10m.json");
  const topology = JSON.parse(fs.readFileSync(file, "utf8")) as Parameters<typeof feature>[0];
  const shapes = (name: "counties" | "states") =>
    (feature(topology, topology.objects[name]!) as unknown as { features: Shape[] }).features.map((shape) => ({
      shape,
      bounds: geoBounds(shape) as [[number, number], [number, number]],
    }));
  atlas = { counties: shapes("counties"), states: shapes("states") };
  return atlas;
}

const circle = (center: LatLng, miles: number) =>
  geoCircle()
    .center([center.lng, center.lat])
    .radius(miles / MILES_PER_DEGREE)();

const verdictOf = (verdict: string | null) =>
  verdict === "pass" || verdict === "fail" ? verdict : ("inconclusive" as const);

/** A marker's shape by verdict: a circle within the limit, a diamond beyond it, a square when unknown. */
function marker(x: number, y: number, verdict: "pass" | "fail" | "inconclusive"): Html {
  const colour = VERDICT_COLOURS[verdict];
  if (verdict === "pass")
    return html`<circle cx="${x}" cy="${y}" r="7" fill="${colour}" stroke="#fff" stroke-width="2"/>`;
  if (verdict === "fail")
    return html`<path d="M${x} ${y - 9}L${x + 9} ${y}L${x} ${y + 9}L${x - 9} ${y}Z" fill="${colour}" stroke="#fff" stroke-width="2"/>`;
  return html`<rect x="${x - 7}" y="${y - 7}" width="14" height="14" fill="${colour}" stroke="#fff" stroke-width="2"/>`;
}

const overlaps = (a: [[number, number], [number, number]], b: [[number, number], [number, number]]) =>
  a[0][0] <= b[1][0] && b[0][0] <= a[1][0] && a[0][1] <= b[1][1] && b[0][1] <= a[1][1];

export function vanpoolMap(input: MapInput, title: string): Html {
  const ring = circle(input.pickup, input.limitMiles);
  const extent: GeoPermissibleObjects = {
    type: "FeatureCollection",
    features: [
      { type: "Feature", geometry: ring, properties: null },
      ...[input.workSite, ...input.homes.flatMap((h) => (h.point ? [h.point] : h.area ? [h.area.center] : []))].map(
        (p) => ({
          type: "Feature" as const,
          geometry: { type: "Point" as const, coordinates: [p.lng, p.lat] },
          properties: null,
        }),
      ),
    ],
  };
  const projection = geoMercator().fitExtent(
    [
      [30, 30],
      [WIDTH - 30, HEIGHT - 30],
    ],
    extent,
  );
  const path = geoPath(projection).digits(1);
  const corners = [projection.invert!([0, HEIGHT])!, projection.invert!([WIDTH, 0])!];
  const view: [[number, number], [number, number]] = [
    [corners[0]![0], corners[0]![1]],
    [corners[1]![0], corners[1]![1]],
  ];
  const { counties, states } = loadAtlas();
  const at = (p: LatLng) => projection([p.lng, p.lat])!.map((n) => Math.round(n * 10) / 10) as [number, number];
  const [px, py] = at(input.pickup);
  const [wx, wy] = at(input.workSite);
  const counted = { pass: 0, fail: 0, inconclusive: 0 };
  for (const h of input.homes) counted[verdictOf(h.verdict)]++;

  return html`<div class="map">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-labelledby="map-title map-desc">
<title id="map-title">${title}</title>
<desc id="map-desc">The ${input.pickupIsWorkSite ? "work site (the van's pickup)" : "pickup"}, a ring ${input.limitMiles} miles around it, and ${input.homes.length} riders' homes: ${counted.pass} within the limit, ${counted.fail} beyond it, ${counted.inconclusive} not located. The riders table below lists each.</desc>
<g fill="#ffffff" stroke="#b9c4ce" stroke-width="0.6">${counties.filter((c) => overlaps(c.bounds, view)).map((c) => html`<path d="${path(c.shape) ?? ""}"/>`)}</g>
<g fill="none" stroke="#6b7a88" stroke-width="1.4">${states.filter((s) => overlaps(s.bounds, view)).map((s) => html`<path d="${path(s.shape) ?? ""}"/>`)}</g>
<path class="limit" d="${path(ring) ?? ""}" fill="#0b57a4" fill-opacity="0.06" stroke="#0b57a4" stroke-width="2" stroke-dasharray="8 5"/>
${input.homes.map((h) => {
  const verdict = verdictOf(h.verdict);
  if (h.area) {
    const [x, y] = at(h.area.center);
    return html`<g class="home area" data-rider="${h.employeeId}" data-verdict="${verdict}" role="img" aria-label="${h.label}"><title>${h.label}</title>
<path d="${path(circle(h.area.center, h.area.radiusMiles)) ?? ""}" fill="${VERDICT_COLOURS[verdict]}" fill-opacity="0.18" stroke="${VERDICT_COLOURS[verdict]}" stroke-width="1.5"/>${marker(x, y, verdict)}</g>`;
  }
  if (!h.point) return "";
  const [x, y] = at(h.point);
  return html`<g class="home" data-rider="${h.employeeId}" data-verdict="${verdict}" role="img" aria-label="${h.label}"><title>${h.label}</title>${marker(x, y, verdict)}</g>`;
})}
<g class="work-site" role="img" aria-label="Work site"><title>Work site</title><path d="M${wx} ${wy - 11}L${wx + 10} ${wy + 8}L${wx - 10} ${wy + 8}Z" fill="#14324f" stroke="#fff" stroke-width="2"/></g>
${input.pickupIsWorkSite ? "" : html`<g class="pickup" role="img" aria-label="Pickup"><title>Pickup</title><rect x="${px - 8}" y="${py - 8}" width="16" height="16" rx="3" fill="#0b57a4" stroke="#fff" stroke-width="2"/></g>`}
</svg>
<ul class="legend" aria-label="Map legend">
  ${input.pickupIsWorkSite ? "" : html`<li><svg width="18" height="18" aria-hidden="true"><rect x="1" y="1" width="16" height="16" rx="3" fill="#0b57a4"/></svg> Pickup</li>`}
  <li><svg width="18" height="18" aria-hidden="true"><path d="M9 1L17 16L1 16Z" fill="#14324f"/></svg> Work site${input.pickupIsWorkSite ? " (the pickup)" : ""}</li>
  <li><svg width="18" height="18" aria-hidden="true"><circle cx="9" cy="9" r="7" fill="none" stroke="#0b57a4" stroke-width="2" stroke-dasharray="4 2"/></svg> ${input.limitMiles} miles from the pickup (the limit)</li>
  <li><svg width="18" height="18" aria-hidden="true">${marker(9, 9, "pass")}</svg> Home ${VERDICT_WORDS.pass.toLowerCase()}</li>
  <li><svg width="18" height="18" aria-hidden="true">${marker(9, 9, "fail")}</svg> Home ${VERDICT_WORDS.fail.toLowerCase()}</li>
  <li><svg width="18" height="18" aria-hidden="true">${marker(9, 9, "inconclusive")}</svg> Home that ${VERDICT_WORDS.inconclusive.toLowerCase()}</li>
  ${input.homes.some((h) => h.area) ? html`<li>A shaded circle is the ZIP3 area a home lies in; approvers see the home itself.</li>` : ""}
</ul>
</div>`;
}
