// With a browser key the vanpool page's map is Google's (the page's HTML carries the facts and our one
// script; nothing is fetched here); without one it is the offline SVG map.
import { describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config/settings.js";
import { GOOGLE_MAP_SCRIPT, googleMap } from "../../src/http/web/google-map.js";
import { type MapInput, VERDICT_COLOURS, vanpoolMap } from "../../src/http/web/map.js";

const input: MapInput = {
  pickup: { lat: 37.65, lng: -122.1 },
  pickupIsWorkSite: false,
  workSite: { lat: 37.5, lng: -121.95 },
  limitMiles: 50,
  homes: [
    {
      label: "EMP-1028 Wendell: beyond the limit, 50-75 mi",
      employeeId: "EMP-1028",
      verdict: "fail",
      point: { lat: 37.77, lng: -120.85 },
    },
    {
      label: "EMP-1002 Trung: within the limit, 10-25 mi",
      employeeId: "EMP-1002",
      verdict: "pass",
      area: { center: { lat: 37.7, lng: -122.1 }, radiusMiles: 8 },
    },
  ],
};

describe("the vanpool map with and without a Google browser key", () => {
  it("the key comes from GOOGLE_MAPS_BROWSER_KEY, else GOOGLE_MAPS_API_KEY, else none", () => {
    expect(parseSettings({}).webMapKey).toBeUndefined();
    expect(parseSettings({ GOOGLE_MAPS_API_KEY: "k-server" }).webMapKey).toBe("k-server");
    expect(parseSettings({ GOOGLE_MAPS_API_KEY: "k-server", GOOGLE_MAPS_BROWSER_KEY: "k-browser" }).webMapKey).toBe(
      "k-browser",
    );
  });

  it("draws Google's map with the same markers, colours and ring as the offline map", () => {
    const page = String(googleMap(input, "Map of VP-111", "k-browser"));
    expect(page).toContain('<script src="/web/google-map.js" defer></script>');
    expect(page).not.toContain("<svg");
    const facts = JSON.parse(/<script type="application\/json" id="google-map-facts">(.*?)<\/script>/s.exec(page)![1]!);
    expect(facts.apiKey).toBe("k-browser");
    expect(facts.ringMetres).toBeCloseTo(50 * 1609.344);
    expect(facts.homes.map((h: { colour: string }) => h.colour)).toEqual([VERDICT_COLOURS.fail, VERDICT_COLOURS.pass]);
    // A member's home is an area, never a point, as on the offline map.
    expect(facts.homes[1]).not.toHaveProperty("point");
    expect(GOOGLE_MAP_SCRIPT).toContain("maps.googleapis.com/maps/api/js");

    const offline = String(vanpoolMap(input, "Map of VP-111"));
    expect(offline).toContain("<svg");
    expect(offline).not.toContain("googleapis");
  });

  it("keeps a label from closing the facts' script element", () => {
    const page = String(
      googleMap({ ...input, homes: [{ ...input.homes[0]!, label: "</script><script>alert(1)" }] }, "Map", "k"),
    );
    expect(page).not.toContain("</script><script>alert(1)");
  });
});
