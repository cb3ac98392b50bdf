// Test children (test/support/children/*.ts) are type-checked with the rest of the tests and
// bundled into dist/test-children/ by the integration tier's global setup
// (scripts/bundle-test-children.mjs), so a child starts as the `poolpatrol` command does: from one
// bundle, without a TypeScript loader.
import path from "node:path";
import { PROJECT_ROOT } from "../../src/config/settings.js";

/** The bundled script of the child `name` (test/support/children/<name>.ts). */
export const compiledChild = (name: "crash-child" | "webhook-child" | "engine-stop-child") =>
  path.join(PROJECT_ROOT, "dist", "test-children", `${name}.js`);
