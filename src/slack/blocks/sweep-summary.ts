// The one channel message of a sweep: how many vanpools were checked, new cases,
// cases still failing, errors and how long it took. New cases follow in its thread.
import type { KnownBlock } from "@slack/types";
import type { SweepTotals } from "../../data/sweep-repository.js";
import { plural } from "../../domain/specialist-result.js";
import { keptLine } from "./exceptions.js";
import { SECTION_LIMIT, slackDate, truncate } from "./format.js";

export interface SweepSummaryMessage {
  text: string;
  blocks: KnownBlock[];
}

const TRIGGERS: Record<string, string> = { schedule: "the weekly schedule", cli: "the command line" };

function startedBy(trigger: string): string {
  if (trigger.startsWith("slack:")) return `<@${trigger.slice("slack:".length)}>`;
  return TRIGGERS[trigger] ?? trigger;
}

function duration(totals: SweepTotals): string {
  if (!totals.finished_at) return "under way";
  const seconds = Math.round((totals.finished_at.getTime() - totals.started_at.getTime()) / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

export function sweepSummary(totals: SweepTotals): SweepSummaryMessage {
  const done = Boolean(totals.finished_at);
  const text = done
    ? `Audit of every vanpool: ${totals.checked} checked, ${plural(totals.new_cases.length, "new case")}, ${totals.still_failing} still failing, ${plural(totals.errors.length, "error")}${totals.kept.length ? `, ${plural(totals.kept.length, "failing rider")} kept by an exception` : ""} (${duration(totals)}).`
    : `Audit of every vanpool under way: ${totals.checked} of ${totals.vanpools} checked.`;
  const blocks: KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: done ? "🔎 Audit of every vanpool" : "🔎 Audit under way" } },
    {
      type: "section",
      fields: [
        { type: "mrkdwn", text: `*Vanpools checked*\n${totals.checked} of ${totals.vanpools}` },
        { type: "mrkdwn", text: `*New cases*\n${totals.new_cases.length}` },
        { type: "mrkdwn", text: `*Still failing*\n${totals.still_failing}` },
        { type: "mrkdwn", text: `*Resolved by this audit*\n${totals.resolved}` },
        { type: "mrkdwn", text: `*Errors*\n${totals.errors.length}` },
        { type: "mrkdwn", text: `*Duration*\n${duration(totals)}` },
      ],
    },
  ];
  if (totals.errors.length > 0)
    blocks.push({
      type: "section",
      text: {
        type: "mrkdwn",
        text: truncate(
          `*Could not be handled*\n${totals.errors
            .slice(0, 10)
            .map((e) => `• ${e}`)
            .join(
              "\n",
            )}${totals.errors.length > 10 ? `\n…and ${totals.errors.length - 10} more` : ""}\nThey are checked again in the next audit.`,
          SECTION_LIMIT,
        ),
      },
    });
  if (totals.kept.length > 0)
    blocks.push({
      type: "section",
      text: {
        type: "mrkdwn",
        text: truncate(
          `*Failing but kept: no case, no email*\n${totals.kept
            .slice(0, 10)
            .map((e) => `• ${keptLine(e)}`)
            .join("\n")}${totals.kept.length > 10 ? `\n…and ${totals.kept.length - 10} more` : ""}`,
          SECTION_LIMIT,
        ),
      },
    });
  blocks.push({
    type: "context",
    elements: [
      {
        type: "mrkdwn",
        text: `Started ${slackDate(totals.started_at)} by ${startedBy(totals.trigger)}.${totals.new_cases.length ? " New cases are in the thread." : ""}`,
      },
    ],
  });
  return { text, blocks };
}
