// A sweep's first-email run belongs to the process sending it: once that process is gone, the
// next start-up recovery fails the run at once instead of leaving it `running` for minutes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendFirstEmails } from "../../src/cases/first-emails.js";
import { startJobEngine } from "../../src/queue/engine.js";
import { QUEUE_OPTIONS } from "../../src/queue/queues.js";
import { recoverAbandonedRuns } from "../../src/workers/case-jobs.js";
import type { TestDatabase } from "../support/database.js";
import { agentDepsFor, createSyntheticDatabase, sweepOnePage } from "../support/sweep-page.js";
import { waitFor } from "../support/wait.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await createSyntheticDatabase(40, 7);
});
afterAll(() => db.drop());

describe("a sweep's first emails, when the process sending them dies", () => {
  it("leaves no agent run `running`: the next recovery fails it", async () => {
    const start = { databaseUrl: db.url, log: () => {}, queues: QUEUE_OPTIONS, supervise: false };
    const crashing = await startJobEngine(start);
    // The process dies while it hands the first email to the provider: that call never returns.
    const agent = await agentDepsFor(db, crashing, { name: "hung", send: () => new Promise<never>(() => {}) });
    const [caseId] = await sweepOnePage(crashing, agent, { sweepId: "manual-test", concurrency: 2 });
    expect(caseId).toBeDefined();
    void sendFirstEmails(agent, crashing, [caseId!], 2);
    const run = await waitFor(
      "the outreach run to start",
      () => db.prisma.agentRun.findFirst({ where: { caseId, agent: "outreach" } }),
      { timeoutMs: 10_000, everyMs: 50 },
    );
    expect(run.status).toBe("running");
    // The process is gone (its heartbeat with it); another starts and recovers.
    await crashing.stop();
    const next = await startJobEngine(start);
    try {
      await recoverAbandonedRuns(next, agent);
      expect(await db.prisma.agentRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
        status: "failed",
        error: expect.stringMatching(/stopped before it finished/),
      });
    } finally {
      await next.stop();
    }
  });
});
