// A bot process for the crash test, run from the compiled dist/ (it starts in about a second):
// the job workers and the HTTP listener of a real bot, on the database, fake Slack and Resend
// stub the test names in its environment. It prints "ready <port>" once it takes requests and
// works jobs; the test kills it with SIGKILL at random points.
import { buildAgentDeps } from "../../dist/src/agents/deps.js";
import { parseSettings } from "../../dist/src/config/settings.js";
import { createDataClients } from "../../dist/src/data/prisma.js";
import { resendSender } from "../../dist/src/integrations/email/resend-sender.js";
import { startJobEngine } from "../../dist/src/jobs/engine.js";
import { QUEUE_OPTIONS } from "../../dist/src/jobs/queues.js";
import { startBotJobs } from "../../dist/src/jobs/runtime.js";
import { createSlackApp } from "../../dist/src/slack/app.js";

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`crash-child needs ${name}`);
  return value;
};

const databaseUrl = env("CRASH_DATABASE_URL");
const settings = parseSettings({});
const clients = createDataClients(databaseUrl);
const jobs = await startJobEngine({
  databaseUrl,
  log: () => {},
  pollingIntervalSeconds: 0.5,
  queues: QUEUE_OPTIONS,
  instanceTtlMs: 1500,
});
const deps = {
  ...(await buildAgentDeps(clients, settings, {
    sender: resendSender({ apiKey: "re_test_key", baseUrl: env("CRASH_RESEND_URL"), timeoutMs: 3000 }),
  })),
  jobs,
};
const bot = await createSlackApp({
  slack: {
    botToken: env("CRASH_SLACK_TOKEN"),
    signingSecret: env("CRASH_SIGNING_SECRET"),
    appToken: undefined,
    apiUrl: env("CRASH_SLACK_API_URL"),
    port: 0,
    auditChannel: "C0AUDIT",
    approvers: ["U0ALICE"],
    restrictAudits: false,
  },
  deps,
  jobs,
  retries: 0,
  channelIntervalMs: 0,
});
const server = await bot.app.start(0);
await startBotJobs(bot, jobs, settings, { recoverEveryMs: 500 });
process.stdout.write(`ready ${server.address().port}\n`);
