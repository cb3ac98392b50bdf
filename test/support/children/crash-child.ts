// A bot process for the crash test, run from the compiled dist/: the job workers and the HTTP
// listener of a real bot, with sweeps started by `/poolpatrol audit all` and announced in its
// audit channel. Loading its modules is most of its start-up (seconds on a busy machine), so the
// test starts the next bot ahead of time: it prints "loaded", then waits for one line on stdin
// naming its database, fake Slack, Resend stub and channel, and prints "ready <port>" once it
// takes requests and works jobs. The test kills it with SIGKILL at random points.
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { startBotJobs } from "../../../src/app/bot-jobs.js";
import { createBotSweeps } from "../../../src/app/bot-sweeps.js";
import { buildAppDeps } from "../../../src/app/container.js";
import { createSlackApp } from "../../../src/bot/app.js";
import { parseSettings } from "../../../src/config/settings.js";
import { createDataClients } from "../../../src/data/prisma.js";
import { resendSender } from "../../../src/integrations/email/resend-sender.js";
import { startJobEngine } from "../../../src/queue/engine.js";
import { QUEUE_OPTIONS } from "../../../src/queue/queues.js";
import { quickRetries } from "../quick-retries.js";

process.stdout.write("loaded\n");
const [line] = await once(createInterface({ input: process.stdin }), "line");
const config = JSON.parse(line);
const given = (name: string): string => {
  const value = config[name];
  if (!value) throw new Error(`crash-child needs ${name}`);
  return value;
};

const databaseUrl = given("databaseUrl");
// A sweep page taken back from a killed bot is retried after 1 s rather than 5 s doubling (its retry limit is the same),
// and a case or a Slack post the killed bot was working on is free 5 s after its last renewal rather than 20 s.
const settings = parseSettings({
  POOLPATROL_SWEEP_PAGE_SIZE: given("sweepPageSize"),
  POOLPATROL_SWEEP_RETRY_DELAY_SECONDS: "1",
  POOLPATROL_CLAIM_SECONDS: "5",
});
const channel = given("channel");
const clients = createDataClients(databaseUrl);
const jobs = await startJobEngine({
  databaseUrl,
  log: () => {},
  pollingIntervalSeconds: 0.5,
  queues: quickRetries(QUEUE_OPTIONS),
  instanceTtlMs: 1500,
});
const deps = {
  ...(await buildAppDeps(clients, settings, {
    sender: resendSender({ apiKey: "re_test_key", baseUrl: given("resendUrl"), timeoutMs: 3000 }),
  })),
  jobs,
};
const sweeps = createBotSweeps({ engine: jobs, agent: deps, settings, log: () => {} });
const bot = await createSlackApp({
  slack: {
    botToken: given("slackToken"),
    signingSecret: given("signingSecret"),
    appToken: undefined,
    apiUrl: given("slackApiUrl"),
    port: 0,
    webUrl: "http://localhost",
    auditChannel: channel,
    approvers: ["U0ALICE"],
    restrictAudits: false,
  },
  deps,
  jobs,
  retries: 0,
  channelIntervalMs: 0,
  startSweep: sweeps.startSweep,
});
await sweeps.attach(bot, channel);
const server = await bot.app.start(0);
await startBotJobs(bot, jobs, settings, { recoverEveryMs: 500 });
process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`);
