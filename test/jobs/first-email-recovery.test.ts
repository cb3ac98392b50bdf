// A sweep's first-email run belongs to the process sending it: once that process is gone, the
// next start-up recovery fails the run at once instead of leaving it `running` for minutes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAgentDeps } from "../../src/agents/deps.js";
import { sendFirstEmails } from "../../src/cases/first-emails.js";
import { parseSettings } from "../../src/config/settings.js";
import { insertFixturesInBulk } from "../../src/data/seed.js";
import { createSweep } from "../../src/data/sweep-repository.js";
import { generateSyntheticFixtures } from "../../src/data/synthetic.js";
import { recoverAbandonedRuns } from "../../src/jobs/case-jobs.js";
import { startJobEngine } from "../../src/jobs/engine.js";
import { QUEUE_OPTIONS } from "../../src/jobs/queues.js";
import { sweepPageDeps } from "../../src/jobs/sweep-jobs.js";
import { runSweepPage } from "../../src/jobs/sweep-page.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await insertFixturesInBulk(db.prisma, generateSyntheticFixtures(40, 7));
});
afterAll(() => db.drop());

const settings = { concurrency: 2, pageSize: 40, pageTimeoutSeconds: 60 };

describe("a sweep's first emails, when the process sending them dies", () => {
  it("leaves no agent run `running`: the next recovery fails it", async () => {
    const start = { databaseUrl: db.url, log: () => {}, queues: QUEUE_OPTIONS, supervise: false };
    const crashing = await startJobEngine(start);
    // The process dies while it hands the first email to the provider: that call never returns.
    const agent = {
      ...(await buildAgentDeps(db, parseSettings({}), {
        sender: { name: "hung", send: () => new Promise<never>(() => {}) },
      })),
      jobs: crashing,
    };
    const vanpoolIds = (await db.prisma.vanpool.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map(
      (v) => v.id,
    );
    await createSweep(db.prisma, {
      id: "manual-test",
      trigger: "cli",
      pageCount: 1,
      vanpoolCount: 40,
      now: new Date(),
    });
    const [caseId] = await runSweepPage(sweepPageDeps(crashing, { agent, settings }), {
      sweepId: "manual-test",
      page: 0,
      vanpoolIds,
    });
    expect(caseId).toBeDefined();
    void sendFirstEmails(agent, crashing, [caseId!], 2);
    let run = await db.prisma.agentRun.findFirst({ where: { caseId, agent: "outreach" } });
    for (let waited = 0; !run && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      run = await db.prisma.agentRun.findFirst({ where: { caseId, agent: "outreach" } });
    }
    expect(run?.status).toBe("running");
    // The process is gone (its heartbeat with it); another starts and recovers.
    await crashing.stop();
    const next = await startJobEngine(start);
    try {
      await recoverAbandonedRuns(next, agent);
      expect(await db.prisma.agentRun.findUniqueOrThrow({ where: { id: run!.id } })).toMatchObject({
        status: "failed",
        error: expect.stringMatching(/stopped before it finished/),
      });
    } finally {
      await next.stop();
    }
  });
});
