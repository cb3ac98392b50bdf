// `poolpatrol eval export-feedback [--out FILE]`: auditors' 👎 corrections as a `question` dataset (one
// JSONL line each, the format of evals/datasets/question-2.jsonl), so each becomes a test case:
// `poolpatrol eval --dataset FILE` runs them.
import fs from "node:fs";
import { loadSettings, withDatabase } from "../app/context.js";
import { listCorrections } from "../data/answer-repository.js";
import { correctionExample, type QuestionExample } from "../domain/feedback-dataset.js";
import { out } from "./command-kit.js";

export async function exportFeedbackCommand(options: { out?: string }): Promise<void> {
  await withDatabase(loadSettings(), async (db) => {
    const examples: QuestionExample[] = [];
    const skipped: string[] = [];
    for (const correction of await listCorrections(db.prisma)) {
      const example = correctionExample(correction);
      if ("skipped" in example) skipped.push(example.skipped);
      else examples.push(example);
    }
    const jsonl = examples.map((e) => `${JSON.stringify(e)}\n`).join("");
    if (options.out) {
      fs.writeFileSync(options.out, jsonl);
      out(`${examples.length} correction(s) written to ${options.out} as a question dataset.\n`);
    } else out(jsonl);
    for (const why of skipped) process.stderr.write(`Left out ${why}.\n`);
  });
}
