// A fresh database with the mock data and the agents' dependencies on it, for tests that drive the agents
// directly: emails go to a local outbox, and the clock stands on Monday 2026-11-23 (Pacific).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AgentDeps } from "../../src/agents/deps.js";
import { buildAppDeps } from "../../src/app/container.js";
import type { Settings } from "../../src/config/settings.js";
import { outboxSender } from "../../src/integrations/email/outbox.js";
import { createTestDatabase, type TestDatabase } from "./database.js";

export interface SeededAgents {
  db: TestDatabase;
  deps: AgentDeps;
  /** Drops the database and the outbox. */
  close(): Promise<void>;
}

export async function seededAgents(settings: Settings): Promise<SeededAgents> {
  const db = await createTestDatabase({ mockData: true });
  const outbox = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-agents-"));
  const deps = await buildAppDeps(db, settings, {
    sender: outboxSender(outbox),
    now: () => new Date("2026-11-23T16:00:00Z"),
  });
  return {
    db,
    deps,
    close: async () => {
      await db.drop();
      fs.rmSync(outbox, { recursive: true, force: true });
    },
  };
}
