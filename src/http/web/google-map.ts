// The vanpool's map on Google's Maps JavaScript API, when a browser key is configured
// (GOOGLE_MAPS_BROWSER_KEY, or GOOGLE_MAPS_API_KEY when that key may be used from a browser): the same
// pickup, work site, limit ring and homes as the offline SVG map, in the same colours. The page carries
// the map's facts as JSON (a member's homes only as ZIP3 areas, as on the SVG map) and one script of
// ours, /web/google-map.js, draws them; the page's content security policy then allows Google's hosts.

import { raw } from "hono/html";
import { type MapInput, VERDICT_COLOURS } from "./map.js";
import { type Html, html } from "./page.js";

export const GOOGLE_MAP_SCRIPT_PATH = "/web/google-map.js";
const METRES_PER_MILE = 1609.344;

/** The hosts Google's Maps JavaScript API loads from, for the content security policy. */
export const GOOGLE_MAP_SOURCES = {
  scriptSrc: ["https://maps.googleapis.com"],
  connectSrc: ["https://maps.googleapis.com"],
  imgSrc: ["https://maps.googleapis.com", "https://maps.gstatic.com", "data:"],
  fontSrc: ["https://fonts.gstatic.com"],
  // The API styles its controls inline.
  styleSrc: ["'unsafe-inline'", "https://fonts.googleapis.com"],
};

export function googleMap(input: MapInput, title: string, apiKey: string): Html {
  const colour = (verdict: string | null) =>
    VERDICT_COLOURS[verdict === "pass" || verdict === "fail" ? verdict : "inconclusive"];
  const facts = {
    apiKey,
    pickup: input.pickup,
    pickupIsWorkSite: input.pickupIsWorkSite,
    workSite: input.workSite,
    ringMetres: input.limitMiles * METRES_PER_MILE,
    homes: input.homes.map((h) => ({
      label: h.label,
      colour: colour(h.verdict),
      ...(h.point ? { point: h.point } : {}),
      ...(h.area ? { area: { center: h.area.center, radiusMetres: h.area.radiusMiles * METRES_PER_MILE } } : {}),
    })),
  };
  // JSON in a script element: "<" escaped so no value can close it.
  const json = JSON.stringify(facts).replace(/</g, "\\u003c");
  return html`<div class="map google-map" id="google-map" role="img" aria-label="${title}"></div>
<script type="application/json" id="google-map-facts">${raw(json)}</script>
<script src="${GOOGLE_MAP_SCRIPT_PATH}" defer></script>`;
}

/** Draws the facts the page carries with Google's API; plain JavaScript served as a file (no inline script). */
export const GOOGLE_MAP_SCRIPT = `(() => {
  const facts = JSON.parse(document.getElementById("google-map-facts").textContent);
  window.poolPatrolMap = () => {
    const g = google.maps;
    const map = new g.Map(document.getElementById("google-map"), { center: facts.pickup, zoom: 9 });
    const bounds = new g.LatLngBounds();
    const ring = new g.Circle({ map, center: facts.pickup, radius: facts.ringMetres, strokeColor: "#1d4ed8", strokeWeight: 2, fillOpacity: 0 });
    bounds.union(ring.getBounds());
    new g.Marker({ map, position: facts.pickup, title: facts.pickupIsWorkSite ? "Work site and pickup" : "Pickup", label: "P" });
    if (!facts.pickupIsWorkSite) new g.Marker({ map, position: facts.workSite, title: "Work site", label: "W" });
    for (const home of facts.homes) {
      if (home.point) {
        new g.Marker({ map, position: home.point, title: home.label,
          icon: { path: g.SymbolPath.CIRCLE, scale: 7, fillColor: home.colour, fillOpacity: 1, strokeColor: "#fff", strokeWeight: 2 } });
        bounds.extend(home.point);
      } else if (home.area) {
        const area = new g.Circle({ map, center: home.area.center, radius: home.area.radiusMetres, strokeColor: home.colour, fillColor: home.colour, fillOpacity: 0.18 });
        bounds.union(area.getBounds());
      }
    }
    map.fitBounds(bounds);
  };
  const script = document.createElement("script");
  script.src = "https://maps.googleapis.com/maps/api/js?key=" + encodeURIComponent(facts.apiKey) + "&callback=poolPatrolMap";
  script.async = true;
  document.head.appendChild(script);
})();
`;
