// Evaluation datasets: JSONL, one `{ id, kind, inputs, expected, metadata? }` a line.
import fs from "node:fs";
import { z } from "zod";
import { invalidInput } from "../src/errors.js";

export const exampleSchema = z.object({
  id: z.string().min(1),
  kind: z.string().min(1),
  inputs: z.record(z.string(), z.unknown()),
  expected: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type Example = z.infer<typeof exampleSchema>;

export function readDataset(file: string): Example[] {
  if (!fs.existsSync(file)) throw invalidInput(`No dataset file ${file}.`);
  const examples: Example[] = [];
  fs.readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, index) => {
      if (line.trim() === "") return;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch (error) {
        throw invalidInput(`${file}:${index + 1}: not valid JSON (${(error as Error).message})`);
      }
      const parsed = exampleSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw invalidInput(`${file}:${index + 1}: field "${issue.path.join(".")}": ${issue.message}`);
      }
      examples.push(parsed.data);
    });
  if (examples.length === 0) throw invalidInput(`${file} holds no examples.`);
  return examples;
}
