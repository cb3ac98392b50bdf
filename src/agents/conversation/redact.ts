// What a channel may read of a recorded finding: no personal details, and distances as bands.
import { distanceBand } from "../../domain/geo.js";
import { redactPersonalDetails } from "../../domain/redaction.js";

/**
 * A finding or a check's reasoning: exact distances become bands (the policy's limit stays). Addresses in
 * `publicAddresses` (the van's work site and pickup: places, not anyone's home) are shown as they are.
 */
export function redactFinding(text: string, publicAddresses: (string | null | undefined)[] = []): string {
  const kept = publicAddresses.filter((a): a is string => Boolean(a));
  const shielded = kept.reduce((t, address, i) => t.split(address).join(`\uE000${i}\uE000`), text);
  return bandDistances(redactPersonalDetails(shielded)).replace(
    /\uE000(\d+)\uE000/g,
    (_, i: string) => kept[Number(i)]!,
  );
}

function bandDistances(text: string): string {
  return text.replace(
    /\b(?:about |roughly |~)?(\d+(?:\.\d+)?) ?(?:mi|miles)\b/g,
    (found, miles: string, at: number, all: string) =>
      // The policy's limit is a rule, not a rider's distance.
      /(limit|within|threshold|limit is|limit of)\s*$/i.test(all.slice(Math.max(0, at - 12), at))
        ? found
        : distanceBand(Number(miles)),
  );
}
