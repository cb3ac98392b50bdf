// A bot process for the crash test: the job workers of a real bot (no HTTP listener),
// on the database, fake Slack and Resend stub the test names in its environment. It
// prints "ready" once its workers run; the test kills it with SIGKILL at random points.
import { buildAgentDeps } from "../../src/agents/deps.js";
import { parseSettings } from "../../src/config/settings.js";
import { createDataClients } from "../../src/data/prisma.js";
import { resendSender } from "../../src/integrations/email/resend-sender.js";
import { startJobEngine } from "../../src/jobs/engine.js";
import { QUEUE_OPTIONS } from "../../src/jobs/queues.js";
import { startBotJobs } from "../../src/jobs/runtime.js";
import { createSlackApp } from "../../src/slack/app.js";

const env = (name: string) => {
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
    signingSecret: "crash-test-secret",
    appToken: undefined,
    apiUrl: env("CRASH_SLACK_API_URL"),
    port: 0,
    auditChannel: "C0AUDIT",
    approvers: [],
    restrictAudits: false,
  },
  deps,
  jobs,
  retries: 0,
  channelIntervalMs: 0,
});
await startBotJobs(bot, jobs, settings, { recoverEveryMs: 500 });
process.stdout.write("ready\n");
