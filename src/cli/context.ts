// What every command needs, built once from settings.

import { type AgentDeps, buildAgentDeps } from "../agents/deps.js";
import { parseSettings, type Settings } from "../config/settings.js";
import { type Database, openDatabase } from "../data/database.js";
import { configureTracing } from "../integrations/tracing.js";
import type { AuditServiceDeps } from "../verification/audit-service.js";

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
  log: (line: string) => void,
  options: { now?: () => Date } = {},
): Promise<CliContext> {
  configureTracing(settings);
  const db = await openDatabase(settings, { log });
  const agentDeps = await buildAgentDeps(db, settings, options);
  const auditDeps: AuditServiceDeps = agentDeps;
  return { settings, db, auditDeps, agentDeps };
}
