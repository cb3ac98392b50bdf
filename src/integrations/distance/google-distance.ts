// Driving distance from Google Maps through the official client. On any failure
// (network, quota, no route) the affected riders fall back to straight-line miles
// and the evidence says why, so an audit never stops on a maps outage.
import { Client, Status, TravelMode, UnitSystem } from "@googlemaps/google-maps-services-js";
import { haversineMiles, type LatLng } from "../../domain/geo.js";
import type { DistanceProvider, MeasuredDistance } from "./distance-provider.js";

const METERS_PER_MILE = 1609.344;
/** The Distance Matrix API takes at most 25 origins per request. */
const MAX_ORIGINS = 25;

export interface GoogleDistanceOptions {
  apiKey: string;
  /** Another server speaking the same API (tests use a local stub). */
  baseUrl?: string;
  timeoutMs?: number;
}

const apiError = (status: string, message?: string) => `Google Maps answered ${status}${message ? `: ${message}` : ""}`;

export function googleDistance(options: GoogleDistanceOptions): DistanceProvider {
  const client = new Client({});
  const url = options.baseUrl ? new URL("/maps/api/distancematrix/json", options.baseUrl).toString() : undefined;

  async function measureBatch(origins: LatLng[], destination: LatLng): Promise<MeasuredDistance[]> {
    const straight = (reason: string) =>
      origins.map((o) => ({
        miles: haversineMiles(o, destination),
        method: "haversine" as const,
        fallback_reason: reason,
      }));
    try {
      const response = await client.distancematrix({
        ...(url ? { url } : {}),
        params: {
          key: options.apiKey,
          origins,
          destinations: [destination],
          mode: TravelMode.driving,
          units: UnitSystem.imperial,
        },
        timeout: options.timeoutMs ?? 10_000,
      });
      if (response.data.status !== Status.OK)
        return straight(apiError(response.data.status, response.data.error_message));
      return origins.map((origin, i) => {
        const element = response.data.rows[i]?.elements[0];
        if (!element || element.status !== Status.OK) {
          return {
            miles: haversineMiles(origin, destination),
            method: "haversine" as const,
            fallback_reason: `no driving route (${element?.status ?? "missing"})`,
          };
        }
        return { miles: element.distance.value / METERS_PER_MILE, method: "driving" as const };
      });
    } catch (error) {
      // The client throws for API error statuses as well as for HTTP failures.
      const response = (error as { response?: { status?: number; data?: { status?: string; error_message?: string } } })
        .response;
      if (response?.data?.status) return straight(apiError(response.data.status, response.data.error_message));
      return straight(
        response?.status
          ? `Google Maps request failed with HTTP ${response.status}`
          : `Google Maps unreachable (${(error as Error).message})`,
      );
    }
  }

  return {
    name: "Google Maps driving distance",
    async measure(origins, destination) {
      const results: MeasuredDistance[] = [];
      for (let i = 0; i < origins.length; i += MAX_ORIGINS) {
        results.push(...(await measureBatch(origins.slice(i, i + MAX_ORIGINS), destination)));
      }
      return results;
    },
  };
}
