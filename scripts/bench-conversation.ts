// `npm run bench`, conversation section: the Case Manager answering thread questions
// offline (rules model) from stored evidence on the mock data after an audit of every
// vanpool, in threads with follow-ups. Prints answer latency; asserts nothing.
import os from "node:os";
import path from "node:path";
import { createConversation } from "../src/agents/conversation/agent.js";
import { buildAppDeps } from "../src/app/container.js";
import { createCaseWorkflow } from "../src/cases/case-workflow.js";
import { seedFolder } from "../src/cases/seed-folder.js";
import { PROJECT_ROOT, parseSettings } from "../src/config/settings.js";
import { listCases } from "../src/data/case-repository.js";
import { listVanpoolIds } from "../src/data/vanpool-repository.js";
import { outboxSender } from "../src/integrations/email/outbox.js";
import { withBenchDatabase } from "./bench-database.js";

const ROUNDS = Number(process.argv[2] ?? 5);
const THREAD = [
  "why did this case fail?",
  "and the other rider?",
  "what did the rider say?",
  "when does this case time out?",
  "what emails did we send?",
  "why did tihs case fial",
  "did the shift check pass?",
  "what's the policy on distance?",
  "how many cases wait for a person?",
  "hmm",
];

await withBenchDatabase("conversation", async ({ clients, outbox }) => {
  await seedFolder(clients, path.join(PROJECT_ROOT, "mock"));
  const deps = await buildAppDeps(clients, parseSettings({}), { sender: outboxSender(outbox) });
  const workflow = createCaseWorkflow(deps);
  for (const id of await listVanpoolIds(clients.prisma)) await workflow.auditVanpool(id);
  const cases = await listCases(clients.prisma);
  const conversation = createConversation(deps, {
    recheck: async () => ({ text: "not used", sources: [] }),
    draftFollowUp: async () => ({ approval_id: "not used", existing: false }),
  });
  const latencies: number[] = [];
  for (let round = 0; round < ROUNDS; round++)
    for (const record of cases) {
      const threadId = `bench-${round}-${record.case_id}`;
      for (const question of THREAD) {
        const started = performance.now();
        await conversation.ask({ threadId, question, caseId: record.case_id, askerIsApprover: false });
        latencies.push(performance.now() - started);
      }
    }
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  console.log(
    `\nConversation (rules model, ${cases.length} cases, threads of ${THREAD.length} questions with follow-ups, ${os.cpus().length} cores)`,
  );
  console.log("answers   p50 ms   p95 ms   max ms");
  console.log(
    `${String(latencies.length).padStart(7)} ${at(0.5).toFixed(0).padStart(8)} ${at(0.95).toFixed(0).padStart(8)} ${latencies.at(-1)!.toFixed(0).padStart(8)}`,
  );
});
