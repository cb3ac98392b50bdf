// What a channel may read of a rider's words or a recorded finding: no street
// addresses, phone numbers, email addresses or full ZIP codes; and in findings,
// distances as bands.
import { distanceBand } from "../../domain/geo.js";

const STREET_TYPES =
  "St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Dr|Drive|Ln|Lane|Ct|Court|Way|Pl|Place|Pkwy|Parkway|Hwy|Highway|Cir|Circle|Ter|Terrace|Trl|Trail|Loop|Sq|Square";
const STREET = new RegExp(
  `\\b\\d{1,6}\\s+(?:[NSEW]\\.?\\s+)?(?:[A-Z0-9][\\w'.-]*\\s+){1,4}(?:${STREET_TYPES})\\b\\.?(?:,?\\s+(?:Apt|Unit|Suite|#)\\s*[\\w-]+)?`,
  "g",
);
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const PHONE = /(?:\+?1[\s.-]?)?\(?\b\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b/g;

export function redact(text: string): string {
  return text
    .replace(EMAIL, "[email address]")
    .replace(PHONE, "[phone number]")
    .replace(STREET, "[street address]")
    .replace(/\b(ZIP\s*)(\d{3})\d{2}\b/gi, "$1$2xx");
}

/**
 * A finding or a check's reasoning: exact distances become bands (the policy's limit stays). Addresses in
 * `publicAddresses` (the van's work site and pickup: places, not anyone's home) are shown as they are.
 */
export function redactFinding(text: string, publicAddresses: (string | null | undefined)[] = []): string {
  const kept = publicAddresses.filter((a): a is string => Boolean(a));
  const shielded = kept.reduce((t, address, i) => t.split(address).join(`\uE000${i}\uE000`), text);
  return bandDistances(redact(shielded)).replace(/\uE000(\d+)\uE000/g, (_, i: string) => kept[Number(i)]!);
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
