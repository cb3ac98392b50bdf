// What a channel may read of a rider's words or a recorded finding, the one rule: street addresses,
// phone numbers and email addresses are replaced by what they are, a ZIP code keeps only its first
// three digits (959xx), and exact distances become bands. The program's own address (where riders
// appeal) and places named as public (a van's work site, its pickup) are shown as they are.
// Every place Slack shows a rider's words, a finding or a home uses this.
import { distanceBand } from "./geo.js";
import { APPEAL_ADDRESS } from "./policy-text.js";

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const PHONE = /(?:\+?1[\s.-]?)?(?:\(\d{3}\)|\b\d{3})[\s.-]?\d{3}[\s.-]?\d{4}\b/g;
const STREET_SUFFIX =
  "street|st|avenue|ave|road|rd|boulevard|blvd|drive|dr|lane|ln|way|court|ct|place|pl|terrace|ter|circle|cir|highway|hwy|parkway|pkwy|trail|trl|loop|square|sq";
const UNIT = String.raw`(?:,?\s*(?:apt|apartment|unit|suite|ste|#)\.?\s*#?[\w-]+)?`;
const STREET = new RegExp(
  String.raw`\b\d{1,6}[A-Za-z]?\s+(?:[NSEW]\.?\s+)?(?:[A-Za-z0-9][\w'.-]*\s+){0,3}(?:${STREET_SUFFIX})\b\.?${UNIT}`,
  "gi",
);
const PO_BOX = /\bP\.?\s?O\.?\s+Box\s+\d+/gi;
/**
 * A street named without a house number ("off Aborn Road", "near Oak St"): capitalised words before a capitalised
 * street word ("St" before a name is Saint). Words that also end everyday names ("Way", "Place", "Square") are left to the numbered form.
 */
const NAMED_STREET =
  /\b(?:[A-Z][a-z][\w'.-]*\s+){1,3}(?:St\b(?!\.?\s+[A-Z])|(?:Street|Road|Rd|Avenue|Ave|Boulevard|Blvd|Drive|Lane|Ln|Court|Ct|Parkway|Pkwy|Highway|Hwy|Terrace)\b)\.?/g;
/**
 * A five-digit number on its own ("ZIP 95131", "Hayward 94544", "CA 95670-1234", "… Oroville 95965."), not part
 * of an id like P-30078 or a decimal.
 */
const ZIP = /(?<![\w.$-])(\d{3})\d{2}(?:-\d{4})?(?!\w|\.\d|-\d)/g;
/** The program's own addresses: never redacted. */
const PROGRAM_ADDRESSES = [APPEAL_ADDRESS];

/** 95131 -> "951xx"; anything else -> "unknown ZIP". */
export function zip3(zip: string | null | undefined): string {
  return zip && /^\d{5}$/.test(zip) ? `${zip.slice(0, 3)}xx` : "unknown ZIP";
}

/** A rider's words (or anything they may have written): no personal details; the program's address stays. */
export function redactPersonalDetails(text: string, keep: (string | null | undefined)[] = []): string {
  return shielded(text, [...PROGRAM_ADDRESSES, ...keep], (t) =>
    t
      .replace(EMAIL, "[email address]")
      .replace(PO_BOX, "[street address]")
      .replace(STREET, "[street address]")
      .replace(NAMED_STREET, "[street address]")
      .replace(PHONE, "[phone number]")
      .replace(ZIP, "$1xx"),
  );
}

/**
 * A finding or a check's reasoning: no personal details, and exact distances become bands (the policy's
 * limit stays). Addresses in `publicAddresses` (the van's work site and pickup: places, not anyone's
 * home) are shown as they are.
 */
export function redactFinding(text: string, publicAddresses: (string | null | undefined)[] = []): string {
  return bandDistances(redactPersonalDetails(text, publicAddresses));
}

/** Runs `redact` with each kept text replaced by a placeholder it cannot match, then puts them back. */
function shielded(text: string, keep: (string | null | undefined)[], redact: (text: string) => string): string {
  const kept = keep.filter((a): a is string => Boolean(a));
  const hidden = kept.reduce((t, address, i) => t.split(address).join(`\uE000${i}\uE000`), text);
  return redact(hidden).replace(/\uE000(\d+)\uE000/g, (_, i: string) => kept[Number(i)]!);
}

/** Words that put a distance as the policy's limit rather than as a rider's distance. */
const LIMIT_BEFORE = /\b(?:limit(?: is| of)?|within|threshold|(?:farther|further|more) than|beyond|over|exceeds?)\s*$/i;

/** Exact distances as bands; a band already written ("50-75 mi") stays as it is. */
function bandDistances(text: string): string {
  return text.replace(
    /(?<!\d-)\b(?:about |roughly |~)?(\d+(?:\.\d+)?) ?(?:mi|miles)\b/g,
    (found, miles: string, at: number, all: string) =>
      // The policy's limit is a rule, not a rider's distance ("farther than 50 miles", "limit 50 mi").
      LIMIT_BEFORE.test(all.slice(Math.max(0, at - 16), at)) ? found : distanceBand(Number(miles)),
  );
}

/** Keys that hold a home's exact position in stored evidence (`home_point`, `home_coords`, `home_lat`…). */
const HOME_POSITION_KEY = /^home_?(point|coords?|lat|lng|location)$/i;

/**
 * A stored record (a check's evidence, an audit event's details) for a reader who may not see personal
 * data: every string as `redactPersonalDetails` leaves it (the places in `keep` shown as they are), and
 * no home coordinates.
 */
export function redactRecord<T>(value: T, keep: (string | null | undefined)[] = []): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redactPersonalDetails(v, keep);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object" && !(v instanceof Date))
      return Object.fromEntries(
        Object.entries(v)
          .filter(([key]) => !HOME_POSITION_KEY.test(key))
          .map(([key, inner]) => [key, walk(inner)]),
      );
    return v;
  };
  return walk(value) as T;
}

/** Where a reader of a band finds the exact distance: the one answer every surface gives. */
export const EXACT_DISTANCE_WHERE =
  "Distances in Slack are shown as bands; the exact figure is in the case evidence (the alert's *View evidence* button), for approvers only.";
