import { APPEAL_ADDRESS } from "../../src/domain/policy-text.js";

// What must never reach Slack: a rider's exact distance. Bands ("25-50 mi", "over 100 mi") and
// the program's limit ("limit 50 mi", "within 50 miles", "farther than 50 miles", a rider asking about "the 50 miles") are fine; any other number of miles,
// whole ("62 mi") or not ("62.4 miles"), is an exact distance.
const MILES =
  /(?<prefix>(?:limit|within|farther than|the|under|over)\s+)?(?<from>\d+(?:\.\d+)?-)?(?<miles>\d+(?:\.\d+)?)\s?(?:mi|miles)\b/gi;
const BAND_EDGES = new Set(["10", "25", "50", "75", "100"]);

export function exactDistancesIn(text: string, limitMiles = 50): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(MILES)) {
    const { prefix, from, miles } = match.groups as { prefix?: string; from?: string; miles: string };
    const word = prefix?.trim().toLowerCase();
    const isLimit = ["limit", "within", "farther than", "the"].includes(word ?? "") && Number(miles) === limitMiles;
    const isBand =
      (from !== undefined && BAND_EDGES.has(from.slice(0, -1)) && BAND_EDGES.has(miles)) ||
      ((word === "under" || word === "over") && BAND_EDGES.has(miles));
    if (!isLimit && !isBand) found.push(match[0].slice(prefix?.length ?? 0));
  }
  return found;
}

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

/** Email addresses in text a Slack member reads, less the program's own (its appeal address is meant to be seen). */
export function personalEmailsIn(text: string): string[] {
  return [...text.matchAll(EMAIL)].map((m) => m[0]).filter((address) => address !== APPEAL_ADDRESS);
}
