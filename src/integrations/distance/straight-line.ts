import { haversineMiles } from "../../domain/geo.js";
import type { DistanceProvider } from "./distance-provider.js";

/** The offline default: great-circle miles, no network. */
export const straightLineDistance: DistanceProvider = {
  name: "straight-line (haversine)",
  async measure(origins, destination) {
    return origins.map((origin) => ({ miles: haversineMiles(origin, destination), method: "haversine" as const }));
  },
};
