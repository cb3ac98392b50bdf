// The CLI tests run bin/poolpatrol.js, which runs the compiled dist/: compile the current
// sources first (incremental, so about a second when nothing changed).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { PROJECT_ROOT } from "../../src/config/settings.js";

export default function setup() {
  execFileSync(
    process.execPath,
    [path.join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
    {
      cwd: PROJECT_ROOT,
      stdio: "inherit",
    },
  );
}
