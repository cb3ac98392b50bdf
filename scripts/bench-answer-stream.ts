// `npm run bench`, streamed answers: 500 questions asked in case threads while every vanpool is audited
// again in the background, each answered by the bot's own answer job
// (the status line, the Case Manager's conversation, the post claimed meanwhile, the answer streamed through
// chat.startStream / appendStream / stopStream to the local Slack over HTTP as soon as it is written, stored
// before its feedback buttons). Prints the time from the job's start to the first streamed words (startStream
// accepted) and to the full answer (stopStream accepted), p50/p95, with the load average. Offline: rules model,
// embedded PostgreSQL, local Slack. The sweep runs where the bot runs it by default: in a worker process at the
// worker's lower priority (scripts/bench-answer-sweep.ts); BENCH_SWEEP_IN_PROCESS=1 runs it in the answers' own
// process and event loop instead, as a bot with POOLPATROL_WORKER_PROCESSES=0 does. Asserts nothing.
import { fork } from "node:child_process";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import { WebClient } from "@slack/web-api";
import { buildAppDeps } from "../src/app/container.js";
import { createConversationWork } from "../src/bot/listeners/events/conversation.js";
import { createCaseWorkflow } from "../src/cases/case-workflow.js";
import { seedFolder } from "../src/cases/seed-folder.js";
import { PROJECT_ROOT, parseSettings } from "../src/config/settings.js";
import { listCases } from "../src/data/case-repository.js";
import { listVanpoolIds } from "../src/data/vanpool-repository.js";
import { outboxSender } from "../src/integrations/email/outbox.js";
import { startLocalSlack } from "../src/sandbox/slack/local-slack.js";
import { createCaseMessages } from "../src/slack/case-messages.js";
import { withBenchDatabase } from "./bench-database.js";

const QUESTIONS = Number(process.argv[2] ?? 500);
const ASKED = [
  "why did this case fail?",
  "and the other rider?",
  "what did the rider say?",
  "when does this case time out?",
  "what emails did we send?",
  "did the shift check pass?",
  "what's the policy on distance?",
  "how many cases wait for a person?",
];
const CHANNEL = "C0BENCH";

const SWEEP_IN_PROCESS = Boolean(process.env.BENCH_SWEEP_IN_PROCESS);

await withBenchDatabase("answer-stream", async ({ clients, url, outbox }) => {
  await seedFolder(clients, path.join(PROJECT_ROOT, "mock"));
  const slack = await startLocalSlack();
  const settings = parseSettings({
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: "bench",
    SLACK_API_URL: slack.apiUrl,
    POOLPATROL_AUDIT_CHANNEL: CHANNEL,
  });
  const deps = await buildAppDeps(clients, settings, { sender: outboxSender(outbox) });
  const workflow = createCaseWorkflow(deps);
  const vanpools = await listVanpoolIds(clients.prisma);
  for (const id of vanpools) await workflow.auditVanpool(id);
  const cases = await listCases(clients.prisma);
  const client = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  const log = { info: () => {}, warn: console.warn, error: console.error };
  const ctx = { deps, workflow, slack: settings.slack!, client, log };
  const work = createConversationWork({
    ctx,
    messages: createCaseMessages(ctx, { channelIntervalMs: 0 }),
    isApprover: async () => true,
  });

  let sweeping = true;
  let audited = 0;
  const sweep = SWEEP_IN_PROCESS
    ? (async () => {
        while (sweeping)
          for (const id of vanpools) {
            if (!sweeping) break;
            await workflow.auditVanpool(id);
            audited++;
          }
      })()
    : undefined;
  const worker = SWEEP_IN_PROCESS
    ? undefined
    : fork(path.join(PROJECT_ROOT, "scripts", "bench-answer-sweep.ts"), {
        env: { ...process.env, DATABASE_URL: url, BENCH_OUTBOX: outbox },
        execArgv: ["--import", "tsx"],
      });
  if (worker) await once(worker, "message");

  const first: number[] = [];
  const full: number[] = [];
  for (let i = 0; i < QUESTIONS; i++) {
    const record = cases[i % cases.length]!;
    const thread = slack.userMessage({ user: "U0BENCH", channel: CHANNEL, text: `case ${record.case_id}` }).message.ts;
    const startsBefore = slack.callsTo("chat.startStream").length;
    const started = performance.now();
    const startedAt = Date.now();
    await work.answer(
      {
        kind: "question",
        asked: {
          channel: CHANNEL,
          threadTs: thread,
          conversationId: `bench-${i}`,
          caseId: record.case_id,
          userId: "U0BENCH",
          teamId: slack.teamId,
          text: ASKED[i % ASKED.length]!,
        },
      },
      `bench-${i}`,
    );
    full.push(performance.now() - started);
    const startCall = slack.callsTo("chat.startStream")[startsBefore];
    first.push(startCall ? startCall.at - startedAt : Number.NaN);
  }
  sweeping = false;
  await sweep;
  if (worker) {
    worker.send("stop");
    const [done] = (await once(worker, "message")) as [{ audited: number }];
    audited = done.audited;
  }
  await slack.close();
  const at = (list: number[], p: number) => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  };
  console.log(
    `\nStreamed answers (rules model, ${QUESTIONS} questions in ${cases.length} case threads, ${audited} vanpool audits running beside them ${SWEEP_IN_PROCESS ? "in the same process" : "in a worker process"}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")})`,
  );
  console.log("                      p50 ms   p95 ms   max ms");
  for (const [name, list] of [
    ["first streamed words", first],
    ["full answer", full],
  ] as const)
    console.log(
      `${name.padEnd(21)} ${at(list, 0.5).toFixed(0).padStart(7)} ${at(list, 0.95).toFixed(0).padStart(8)} ${Math.max(
        ...list,
      )
        .toFixed(0)
        .padStart(8)}`,
    );
});
