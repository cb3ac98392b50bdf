// The digest message: what changed since the last one, what waits on people and
// riders, and how the program is doing.

import type { ProgramFigures } from "../../data/program-figures.js";
import { plural } from "../../domain/specialist-result.js";
import {
  age,
  context,
  divider,
  fields,
  header,
  REASON_WORDS,
  type SlackMessage,
  section,
  slackDate,
} from "./format.js";

export interface DigestInput {
  since: Date;
  now: Date;
  pending: { approval_id: string; case_id: string; kind: string; hours: number }[];
  /** Cases waiting for a person (hitl_review), since when, and why when known (e.g. an email that could not be sent). */
  needsPerson: { case_id: string; vanpool_id: string; since: Date; reason?: string | null }[];
  waiting: { case_id: string; vanpool_id: string; deadline: Date | null }[];
  /** What opened and closed in the window and how the program did: the same figures as `/poolpatrol report`. */
  figures: ProgramFigures;
  /** Exceptions ending within two weeks. */
  expiringExceptions: number;
  /** Scheduled import syncs that failed in the window (newest first), with why. */
  failedSyncs?: { started_at: Date; error: string | null }[];
}

const list = (items: string[], empty: string, max = 10) =>
  items.length
    ? items.slice(0, max).join("\n") + (items.length > max ? `\n…and ${items.length - max} more` : "")
    : empty;
const pct = (v: number | null) => (v === null ? "n/a" : `${Math.round(v * 100)}%`);

export function digestMessage(d: DigestInput): SlackMessage {
  const f = d.figures;
  const opened = f.opened;
  const resolved = f.closed.filter((c) => c.status === "resolved").map((c) => c.case_id);
  const cancelled = f.closed.filter((c) => c.status === "cancelled").map((c) => c.case_id);
  return {
    text: `Pool Patrol digest: ${plural(opened.length, "new case")}, ${plural(d.pending.length, "approval")} waiting, ${plural(d.needsPerson.length, "case")} ${d.needsPerson.length === 1 ? "needs" : "need"} a person, ${resolved.length} resolved, ${cancelled.length} cancelled`,
    blocks: [
      header("📋 Pool Patrol digest"),
      context(`Since ${slackDate(d.since)}`),
      section(
        `*New cases (${opened.length})*\n${list(
          opened.map((c) => `• ${c.case_id} ${c.vanpool_id} · ${REASON_WORDS[c.reason]}`),
          "None",
        )}`,
      ),
      section(
        `*Waiting for a decision (${d.pending.length})*\n${list(
          d.pending.map(
            (a) =>
              `• ${a.kind === "cancellation" ? "Cancellation" : "Reply to a rider"} on ${a.case_id} · waiting ${Math.round(a.hours)} h`,
          ),
          "Nothing waiting",
        )}`,
      ),
      section(
        `*Needs a person (${d.needsPerson.length})*\n${list(
          d.needsPerson.map(
            (c) => `• ${c.case_id} ${c.vanpool_id} · waiting ${age(c.since, d.now)}${c.reason ? ` · ${c.reason}` : ""}`,
          ),
          "None",
        )}`,
      ),
      section(
        `*Waiting for riders (${d.waiting.length})*\n${list(
          d.waiting.map(
            (c) =>
              `• ${c.case_id} ${c.vanpool_id}${c.deadline ? ` · times out ${slackDate(c.deadline, "{date_short_pretty}")}` : ""}`,
          ),
          "None",
        )}`,
      ),
      ...(d.failedSyncs?.length
        ? [
            section(
              `*Import sync failed (${d.failedSyncs.length})*\n${list(
                d.failedSyncs.map((f) => `• ${slackDate(f.started_at)} · ${f.error ?? "no reason kept"}`),
                "None",
                5,
              )}\nNothing was changed by a failed sync; \`poolpatrol jobs\` shows each.`,
            ),
          ]
        : []),
      section(
        `*Closed*\nResolved: ${resolved.length ? resolved.join(", ") : "none"}\nCancelled: ${cancelled.length ? cancelled.join(", ") : "none"}`,
      ),
      divider,
      fields([
        `*Automation rate*\n${pct(f.automationRate)} of ${plural(f.closedCases, "closed case")}`,
        `*Median time to resolution*\n${f.medianHoursToResolution === null ? "n/a" : `${f.medianHoursToResolution.toFixed(1)} h`}`,
        `*Audit hours saved (est.)*\n${f.hoursSaved.toFixed(1)} h (${Math.round(f.baselineShare * 100)}% of the 2 FTE baseline)`,
        `*Reversals (cancellations rejected or undone)*\n${f.reversals}`,
        `*Riders kept by an exception*\n${f.exceptionsGranted} granted · ${d.expiringExceptions} ending within 2 weeks`,
      ]),
      context(
        `Hours saved counts ${f.vanpoolChecks} automated vanpool check(s) at 15 min and each case closed without a person at 45 min.`,
      ),
    ],
  };
}
