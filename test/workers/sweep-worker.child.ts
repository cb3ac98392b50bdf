// A sweep worker in a process of its own, for the kill test in sweep.test.ts: it asks for
// the sweep SWEEP_SLOT and works sweep jobs on DATABASE_URL until it is killed.
import { buildAppDeps } from "../../src/app/container.js";
import { parseSettings } from "../../src/config/settings.js";
import { createDataClients } from "../../src/data/prisma.js";
import { outboxSender } from "../../src/integrations/email/outbox.js";
import { startJobEngine } from "../../src/queue/engine.js";
import { registerSweepJobs, requestSweep } from "../../src/workers/sweep-jobs.js";

const url = process.env.DATABASE_URL!;
const deps = await buildAppDeps(createDataClients(url), parseSettings({}), {
  sender: outboxSender(process.env.OUTBOX_DIR!),
  now: () => new Date(process.env.NOW!),
});
const engine = await startJobEngine({ databaseUrl: url, log: () => {}, pollingIntervalSeconds: 0.5, supervise: false });
await registerSweepJobs(engine, { agent: deps, settings: JSON.parse(process.env.SWEEP_SETTINGS!), log: () => {} });
await requestSweep(engine, { slot: process.env.SWEEP_SLOT!, trigger: "schedule" });
