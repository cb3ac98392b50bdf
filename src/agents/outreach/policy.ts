// The program policy (policy/program-policy.md), split by "## " section so answers
// can quote and cite a section by its heading.
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../config/settings.js";

export interface PolicySection {
  heading: string;
  text: string;
}

const POLICY_FILE = path.join(PROJECT_ROOT, "policy", "program-policy.md");
const STOP = new Set(
  "a an and are as at be but by can do does for from how i if in is it my of on or so that the this to was we what when where which who why will with you your me am".split(
    " ",
  ),
);

export function loadPolicy(file = POLICY_FILE): PolicySection[] {
  const sections: PolicySection[] = [];
  for (const chunk of fs.readFileSync(file, "utf8").split(/^## /m).slice(1)) {
    const [heading, ...body] = chunk.split("\n");
    sections.push({ heading: heading!.trim(), text: body.join("\n").trim() });
  }
  return sections;
}

const words = (text: string) =>
  text
    .toLowerCase()
    .match(/[a-z0-9]+/g)
    ?.filter((w) => !STOP.has(w))
    .map(stem) ?? [];
const stem = (word: string) => word.replace(/(ing|ed|es|s)$/, "");

/** The sections that best match a question: heading words count double. */
export function retrievePolicy(sections: PolicySection[], question: string, limit = 2): PolicySection[] {
  const asked = new Set(words(question));
  if (asked.size === 0) return [];
  const scored = sections.map((section) => {
    const heading = new Set(words(section.heading));
    const body = new Set(words(section.text));
    let score = 0;
    for (const w of asked) score += (heading.has(w) ? 2 : 0) + (body.has(w) ? 1 : 0);
    return { section, score: score / Math.sqrt(body.size + 1) };
  });
  const ranked = scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score);
  const best = ranked[0]?.score ?? 0;
  return ranked
    .filter((s) => s.score >= best * 0.6)
    .slice(0, limit)
    .map((s) => s.section);
}
