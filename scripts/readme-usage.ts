// Writes `poolpatrol --help` into the README's usage block (`npm run readme:usage`);
// test/cli/usage.unit.test.ts fails when the two differ.
import fs from "node:fs";
import path from "node:path";
import { createProgram } from "../src/cli/program.js";
import { PROJECT_ROOT } from "../src/config/settings.js";

export const USAGE_START = "<!-- usage: generated from `poolpatrol --help` by `npm run readme:usage` -->";
export const USAGE_END = "<!-- end of usage -->";

/** Exactly what `poolpatrol --help` prints, examples included. */
export function helpText(): string {
  let text = "";
  const program = createProgram();
  program.configureOutput({ writeOut: (part) => (text += part) });
  program.outputHelp();
  return text;
}

export function usageBlock(): string {
  return `${USAGE_START}\n\n\`\`\`text\n${helpText().trimEnd()}\n\`\`\`\n\n${USAGE_END}`;
}

export function readmeUsage(readme: string): string | undefined {
  const start = readme.indexOf(USAGE_START);
  const end = readme.indexOf(USAGE_END);
  return start >= 0 && end > start ? readme.slice(start, end + USAGE_END.length) : undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = path.join(PROJECT_ROOT, "README.md");
  const readme = fs.readFileSync(file, "utf8");
  const current = readmeUsage(readme);
  if (!current) throw new Error(`README.md has no usage block (${USAGE_START} … ${USAGE_END}).`);
  fs.writeFileSync(file, readme.replace(current, usageBlock()));
}
