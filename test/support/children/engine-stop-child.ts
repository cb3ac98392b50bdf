// Starts the compiled job engine as a CLI command does (more workers than pg-boss has connections),
// stops it and lets the process end on its own: no process.exit, so anything left running keeps it alive.
import { startJobEngine } from "../../../src/queue/engine.js";
import { QUEUE_OPTIONS, QUEUES } from "../../../src/queue/queues.js";

const databaseUrl = process.env.ENGINE_DATABASE_URL;
if (!databaseUrl) throw new Error("engine-stop-child needs ENGINE_DATABASE_URL");
const engine = await startJobEngine({
  databaseUrl,
  log: () => {},
  supervise: false,
  pollingIntervalSeconds: 0.5,
  queues: QUEUE_OPTIONS,
});
for (const queue of [QUEUES.applyDecision, QUEUES.sendEmail, QUEUES.replyTimeout, QUEUES.retention])
  await engine.work(queue, async () => {}, { concurrency: 4 });
await engine.stop();
process.stdout.write("stopped\n");
