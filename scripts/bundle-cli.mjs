// Bundles the `poolpatrol` command into dist/cli/ with esbuild (scripts/esbuild-node.mjs; run by
// `npm run build` and on install). bin/poolpatrol.js runs dist/cli/main.js.
import path from "node:path";
import { bundleForNode } from "./esbuild-node.mjs";

await bundleForNode({ main: "src/cli/main.ts" }, path.resolve(import.meta.dirname, "..", "dist", "cli"));
