// Child of scripts/bench.ts: one `audit --all` against DATABASE_URL, then its own
// elapsed time and peak resident memory as a JSON line.

import { openContext } from "../src/cli/context.js";
import { parseSettings } from "../src/config/settings.js";
import { auditAllVanpools } from "../src/verification/audit-service.js";

const ctx = await openContext(parseSettings(), () => {});
const started = performance.now();
const summary = await auditAllVanpools(ctx.auditDeps, { trigger: "bench" });
const seconds = (performance.now() - started) / 1000;
await ctx.close();
console.log(JSON.stringify({ total: summary.total, seconds, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
process.exit(0);
