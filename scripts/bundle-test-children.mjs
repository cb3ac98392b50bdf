// Bundles the integration tests' child processes (test/support/children/*.ts) into dist/test-children/
// the way the `poolpatrol` command is bundled (scripts/esbuild-node.mjs): a child then loads in about
// half the CPU time it takes from tsc's one-file-per-module output, and the crash test starts dozens.
// Run by the integration tier's global setup (test/support/build-cli.ts).
import fs from "node:fs";
import path from "node:path";
import { bundleForNode } from "./esbuild-node.mjs";

const root = path.resolve(import.meta.dirname, "..");
const children = path.join("test", "support", "children");
const entryPoints = Object.fromEntries(
  fs
    .readdirSync(path.join(root, children))
    .filter((file) => file.endsWith(".ts"))
    .map((file) => [path.basename(file, ".ts"), path.join(children, file)]),
);
await bundleForNode(entryPoints, path.join(root, "dist", "test-children"));
