// The report of a period (`/poolpatrol report`, `poolpatrol report`): the program's figures as
// labelled lines, shown as Block Kit fields in Slack and as plain lines on the command line.
import {
  BASELINE_HOURS_PER_WEEK,
  MANUAL_MINUTES_PER_CASE,
  MANUAL_MINUTES_PER_VANPOOL_CHECK,
  type ProgramFigures,
} from "../../data/program-figures.js";
import { plural } from "../../domain/specialist-result.js";
import { context, fields, header, REASON_WORDS, type SlackMessage } from "./format.js";

/** A duration a person reads: hours under two days, else days. */
export function hoursInWords(hours: number): string {
  return hours < 48 ? `${hours.toFixed(1)} h` : `${(hours / 24).toFixed(1)} days`;
}

const pct = (v: number) => `${Math.round(v * 100)}%`;

function byReason(cases: { reason: keyof typeof REASON_WORDS }[]): string {
  const counts = new Map<string, number>();
  for (const c of cases) counts.set(REASON_WORDS[c.reason], (counts.get(REASON_WORDS[c.reason]) ?? 0) + 1);
  return [...counts].map(([words, n]) => `${n} ${words}`).join(" · ");
}

/** The report's figures as [label, value] pairs: one definition for Slack and the command line. */
export function reportFacts(f: ProgramFigures): [string, string][] {
  const resolved = f.closed.filter((c) => c.status === "resolved");
  const cancelled = f.closed.filter((c) => c.status === "cancelled");
  return [
    ["Cases opened", f.opened.length ? `${f.opened.length}: ${byReason(f.opened)}` : "0"],
    [
      "Cases closed",
      f.closedCases
        ? `${f.closedCases}: ${resolved.length} resolved, ${cancelled.length} cancelled (${byReason(f.closed)})`
        : "0",
    ],
    [
      "Time to resolution",
      f.medianHoursToResolution === null || f.p90HoursToResolution === null
        ? "no case closed"
        : `median ${hoursInWords(f.medianHoursToResolution)} · 90% within ${hoursInWords(f.p90HoursToResolution)}`,
    ],
    [
      "Automation rate",
      f.automationRate === null
        ? "no case closed"
        : `${pct(f.automationRate)} of ${plural(f.closedCases, "closed case")} closed without a person`,
    ],
    ["Reversals", `${plural(f.reversals, "cancellation")} rejected or undone`],
    ["Exceptions granted", `${plural(f.exceptionsGranted, "rider")} kept while failing a check`],
    [
      "Emails",
      `${f.emails.sent} sent · ${f.emails.failed} could not be sent${f.emails.bounced ? ` · ${f.emails.bounced} bounced` : ""}`,
    ],
    [
      "Audit hours saved (est.)",
      `${f.hoursSaved.toFixed(1)} h, ${pct(f.baselineShare)} of the 2-FTE baseline (${BASELINE_HOURS_PER_WEEK} h a week)`,
    ],
  ];
}

export const hoursSavedNote = (f: ProgramFigures) =>
  `Hours saved counts ${plural(f.vanpoolChecks, "automated vanpool check")} at ${MANUAL_MINUTES_PER_VANPOOL_CHECK} min and each case closed without a person at ${MANUAL_MINUTES_PER_CASE} min.`;

export function reportMessage(input: { label: string; figures: ProgramFigures; rows: number }): SlackMessage {
  const f = input.figures;
  const facts = reportFacts(f);
  return {
    text: `Pool Patrol report, ${input.label}: ${plural(f.opened.length, "case")} opened, ${f.closedCases} closed`,
    blocks: [
      header("📊 Pool Patrol report"),
      context(`*${input.label[0]!.toUpperCase()}${input.label.slice(1)}*, in the program's time zone`),
      // Slack shows at most 10 fields a section.
      fields(facts.slice(0, 4).map(([label, value]) => `*${label}*\n${value}`)),
      fields(facts.slice(4).map(([label, value]) => `*${label}*\n${value}`)),
      context(
        `${hoursSavedNote(f)} The case register (${plural(input.rows, "row")}, one per case and rider) follows as a CSV file.`,
      ),
    ],
  };
}
