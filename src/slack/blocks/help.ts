import type { CaseStatus } from "../../domain/case-lifecycle.js";

/** The words `/poolpatrol cases` takes, as help shows them; snake_case statuses are accepted too. */
export const CASE_FILTER_WORDS: Record<string, CaseStatus> = {
  waiting: "pending_reply",
  "needs a person": "hitl_review",
  "cancellation pending": "pre_cancel",
  resolved: "resolved",
  cancelled: "cancelled",
};

const ALIASES: Record<string, CaseStatus> = {
  "waiting for riders": "pending_reply",
  "pending reply": "pending_reply",
  "needs person": "hitl_review",
  "hitl review": "hitl_review",
  "pre cancel": "pre_cancel",
  "pending cancellation": "pre_cancel",
  canceled: "cancelled",
};

/** The status a person meant by "needs a person", "needs-a-person", "hitl_review", …; undefined if none. */
export function parseCaseFilter(words: string): CaseStatus | undefined {
  const key = words.toLowerCase().replace(/[_-]+/g, " ").replace(/\s+/g, " ").trim();
  return CASE_FILTER_WORDS[key] ?? ALIASES[key];
}

export const COMMAND_USAGE = [
  "*/poolpatrol* commands:",
  "• `/poolpatrol audit VP-101`: audit a vanpool now and post (or update) its case alert",
  "• `/poolpatrol audit all`: audit every vanpool (approvers); one summary, new cases in its thread",
  "• `/poolpatrol status VP-101` or `/poolpatrol status CASE-1A2B3C4D`: where a vanpool or case stands",
  `• \`/poolpatrol cases\`: open cases; or only those ${Object.keys(CASE_FILTER_WORDS)
    .map((w) => `\`${w}\``)
    .join(", ")}, e.g. \`/poolpatrol cases needs a person\``,
  "• `/poolpatrol exceptions`: riders kept while they fail a check, until when and why; approvers can revoke one",
  "• `/poolpatrol digest`: post the digest to the audit channel now",
  "• `/poolpatrol report last week`: the program's figures for a period and its case register as a CSV file (approvers); periods like `this month`, `30d`, `2026-11`, `2026-11-01..2026-11-27`",
  "• `/poolpatrol web`: a private link that signs you in to the web pages (vanpools, maps, riders, cases)",
  "• `/poolpatrol help`: this list",
  "In a case alert's thread, ask things like _why did this case fail?_, _what did the rider say?_ or _which riders are flagged?_",
].join("\n");
