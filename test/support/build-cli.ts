// The CLI tests run bin/poolpatrol.js, which runs the bundled dist/cli/: compile the current
// sources first (tsc is incremental; the bundle takes a few seconds).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { PROJECT_ROOT } from "../../src/config/settings.js";

export default function setup() {
  const node = (...args: string[]) => execFileSync(process.execPath, args, { cwd: PROJECT_ROOT, stdio: "inherit" });
  node(path.join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json");
  node(path.join(PROJECT_ROOT, "scripts", "bundle-cli.mjs"));
}
