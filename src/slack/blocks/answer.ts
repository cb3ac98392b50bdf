// What a Case Manager answer carries besides its text: 👍/👎 feedback buttons (Slack's feedback_buttons
// in a context_actions block) naming the stored answer, the modal a 👎 opens to ask for the right answer,
// and a table block for the rows of a list the answer wrote as a markdown table.
import type { ContextActionsBlock, KnownBlock, ModalView, RawTextElement, TableBlock } from "@slack/types";
import { redactFinding } from "../../domain/redaction.js";
import { context, plain, section, truncate } from "./format.js";

export const ANSWER_FEEDBACK = "answer_feedback";
export const CORRECTION_CALLBACK = "answer_correction_submit";
export const CORRECTION_TITLE = "Correct the answer";
export const CORRECTION_INPUTS = {
  correction: { block: "correction", action: "correction" },
  mustInclude: { block: "must_include", action: "must_include" },
} as const;
const CORRECTION_MAX = 3000;

export type Rating = "up" | "down";

/** 👍 and 👎 under an answer; each button's value names the answer and the rating. */
export function feedbackBlock(answerId: string): ContextActionsBlock {
  return {
    type: "context_actions",
    elements: [
      {
        type: "feedback_buttons",
        action_id: ANSWER_FEEDBACK,
        positive_button: {
          text: plain("👍"),
          accessibility_label: "This answer was right",
          value: `up:${answerId}`,
        },
        negative_button: {
          text: plain("👎"),
          accessibility_label: "This answer was wrong",
          value: `down:${answerId}`,
        },
      },
    ],
  };
}

/** A clicked button's value as rating and answer id; undefined when it is not one of ours. */
export function readFeedbackValue(value: string): { rating: Rating; answerId: string } | undefined {
  const match = /^(up|down):(ANS-[0-9A-F]{16})$/.exec(value);
  return match ? { rating: match[1] as Rating, answerId: match[2]! } : undefined;
}

/** The modal a 👎 opens: the question and the answer, then what it should have said. */
export function correctionModal(answer: { id: string; question: string; answer: string }): ModalView {
  return {
    type: "modal",
    callback_id: CORRECTION_CALLBACK,
    private_metadata: answer.id,
    title: plain(CORRECTION_TITLE),
    submit: plain("Send"),
    close: plain("Cancel"),
    blocks: [
      section(`*You asked:* ${truncate(answer.question, 2800)}`),
      section(`*Pool Patrol answered:*\n${truncate(answer.answer, 2800)}`),
      {
        type: "input",
        block_id: CORRECTION_INPUTS.correction.block,
        label: plain("What should the answer have said?"),
        element: {
          type: "plain_text_input",
          action_id: CORRECTION_INPUTS.correction.action,
          multiline: true,
          min_length: 5,
          max_length: CORRECTION_MAX,
          placeholder: plain("The right answer, as you would tell a colleague"),
        },
      },
      {
        type: "input",
        block_id: CORRECTION_INPUTS.mustInclude.block,
        optional: true,
        label: plain("Words the right answer must contain"),
        hint: plain("Separated by commas, e.g. VP-111, 50-75 mi, Diego. Left empty, they are taken from your answer."),
        element: {
          type: "plain_text_input",
          action_id: CORRECTION_INPUTS.mustInclude.action,
          max_length: 500,
        },
      },
      context("Your correction becomes a test case the Case Manager is checked against."),
    ],
  };
}

/** The comma-separated words of the modal's second field, trimmed, without repeats. */
export function readMustInclude(value: string | null | undefined): string[] {
  return [
    ...new Set(
      (value ?? "")
        .split(",")
        .map((w) => w.trim())
        .filter((w) => w !== ""),
    ),
  ];
}

const TABLE_ROWS = 100;
const TABLE_COLUMNS = 20;
/** A column with a cell longer than this wraps (is_wrapped): a thread is narrow, and Slack scrolls a wide table sideways. */
const WRAP_OVER_CHARS = 24;

/**
 * An answer's first markdown table (a header row, a `---` row, then rows) as a table block, and the text
 * without it: Slack shows tables only as table blocks, one a message. Every cell reads as the channel may
 * (redaction.ts): whoever wrote the table, a model included, shows no address and no exact distance.
 */
export function splitTable(markdown: string): { text: string; table?: TableBlock } {
  const lines = markdown.split("\n");
  const isRow = (line: string | undefined) => line !== undefined && /^\s*\|.*\|\s*$/.test(line);
  const start = lines.findIndex((line, i) => isRow(line) && /^\s*\|(\s*:?-{3,}:?\s*\|)+\s*$/.test(lines[i + 1] ?? ""));
  if (start < 0) return { text: markdown };
  let end = start + 2;
  while (isRow(lines[end])) end++;
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, "")
      .split("|")
      .map((cell) => redactFinding(cell.trim().replace(/\*\*/g, "")))
      .slice(0, TABLE_COLUMNS);
  const rows = [lines[start]!, ...lines.slice(start + 2, end)].slice(0, TABLE_ROWS).map(cells);
  const width = Math.max(...rows.map((r) => r.length));
  const wrapped = Array.from({ length: width }, (_, i) => rows.some((r) => (r[i] ?? "").length > WRAP_OVER_CHARS));
  const table: TableBlock = {
    type: "table",
    rows: rows.map((r) =>
      Array.from({ length: width }, (_, i): RawTextElement => ({ type: "raw_text", text: r[i] || " " })),
    ),
    ...(wrapped.some(Boolean) && { column_settings: wrapped.map((is_wrapped) => ({ is_wrapped })) }),
  };
  const text = [...lines.slice(0, start), ...lines.slice(end)].join("\n").replace(/\n{3,}/g, "\n\n");
  return { text, table };
}

/** The blocks after an answer's text: its table, if it wrote one, then the feedback buttons. */
export function answerBlocks(answerId: string, table?: TableBlock): KnownBlock[] {
  return [...(table ? [table] : []), feedbackBlock(answerId)];
}
