// Copies of mock/ that a test may break on purpose.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "../../src/config/settings.js";

export const MOCK_DIR = path.join(PROJECT_ROOT, "mock");

// biome-ignore lint/suspicious/noExplicitAny: tests reach into records freely
export function copyMockDir(edit?: (files: Record<string, any[]>) => void): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-fixtures-"));
  // biome-ignore lint/suspicious/noExplicitAny: tests reach into records freely
  const files: Record<string, any[]> = {};
  for (const name of fs.readdirSync(MOCK_DIR))
    files[name] = JSON.parse(fs.readFileSync(path.join(MOCK_DIR, name), "utf8"));
  edit?.(files);
  for (const [name, records] of Object.entries(files))
    fs.writeFileSync(path.join(dir, name), JSON.stringify(records, null, 2));
  return dir;
}
