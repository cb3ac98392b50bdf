// What every command needs, built once from settings.
import { parseSettings, type Settings } from "../config/settings.js";
import { openDatabase, type Database } from "../data/database.js";
import { createDistanceProvider } from "../integrations/distance/index.js";
import type { AuditServiceDeps } from "../verification/audit-service.js";

export interface CliContext {
  settings: Settings;
  db: Database;
  auditDeps: AuditServiceDeps;
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  return parseSettings(env);
}

export async function openContext(settings: Settings, log: (line: string) => void): Promise<CliContext> {
  const db = await openDatabase(settings, { log });
  return {
    settings,
    db,
    auditDeps: {
      prisma: db.prisma,
      pool: db.pool,
      distance: createDistanceProvider(settings),
      policy: settings.policy,
      now: () => new Date(),
      defaultTimeZone: settings.timeZone,
    },
  };
}
