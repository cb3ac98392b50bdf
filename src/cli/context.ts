// What commands need, built from settings: the database alone for read-only commands, or the
// database with everything the agents use. The agents' modules load only when a command needs them.

import path from "node:path";
import type { AgentDeps } from "../agents/deps.js";
import { PROJECT_ROOT, parseSettings, type Settings } from "../config/settings.js";
import { type Database, openDatabase } from "../data/database.js";
import { readFixtureDir } from "../data/fixtures.js";
import { seedFixtures } from "../data/seed.js";
import type { AuditServiceDeps } from "../verification/audit-service.js";
import { log } from "./command-kit.js";

export interface CliContext {
  settings: Settings;
  db: Database;
  auditDeps: AuditServiceDeps;
  agentDeps: AgentDeps;
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  return parseSettings(env);
}

export async function openContext(
  settings: Settings,
  logLine: (line: string) => void = log,
  options: { now?: () => Date } = {},
): Promise<CliContext> {
  const [{ configureTracing }, { buildAgentDeps }] = await Promise.all([
    import("../integrations/tracing.js"),
    import("../agents/deps.js"),
  ]);
  configureTracing(settings);
  const db = await openDatabase(settings, { log: logLine });
  const agentDeps = await buildAgentDeps(db, settings, options);
  const auditDeps: AuditServiceDeps = agentDeps;
  return { settings, db, auditDeps, agentDeps };
}

/** Runs `fn` with a context on the configured database, and closes the database afterwards. */
export async function withContext<T>(
  settings: Settings,
  fn: (ctx: CliContext) => Promise<T>,
  options: { now?: () => Date } = {},
): Promise<T> {
  const ctx = await openContext(settings, log, options);
  try {
    return await fn(ctx);
  } finally {
    await ctx.db.close();
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

export async function seedIfEmpty(prisma: Database["prisma"]): Promise<void> {
  if ((await prisma.vanpool.count()) > 0) return;
  const counts = await seedFixtures(prisma, readFixtureDir(path.join(PROJECT_ROOT, "mock")));
  log(`Empty database: loaded the mock data (${counts.vanpools} vanpools, ${counts.employees} employees).`);
}
