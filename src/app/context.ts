// What commands need, built from settings: the database alone for read-only commands, or the
// database with everything the agents use (and, for commands that change cases, the job engine).
// The agents' modules load only when a command needs them.

import path from "node:path";
import type { AgentDeps } from "../agents/deps.js";
import { PROJECT_ROOT, parseSettings, type Settings } from "../config/settings.js";
import { type Database, openDatabase } from "../data/database.js";
import { poolShares } from "../data/pg-pool.js";
import { countVanpools } from "../data/vanpool-repository.js";
import type { JobEngine, UnfinishedJob } from "../queue/engine.js";
import type { AuditServiceDeps } from "../verification/audit-service.js";
import { log } from "./log.js";

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
  logLine: (line: string) => void = log,
  options: { now?: () => Date; jobs?: "worker" | "bot" } = {},
): Promise<CliContext> {
  const [{ configureTracing }, { buildAppDeps }] = await Promise.all([
    import("../integrations/tracing.js"),
    import("./container.js"),
  ]);
  configureTracing(settings);
  const shares = poolShares(settings.dbPoolSize, Boolean(options.jobs));
  const db = await openDatabase(settings, { log: logLine, connections: shares.app });
  let jobs: JobEngine | undefined;
  try {
    if (options.jobs) {
      const [{ startJobEngine }, { QUEUE_OPTIONS }] = await Promise.all([
        import("../queue/engine.js"),
        import("../queue/queues.js"),
      ]);
      jobs = await startJobEngine({
        databaseUrl: db.url,
        log: logLine,
        supervise: options.jobs === "bot",
        pollingIntervalSeconds: options.jobs === "bot" ? 2 : 0.5,
        queues: QUEUE_OPTIONS,
        connections: shares.jobs,
      });
    }
  } catch (error) {
    await db.close();
    throw error;
  }
  const agentDeps: AgentDeps = { ...(await buildAppDeps(db, settings, options)), jobs };
  if (jobs && options.jobs === "worker") {
    const [{ registerCaseJobs }, { createCaseWorkflow }] = await Promise.all([
      import("../workers/case-jobs.js"),
      import("../cases/case-workflow.js"),
    ]);
    await registerCaseJobs(jobs, { deps: agentDeps, workflow: createCaseWorkflow(agentDeps), log: logLine });
  }
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

/**
 * Runs `fn` with a context on the configured database, then (with `jobs: "worker"`) the case jobs it
 * queued, naming any that did not complete, and closes everything afterwards.
 */
export async function withContext<T>(
  settings: Settings,
  fn: (ctx: CliContext) => Promise<T>,
  options: { now?: () => Date; jobs?: "worker" } = {},
): Promise<T> {
  const ctx = await openContext(settings, log, options);
  try {
    const result = await fn(ctx);
    for (const job of await ctx.settle())
      log(
        `poolpatrol: ${job.name} job ${job.id} ${job.state === "retry" ? "failed and will be retried" : job.state}${job.error ? `: ${job.error}` : ""}. \`poolpatrol jobs\` shows it.`,
      );
    return result;
  } finally {
    await ctx.close();
  }
}

/** For commands that only read and write records: no agents, no model, no tracing. */
export async function withDatabase<T>(settings: Settings, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(settings, { log });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/**
 * An empty database gets the mock data, its story moved to end today; the open cases' vanpools are audited, so each case
 * shows its checks' results as an audited one does; the mock threads' replies are then taken
 * in as real inbound email, so the first screen shows cases in the state their replies imply.
 */
export async function seedIfEmpty(ctx: Pick<CliContext, "db" | "agentDeps">): Promise<void> {
  if ((await countVanpools(ctx.db.prisma, false)) > 0) return;
  const [{ processSeededReplies }, { createCaseWorkflow }, { seedFolder }, { auditSeededCases }] = await Promise.all([
    import("../cases/seeded-replies.js"),
    import("../cases/case-workflow.js"),
    import("../cases/seed-folder.js"),
    import("../verification/seeded-case-audits.js"),
  ]);
  const seeded = await seedFolder(ctx.db, path.join(PROJECT_ROOT, "mock"), {
    inbound: false,
    asOf: ctx.agentDeps.now(),
  });
  const added = (kind: string) => seeded.imports.find((i) => i.kind === kind)?.result.added.length ?? 0;
  const audited = await auditSeededCases(ctx.agentDeps, seeded.cases);
  const replies = await processSeededReplies(ctx.agentDeps, createCaseWorkflow(ctx.agentDeps), seeded);
  log(
    `Empty database: loaded the mock data (${added("vanpools")} vanpools, ${added("employees")} employees, ${audited.length} open cases' vanpools audited, ${replies.length} riders' replies taken in as email).`,
  );
}
