import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readmeUsage, usageBlock } from "../../scripts/readme-usage.js";
import { PROJECT_ROOT } from "../../src/config/settings.js";

describe("the README's usage", () => {
  it("is `poolpatrol --help`, word for word (npm run readme:usage rewrites it)", () => {
    const readme = fs.readFileSync(path.join(PROJECT_ROOT, "README.md"), "utf8");
    expect(readmeUsage(readme)).toBe(usageBlock());
  });
});
