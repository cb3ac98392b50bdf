// Sweeps in a running bot (Slack or the sandbox), on the bot's job engine: the sweep
// workers announcing in the audit channel, the schedule, and what `/poolpatrol audit all` calls.
import type { AgentDeps } from "../agents/deps.js";
import type { SlackApp } from "../bot/app.js";
import type { Settings } from "../config/settings.js";
import type { JobEngine } from "../queue/engine.js";
import { createSweepAnnouncer } from "../workers/sweep-announce.js";
import { registerSweepJobs, requestManualSweep, scheduleSweeps } from "../workers/sweep-jobs.js";

export function createBotSweeps(input: {
  engine: JobEngine;
  agent: AgentDeps;
  settings: Settings;
  log: (line: string) => void;
  /** False when worker processes audit the pages and send the first emails (the default is true). */
  auditPages?: boolean;
}) {
  let schedule: { stop(): void } | undefined;
  return {
    startSweep: (userId: string) =>
      requestManualSweep(input.engine, input.agent.prisma, { trigger: `slack:${userId}`, now: input.agent.now() }),
    /** Once the bot exists: work on sweeps, announce them in its channel, and fire the schedule. */
    async attach(bot: SlackApp, channel: string) {
      await registerSweepJobs(
        input.engine,
        {
          agent: input.agent,
          settings: input.settings.sweep,
          log: input.log,
          announce: createSweepAnnouncer({
            prisma: input.agent.prisma,
            client: bot.app.client,
            channel,
            jobs: input.engine,
            channelIntervalMs: input.settings.slackPostIntervalMs,
            claimMs: input.settings.claimMs,
          }),
        },
        { plan: true, audit: input.auditPages ?? true },
      );
      schedule = scheduleSweeps(input.engine, {
        cron: input.settings.sweep.cron,
        timezone: input.settings.timeZone,
        log: input.log,
      });
    },
    /** Stops the schedule; the engine and its workers belong to the caller. */
    stop() {
      schedule?.stop();
    },
  };
}
