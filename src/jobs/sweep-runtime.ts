// Sweeps in a running bot (Slack or the sandbox): the job engine, the sweep workers
// announcing in the audit channel, the schedule, and what `/poolpatrol audit all` calls.
import type { AgentDeps } from "../agents/deps.js";
import type { Settings } from "../config/settings.js";
import type { SlackApp } from "../slack/app.js";
import { createSweepAnnouncer } from "./sweep-announce.js";
import { startJobBoss } from "./sweep-boss.js";
import { registerSweepJobs, requestManualSweep, scheduleSweeps } from "./sweep-jobs.js";

export async function startSweepEngine(input: {
  databaseUrl: string;
  agent: AgentDeps;
  settings: Settings;
  log: (line: string) => void;
}) {
  const boss = await startJobBoss(input.databaseUrl, (error) => input.log(`Job engine: ${error.message}`));
  let schedule: { stop(): void } | undefined;
  return {
    startSweep: (userId: string) =>
      requestManualSweep(boss, input.agent.prisma, { trigger: `slack:${userId}`, now: input.agent.now() }),
    /** Once the bot exists: work on sweeps, announce them in its channel, and fire the schedule. */
    async attach(bot: SlackApp, channel: string) {
      await registerSweepJobs(boss, {
        agent: input.agent,
        settings: input.settings.sweep,
        log: input.log,
        announce: createSweepAnnouncer({
          prisma: input.agent.prisma,
          client: bot.app.client,
          channel,
          messages: bot.messages,
        }),
      });
      schedule = scheduleSweeps(boss, {
        cron: input.settings.sweep.cron,
        timezone: input.settings.timeZone,
        log: input.log,
      });
    },
    async stop() {
      schedule?.stop();
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
