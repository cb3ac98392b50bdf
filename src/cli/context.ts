// What every command needs, built once from settings.
import { parseSettings, type Settings } from "../config/settings.js";
import { openDatabase, type Database } from "../data/database.js";
import { createDistanceProvider } from "../integrations/distance/index.js";
import type { AuditServiceDeps } from "../verification/audit-service.js";
import type { AgentDeps } from "../agents/deps.js";
import { createCheckpointer } from "../agents/checkpointer.js";
import { createRulesClassifier } from "../agents/outreach/classifier.js";
import { createEmailSender } from "../integrations/email/index.js";

export interface CliContext {
  settings: Settings;
  db: Database;
  auditDeps: AuditServiceDeps;
  agentDeps: AgentDeps;
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  return parseSettings(env);
}

export async function openContext(settings: Settings, log: (line: string) => void, options: { now?: () => Date } = {}): Promise<CliContext> {
  const db = await openDatabase(settings, { log });
  const auditDeps: AuditServiceDeps = {
    prisma: db.prisma,
    pool: db.pool,
    distance: createDistanceProvider(settings),
    policy: settings.policy,
    now: options.now ?? (() => new Date()),
    defaultTimeZone: settings.timeZone,
  };
  const agentDeps: AgentDeps = {
    ...auditDeps,
    settings,
    sender: createEmailSender(settings),
    checkpointer: await createCheckpointer(db.pool),
    classifier: createRulesClassifier(),
  };
  return { settings, db, auditDeps, agentDeps };
}
