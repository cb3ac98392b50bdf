// Everything the job engine runs inside the bot (or the sandbox): the case and Slack
// workers, the clock, and the start-up recovery of what a crash left behind.
import type { Settings } from "../config/settings.js";
import type { SlackApp } from "../slack/app.js";
import { registerAuditJobs } from "./audit-jobs.js";
import { recoverAbandonedRuns, registerCaseJobs } from "./case-jobs.js";
import { startClock } from "./clock.js";
import type { JobEngine } from "./engine.js";
import { queueMissingAlerts, registerSlackJobs } from "./slack-jobs.js";

export async function startBotJobs(
  bot: SlackApp,
  engine: JobEngine,
  settings: Pick<Settings, "schedule" | "timeZone" | "jobs">,
  options: { now?: () => Date } = {},
) {
  const { deps, workflow, log } = bot.ctx;
  await registerCaseJobs(engine, { deps, workflow, log: log.info });
  await registerSlackJobs(engine, {
    messages: bot.messages,
    digest: bot.digest,
    prisma: deps.prisma,
    concurrency: settings.jobs.concurrency,
  });
  await registerAuditJobs(engine, {
    workflow,
    messages: bot.messages,
    client: bot.app.client,
    prisma: deps.prisma,
    now: deps.now,
    log: log.info,
    concurrency: settings.jobs.concurrency,
  });
  const clock = startClock(engine, {
    digestCron: settings.schedule.digestCron,
    timezone: settings.timeZone,
    now: options.now,
  });
  const abandoned = await recoverAbandonedRuns(engine, deps);
  if (abandoned > 0) log.warn(`${abandoned} agent run(s) left running by a stopped process were marked failed.`);
  await queueMissingAlerts(engine, deps.prisma);
  return clock;
}
