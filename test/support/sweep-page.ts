// A sweep page run by hand on synthetic vanpools, as the sweep's page job runs it: the cases it opens,
// their first emails not yet sent.
import type { AgentDeps } from "../../src/agents/deps.js";
import { buildAppDeps } from "../../src/app/container.js";
import { parseSettings } from "../../src/config/settings.js";
import { insertFixturesInBulk } from "../../src/data/seed.js";
import { createSweep } from "../../src/data/sweep-repository.js";
import { generateSyntheticFixtures } from "../../src/data/synthetic.js";
import type { EmailSender } from "../../src/integrations/email/email-sender.js";
import type { JobEngine } from "../../src/queue/engine.js";
import { sweepPageDeps } from "../../src/workers/sweep-jobs.js";
import { runSweepPage } from "../../src/workers/sweep-page.js";
import { createTestDatabase, type TestDatabase } from "./database.js";

/** A fresh database holding `vanpools` synthetic vanpools and their riders (the same ones for the same `seed`). */
export async function createSyntheticDatabase(vanpools: number, seed: number): Promise<TestDatabase> {
  const db = await createTestDatabase();
  await insertFixturesInBulk(db.prisma, generateSyntheticFixtures(vanpools, seed));
  return db;
}

/** The agents' dependencies on `db`, with default settings, sending through `sender` and queueing on `engine`. */
export async function agentDepsFor(db: TestDatabase, engine: JobEngine, sender: EmailSender): Promise<AgentDeps> {
  return { ...(await buildAppDeps(db, parseSettings({}), { sender })), jobs: engine };
}

/** Audits every vanpool in the agent's database as the only page of sweep `sweepId`; resolves to the cases opened. */
export async function sweepOnePage(
  engine: JobEngine,
  agent: AgentDeps,
  { sweepId, concurrency }: { sweepId: string; concurrency: number },
): Promise<string[]> {
  const vanpoolIds = (await agent.prisma.vanpool.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map(
    (v) => v.id,
  );
  await createSweep(agent.prisma, {
    id: sweepId,
    trigger: "cli",
    pageCount: 1,
    vanpoolCount: vanpoolIds.length,
    now: new Date(),
  });
  const settings = { concurrency };
  return runSweepPage(sweepPageDeps(engine, { agent, settings }), { sweepId, page: 0, vanpoolIds });
}
