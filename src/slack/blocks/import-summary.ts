// An import's one channel message (counts, and the re-checks as they finish), the details in its
// thread (which records changed, which vanpools were re-checked and how) and a failed sync's notice.
import type { KnownBlock } from "@slack/types";
import type { ImportRecheckRecord } from "../../data/data-import-repository.js";
import { IMPORT_WORDS, importedBy } from "../../domain/import-summary.js";
import type { ImportKindName } from "../../domain/record-import.js";
import { plural } from "../../domain/specialist-result.js";
import { context, escapeMrkdwn, type SlackMessage, section, slackDate } from "./format.js";

export interface ImportSummaryInput {
  id: string;
  kind: ImportKindName;
  source_file: string;
  actor: string;
  created_at: Date;
  counts: { added: number; changed: number; leaving: number };
  rechecks: ImportRecheckRecord[];
}

export interface ImportDetailsInput extends ImportSummaryInput {
  /** Each record as people read it (id and first name), with the fields that changed. */
  added: string[];
  changed: { label: string; fields: string[] }[];
  leaving: string[];
}

/** Lines shown per list before "…and N more". */
const LIST_MAX = 40;

function recheckWords(rechecks: ImportRecheckRecord[]): string {
  if (rechecks.length === 0) return "no vanpool to re-check";
  const done = rechecks.filter((r) => r.outcome !== null);
  const count = (o: string) => done.filter((r) => r.outcome === o).length;
  const failed = count("failed");
  return [
    done.length === rechecks.length
      ? `${plural(rechecks.length, "vanpool")} re-checked`
      : `${plural(rechecks.length, "vanpool")} re-checking (${done.length} done)`,
    plural(count("resolved"), "case resolved", "cases resolved"),
    plural(count("new_case"), "new case"),
    ...(failed ? [plural(failed, "re-check failed", "re-checks failed")] : []),
  ].join(", ");
}

export function importSummaryText(i: ImportSummaryInput): string {
  const w = IMPORT_WORDS[i.kind];
  const counts = [
    plural(i.counts.changed, `${w.noun} changed`, `${w.noun}s changed`),
    `${i.counts.added} ${w.added}`,
    ...(i.kind === "shifts" ? [] : [`${i.counts.leaving} ${w.leaving}`]),
  ];
  return `${w.title} from ${i.source_file}: ${counts.join(", ")}; ${recheckWords(i.rechecks)}`;
}

export function importSummary(i: ImportSummaryInput): SlackMessage {
  const text = importSummaryText(i);
  return {
    text,
    blocks: [
      section(`📥 *${escapeMrkdwn(text)}*`),
      context(
        `Imported ${importedBy(i.actor)} on ${slackDate(i.created_at)} · ${i.id} · which records changed and each re-check in the thread`,
      ),
    ],
  };
}

const OUTCOME_WORDS: Record<string, (r: ImportRecheckRecord) => string> = {
  resolved: (r) => `case ${r.case_id} resolved`,
  new_case: (r) => `new case ${r.case_id}`,
  still_open: (r) =>
    r.opened_by
      ? `still failing (case ${r.case_id} opened by the ${IMPORT_WORDS[r.opened_by.kind as ImportKindName].title.toLowerCase()} from ${r.opened_by.source_file})`
      : `still failing, case ${r.case_id} stays open`,
  passes: () => "passes, no case",
  failed: (r) => `the re-check failed; run \`/poolpatrol audit ${r.vanpool_id}\``,
};

function list(title: string, items: string[], id: string): string {
  const shown = items.slice(0, LIST_MAX).map((item) => `• ${item}`);
  const more = items.length > LIST_MAX ? `\n…and ${items.length - LIST_MAX} more (\`GET /api/imports/${id}\`)` : "";
  return `*${title} (${items.length})*\n${shown.join("\n")}${more}`;
}

export function importDetails(i: ImportDetailsInput): SlackMessage {
  const w = IMPORT_WORDS[i.kind];
  const blocks: KnownBlock[] = [];
  if (i.changed.length > 0)
    blocks.push(
      section(
        list(
          "Changed",
          i.changed.map((c) => `${c.label}: ${c.fields.map(w.field).join(", ")}`),
          i.id,
        ),
      ),
    );
  if (i.added.length > 0) blocks.push(section(list(capitalised(w.added), i.added, i.id)));
  if (i.leaving.length > 0) blocks.push(section(list(capitalised(w.leaving), i.leaving, i.id)));
  blocks.push(
    section(
      i.rechecks.length === 0
        ? "*Re-checked*\nNone: nothing a check reads changed (a home's ZIP or coordinates, a shift, a work site, employment) and no rider joined."
        : list(
            "Re-checked",
            i.rechecks.map((r) => `${r.vanpool_id}: ${r.outcome ? OUTCOME_WORDS[r.outcome]!(r) : "re-checking…"}`),
            i.id,
          ),
    ),
  );
  blocks.push(context("Every change is kept with its old and new value: `poolpatrol history` or `GET /api/changes`."));
  return { text: `Details of the ${w.title.toLowerCase()} from ${i.source_file}`, blocks };
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** A sync applies all its files or none (src/cases/import-sync.ts): a failed one changed nothing. */
export function syncFailedNotice(input: { started_at: Date; error: string }): SlackMessage {
  const changed = "nothing was changed";
  return {
    text: `The scheduled import sync failed: ${input.error} ${capitalised(changed)}; the next sync tries again.`,
    blocks: [
      section(`⚠️ *The scheduled import sync failed.* ${escapeMrkdwn(input.error)}`),
      context(`${slackDate(input.started_at)} · ${changed}; the next sync tries again · \`poolpatrol jobs\` shows it`),
    ],
  };
}
