import { describe, expect, it } from "vitest";
import { straightLineDistance } from "../../src/integrations/distance/straight-line.js";
import { checkLocation } from "../../src/verification/location-check.js";

const SAN_JOSE = { lat: 37.3893, lng: -121.915 };
const policy = { maxDistanceMiles: 50 };
// A point `miles` due north of San Jose (1 degree of latitude = 69.09 miles at R = 3958.8).
const north = (miles: number) => ({ lat: SAN_JOSE.lat + miles / 69.0933, lng: SAN_JOSE.lng });

describe("location policy", () => {
  it("passes at 50 miles and fails just beyond", async () => {
    const result = await checkLocation(
      {
        vanpool: { vanpool_id: "VP-1", work_site_coords: SAN_JOSE },
        riders: [
          { employee_id: "NEAR", home_coords: north(49.95) },
          { employee_id: "FAR", home_coords: north(50.2) },
        ],
      },
      straightLineDistance,
      policy,
    );
    expect(result.verdict).toBe("fail");
    expect(result.flagged).toEqual(["FAR"]);
    expect(result.evidence).toContainEqual(
      expect.objectContaining({
        type: "distance_check",
        employee_id: "FAR",
        distance_miles: 50.2,
        threshold_miles: 50,
        method: "haversine",
      }),
    );
  });

  it("uses home coordinates over the ZIP, and the pickup point over the work site", async () => {
    const result = await checkLocation(
      {
        vanpool: { vanpool_id: "VP-1", work_site_coords: SAN_JOSE, pickup_coords: north(40) },
        riders: [{ employee_id: "A", home_zip: "90012" /* Los Angeles */, home_coords: north(70) }],
      },
      straightLineDistance,
      policy,
    );
    expect(result.verdict).toBe("pass");
    expect(result.evidence).toContainEqual(
      expect.objectContaining({ type: "employee_profile", home_point_source: "home_coords" }),
    );
    expect(result.evidence[0]).toMatchObject({ type: "vanpool_pickup", point_source: "pickup" });
  });

  it("is inconclusive for an unknown ZIP without coordinates, and never flags that rider", async () => {
    const result = await checkLocation(
      {
        vanpool: { vanpool_id: "VP-1", work_site_coords: SAN_JOSE },
        riders: [
          { employee_id: "A", home_zip: "95134" },
          { employee_id: "B", home_zip: "00000" },
        ],
      },
      straightLineDistance,
      policy,
    );
    expect(result.verdict).toBe("inconclusive");
    expect(result.flagged).toEqual([]);
    expect(result.reasoning).toContain("B (ZIP 00000)");
  });
});
