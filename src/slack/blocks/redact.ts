// What a rider wrote, made fit for a channel: street addresses, phone numbers and
// email addresses are replaced by what they are. Every place Slack shows a reply uses this.

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const PHONE = /(?:\+?1[\s.-]?)?(?:\(\d{3}\)|\b\d{3})[\s.-]?\d{3}[\s.-]?\d{4}\b/g;
const STREET_SUFFIX =
  "street|st|avenue|ave|road|rd|boulevard|blvd|drive|dr|lane|ln|way|court|ct|place|pl|terrace|ter|circle|cir|highway|hwy|parkway|pkwy|trail|trl|loop";
const UNIT = String.raw`(?:,?\s*(?:apt|apartment|unit|suite|ste|#)\.?\s*#?[\w-]+)?`;
const STREET = new RegExp(
  String.raw`\b\d{1,6}[A-Za-z]?\s+(?:[NSEW]\.?\s+)?(?:[A-Za-z0-9][\w'.-]*\s+){0,3}(?:${STREET_SUFFIX})\b\.?${UNIT}`,
  "gi",
);
const PO_BOX = /\bP\.?\s?O\.?\s+Box\s+\d+/gi;

export function redactReply(text: string): string {
  return text
    .replace(EMAIL, "[email address]")
    .replace(PO_BOX, "[street address]")
    .replace(STREET, "[street address]")
    .replace(PHONE, "[phone number]");
}
