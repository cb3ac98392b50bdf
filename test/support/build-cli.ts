// The CLI tests run bin/poolpatrol.js, which runs the bundled dist/cli/, and other tests spawn the
// bundled children of dist/test-children/: compile the current sources first (tsc is incremental;
// each bundle takes a few seconds).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { PROJECT_ROOT } from "../../src/config/settings.js";

export default function setup() {
  const node = (...args: string[]) => execFileSync(process.execPath, args, { cwd: PROJECT_ROOT, stdio: "inherit" });
  node(path.join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json");
  node(path.join(PROJECT_ROOT, "scripts", "bundle-cli.mjs"));
  node(path.join(PROJECT_ROOT, "scripts", "bundle-test-children.mjs"));
}
