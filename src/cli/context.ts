// What every command needs, built once from settings.

import { type AgentDeps, buildAgentDeps } from "../agents/deps.js";
import { createCaseWorkflow } from "../cases/case-workflow.js";
import { parseSettings, type Settings } from "../config/settings.js";
import { type Database, openDatabase } from "../data/database.js";
import { configureTracing } from "../integrations/tracing.js";
import { registerCaseJobs } from "../jobs/case-jobs.js";
import { type JobEngine, startJobEngine, type UnfinishedJob } from "../jobs/engine.js";
import { QUEUE_OPTIONS } from "../jobs/queues.js";
import type { AuditServiceDeps } from "../verification/audit-service.js";

export interface CliContext {
  settings: Settings;
  db: Database;
  auditDeps: AuditServiceDeps;
  agentDeps: AgentDeps;
  /** The job engine, when the command asked for one. */
  jobs: JobEngine | undefined;
  /** Runs the case jobs this command queued (emails, decisions) before it exits; returns those that did not complete. */
  settle(): Promise<UnfinishedJob[]>;
  close(): Promise<void>;
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  return parseSettings(env);
}

/**
 * `jobs: "worker"` (commands that change cases) starts the job engine and works the case queues
 * while the command runs; `"bot"` starts it for the bot, which registers its own workers.
 */
export async function openContext(
  settings: Settings,
  log: (line: string) => void,
  options: { now?: () => Date; jobs?: "worker" | "bot" } = {},
): Promise<CliContext> {
  configureTracing(settings);
  const db = await openDatabase(settings, { log });
  let jobs: JobEngine | undefined;
  try {
    jobs = options.jobs
      ? await startJobEngine({
          databaseUrl: db.url,
          log,
          supervise: options.jobs === "bot",
          pollingIntervalSeconds: options.jobs === "bot" ? 2 : 0.5,
          queues: QUEUE_OPTIONS,
        })
      : undefined;
  } catch (error) {
    await db.close();
    throw error;
  }
  const agentDeps: AgentDeps = { ...(await buildAgentDeps(db, settings, options)), jobs };
  if (jobs && options.jobs === "worker")
    await registerCaseJobs(jobs, { deps: agentDeps, workflow: createCaseWorkflow(agentDeps), log });
  const auditDeps: AuditServiceDeps = agentDeps;
  return {
    settings,
    db,
    auditDeps,
    agentDeps,
    jobs,
    settle: async () => (jobs ? jobs.drain() : []),
    async close() {
      await jobs?.stop();
      await db.close();
    },
  };
}
