// Child of scripts/bench-answer-stream.ts: the sweep beside the answers, as the bot runs it by default (a worker
// process at the worker's lower priority): audits every vanpool of DATABASE_URL again and again until told to
// stop, then sends the number of audits it finished.
import os from "node:os";
import { buildAppDeps } from "../src/app/container.js";
import { WORKER_NICENESS } from "../src/app/worker-processes.js";
import { createCaseWorkflow } from "../src/cases/case-workflow.js";
import { parseSettings } from "../src/config/settings.js";
import { createDataClients } from "../src/data/prisma.js";
import { listVanpoolIds } from "../src/data/vanpool-repository.js";
import { outboxSender } from "../src/integrations/email/outbox.js";

os.setPriority(WORKER_NICENESS);
const clients = createDataClients(process.env.DATABASE_URL!);
const deps = await buildAppDeps(clients, parseSettings({}), { sender: outboxSender(process.env.BENCH_OUTBOX!) });
const workflow = createCaseWorkflow(deps);
const vanpools = await listVanpoolIds(clients.prisma);
let sweeping = true;
process.on("message", () => {
  sweeping = false;
});
process.send!("started");
let audited = 0;
while (sweeping)
  for (const id of vanpools) {
    if (!sweeping) break;
    await workflow.auditVanpool(id);
    audited++;
  }
process.send!({ audited });
await clients.prisma.$disconnect();
await clients.pool.end();
process.disconnect();
