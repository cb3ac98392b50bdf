import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { googleDistance } from "../../src/integrations/distance/google-distance.js";
import { checkLocation } from "../../src/verification/location-check.js";
import { type GoogleMapsStub, startGoogleMapsStub } from "../support/google-maps-stub.js";

let stub: GoogleMapsStub;
beforeAll(async () => {
  stub = await startGoogleMapsStub();
});
afterAll(async () => {
  await stub.close();
});

const SAN_JOSE = { lat: 37.3893, lng: -121.915 };
const input = {
  vanpool: { vanpool_id: "VP-1", work_site_coords: SAN_JOSE },
  riders: [
    { employee_id: "NEAR", home_coords: { lat: 37.5, lng: -121.9 } }, // ~8 miles in a straight line
    { employee_id: "ROADS", home_coords: { lat: 37.7, lng: -121.9 } }, // ~21 miles in a straight line
  ],
};
const provider = () => googleDistance({ apiKey: "test-key", baseUrl: stub.baseUrl, timeoutMs: 2000 });

describe("Google Maps distance", () => {
  it("decides on driving miles from the API, one request per vanpool", async () => {
    stub.behave({ kind: "miles", miles: (origin) => (origin.startsWith("37.7") ? 61.5 : 12) });
    stub.requests.length = 0;
    const result = await checkLocation(input, provider(), { maxDistanceMiles: 50 });
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]!.searchParams.get("key")).toBe("test-key");
    expect(stub.requests[0]!.searchParams.get("mode")).toBe("driving");
    expect(result.flagged).toEqual(["ROADS"]);
    expect(result.evidence).toContainEqual(
      expect.objectContaining({
        type: "distance_check",
        employee_id: "ROADS",
        method: "driving",
        distance_miles: 61.5,
      }),
    );
  });

  it("falls back to straight-line miles when the service fails, and says so", async () => {
    stub.behave({ kind: "http_error", status: 503 });
    const result = await checkLocation(input, provider(), { maxDistanceMiles: 50 });
    expect(result.verdict).toBe("pass");
    expect(result.evidence).toContainEqual(
      expect.objectContaining({
        type: "distance_check",
        method: "haversine",
        fallback_reason: "Google Maps request failed with HTTP 503",
      }),
    );
    expect(result.reasoning).toContain("straight-line miles were used");
  });

  it("falls back per rider when there is no driving route, and on an API error status", async () => {
    stub.behave({ kind: "miles", miles: (origin) => (origin.startsWith("37.7") ? "ZERO_RESULTS" : 9) });
    const partial = await checkLocation(input, provider(), { maxDistanceMiles: 50 });
    expect(partial.evidence).toContainEqual(
      expect.objectContaining({
        employee_id: "ROADS",
        method: "haversine",
        fallback_reason: "no driving route (ZERO_RESULTS)",
      }),
    );
    expect(partial.evidence).toContainEqual(
      expect.objectContaining({ employee_id: "NEAR", method: "driving", distance_miles: 9 }),
    );

    stub.behave({ kind: "api_error", status: "REQUEST_DENIED", message: "API key not valid" });
    const denied = await checkLocation(input, provider(), { maxDistanceMiles: 50 });
    expect(denied.evidence).toContainEqual(
      expect.objectContaining({ fallback_reason: "Google Maps answered REQUEST_DENIED: API key not valid" }),
    );
  });
});
