import type { Settings } from "../../config/settings.js";
import type { DistanceProvider } from "./distance-provider.js";
import { googleDistance } from "./google-distance.js";
import { straightLineDistance } from "./straight-line.js";

export type { DistanceProvider, MeasuredDistance } from "./distance-provider.js";

export function createDistanceProvider(settings: Pick<Settings, "googleMaps" | "httpTimeoutMs">): DistanceProvider {
  return settings.googleMaps
    ? googleDistance({ ...settings.googleMaps, timeoutMs: settings.httpTimeoutMs })
    : straightLineDistance;
}
