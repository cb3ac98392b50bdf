// What a channel may read of a rider's words or a recorded finding: street addresses, phone
// numbers and email addresses are replaced by what they are, and a full ZIP code keeps only
// its first three digits. Every place Slack shows a rider's words or a finding uses this.

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
const ZIP = /\b(ZIP\s*)(\d{3})\d{2}\b/gi;

export function redactPersonalDetails(text: string): string {
  return text
    .replace(EMAIL, "[email address]")
    .replace(PO_BOX, "[street address]")
    .replace(STREET, "[street address]")
    .replace(PHONE, "[phone number]")
    .replace(ZIP, "$1$2xx");
}
