// Everything the job engine runs inside the bot (or the sandbox): the case and Slack
// workers, the clock, and the start-up recovery of what a crash left behind.

import type { SlackApp } from "../bot/app.js";
import type { Settings } from "../config/settings.js";
import { outageLog } from "../data/pg-pool.js";
import { startClock } from "../queue/clock.js";
import type { JobEngine } from "../queue/engine.js";
import { createApproverCheck } from "../slack/approvers.js";
import { createImportAnnouncer } from "../slack/import-summary-post.js";
import { registerAuditJobs } from "../workers/audit-jobs.js";
import { recoverAbandonedRuns, registerCaseJobs } from "../workers/case-jobs.js";
import { registerImportJobs, scheduleImportSync } from "../workers/import-jobs.js";
import { registerSlackActionJobs } from "../workers/slack-action-jobs.js";
import { queueMissingAlerts, registerSlackJobs } from "../workers/slack-jobs.js";

export async function startBotJobs(
  bot: SlackApp,
  engine: JobEngine,
  settings: Pick<Settings, "schedule" | "timeZone" | "jobs" | "importSync" | "httpTimeoutMs">,
  options: { now?: () => Date; recoverEveryMs?: number } = {},
) {
  const { deps, workflow, log } = bot.ctx;
  await registerCaseJobs(engine, { deps, workflow, log: log.info });
  await registerSlackJobs(engine, {
    messages: bot.messages,
    digest: bot.digest,
    prisma: deps.prisma,
    concurrency: settings.jobs.concurrency,
  });
  await registerSlackActionJobs(engine, {
    ctx: bot.ctx,
    messages: bot.messages,
    digest: bot.digest,
    report: bot.report,
    isApprover: createApproverCheck(bot.app.client, bot.ctx.slack.approvers),
    concurrency: settings.jobs.concurrency,
    timeoutMs: settings.httpTimeoutMs,
  });
  await registerAuditJobs(engine, {
    workflow,
    messages: bot.messages,
    client: bot.app.client,
    prisma: deps.prisma,
    now: deps.now,
    log: log.info,
    concurrency: settings.jobs.concurrency,
    timeoutMs: settings.httpTimeoutMs,
  });
  const sync = settings.importSync;
  await registerImportJobs(engine, {
    announcer: createImportAnnouncer(bot.ctx),
    sync: sync && {
      prisma: deps.prisma,
      pool: deps.pool,
      settings: sync,
      now: deps.now,
      log: log.info,
      httpTimeoutMs: settings.httpTimeoutMs,
    },
  });
  const syncSchedule =
    sync && scheduleImportSync(engine, { cron: sync.cron, timezone: settings.timeZone, log: log.warn });
  const clock = startClock(engine, {
    digestCron: settings.schedule.digestCron,
    timezone: settings.timeZone,
    log: log.warn,
    now: options.now,
  });
  const recover = async () => {
    const jobs = await engine.retryOrphans();
    const runs = await recoverAbandonedRuns(engine, deps);
    if (jobs + runs > 0)
      log.warn(`A stopped process left ${runs} agent run(s) running (now failed) and ${jobs} job(s) (retried).`);
  };
  await recover();
  // A crashed replica's heartbeat lapses while this one runs: its work is taken back then. A database
  // outage is told once, not every ten seconds.
  const outage = outageLog(log.warn, "recovery");
  const recovering = setInterval(
    () => recover().then(outage.answered, (error) => outage.failed(error)),
    options.recoverEveryMs ?? 10_000,
  );
  recovering.unref();
  await queueMissingAlerts(engine, deps.prisma);
  return {
    ...clock,
    stop() {
      clearInterval(recovering);
      syncSchedule?.stop();
      clock.stop();
    },
  };
}
