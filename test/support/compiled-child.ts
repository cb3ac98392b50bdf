// Test children (test/support/children/*.ts) are type-checked with the rest of the tests and
// compiled into dist/ by the build the integration tier's global setup runs, so a child starts
// as fast as the bot does, without a TypeScript loader.
import path from "node:path";
import { PROJECT_ROOT } from "../../src/config/settings.js";

/** The compiled script of the child `name` (test/support/children/<name>.ts). */
export const compiledChild = (name: "crash-child" | "webhook-child" | "engine-stop-child") =>
  path.join(PROJECT_ROOT, "dist", "test", "support", "children", `${name}.js`);
