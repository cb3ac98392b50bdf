// An answer that reads best as a table (who is flagged, the cases waiting for a person, two riders side by side):
// its header and rows in plain words. It is written into the answer as a markdown table (a header row, a --- row,
// a row each), the form a model writes too, so the thread's history and the stored answer keep it; Slack shows it
// as a table block, after the answer's text (src/slack/blocks/answer.ts).

export interface AnswerTable {
  /** The header row. */
  columns: string[];
  /** One row per rider, case or field, as many cells as columns. */
  rows: string[][];
}

/** A cell on one line, with no column separator of its own. */
const cell = (text: string) =>
  text
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "/")
    .trim();

export function tableMarkdown(table: AnswerTable): string {
  const line = (cells: string[]) => `| ${table.columns.map((_, i) => cell(cells[i] ?? "")).join(" | ")} |`;
  return [line(table.columns), `|${table.columns.map(() => " --- ").join("|")}|`, ...table.rows.map(line)].join("\n");
}
