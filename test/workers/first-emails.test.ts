// A sweep page's first emails, sent in bulk to the Resend stub: one email per flagged rider,
// each reply clock started once; a send Resend refuses goes on alone as a send-email job and,
// when it keeps failing, moves only its own case to a person with the reason; the page run
// again (its job retried) sends nothing twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentDeps } from "../../src/agents/deps.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { sendFirstEmails } from "../../src/cases/first-emails.js";
import { JOB_SCHEMA } from "../../src/data/job-repository.js";
import { createPool } from "../../src/data/pg-pool.js";
import { resendSender } from "../../src/integrations/email/resend-sender.js";
import { type JobEngine, startJobEngine } from "../../src/queue/engine.js";
import { QUEUE_OPTIONS, QUEUES } from "../../src/queue/queues.js";
import { registerCaseJobs } from "../../src/workers/case-jobs.js";
import type { TestDatabase } from "../support/database.js";
import { type ResendStub, startResendStub } from "../support/resend-stub.js";
import { agentDepsFor, createSyntheticDatabase, sweepOnePage } from "../support/sweep-page.js";
import { waitFor } from "../support/wait.js";

let db: TestDatabase;
let resend: ResendStub;
let engine: JobEngine;
let deps: AgentDeps;

beforeAll(async () => {
  [db, resend] = await Promise.all([createSyntheticDatabase(80, 11), startResendStub()]);
  // The email job gives up after one retry here, so the test need not wait through four backoffs.
  engine = await startJobEngine({
    databaseUrl: db.url,
    log: () => {},
    pollingIntervalSeconds: 0.5,
    supervise: false,
    queues: { ...QUEUE_OPTIONS, [QUEUES.sendEmail]: { retryLimit: 1, retryDelay: 1, expireInSeconds: 60 } },
  });
  deps = await agentDepsFor(
    db,
    engine,
    resendSender({ apiKey: "re_test_key", baseUrl: resend.baseUrl, timeoutMs: 3000 }),
  );
  await registerCaseJobs(engine, { deps, workflow: createCaseWorkflow(deps), log: () => {} });
}, 120_000);
afterAll(async () => {
  await engine?.stop();
  await resend?.close();
  await db?.drop();
});

describe("a sweep page's first emails", () => {
  it("go out once each; a refused one moves only its own case to a person, with the reason", {
    timeout: 120_000,
  }, async () => {
    const caseIds = await sweepOnePage(engine, deps, { sweepId: "manual-first-emails", concurrency: 3 });
    const cases = await db.prisma.case.findMany({ where: { id: { in: caseIds } }, orderBy: { id: "asc" } });
    const riders = await db.prisma.employee.findMany({
      where: { id: { in: cases.flatMap((c) => (c.meta as { flagged: string[] }).flagged) } },
      select: { id: true, email: true },
    });
    expect(cases.length).toBeGreaterThan(2);
    expect(cases.every((c) => c.status === "pending_reply")).toBe(true);

    // Resend refuses the first email it is handed; the rest of the page goes on.
    resend.failNext(500, "internal error");
    const attemptsBefore = resend.attempts();
    const done = await sendFirstEmails(deps, engine, caseIds, 1);
    expect(done).toEqual({ sent: riders.length - 1, retrying: 1 });
    expect(resend.attempts() - attemptsBefore).toBe(riders.length);
    // ... and keeps refusing it: the send-email job tries once more, then gives up.
    resend.failFor(10, 429, "rate limited");
    const unsent = await db.prisma.message.findFirstOrThrow({
      where: { direction: "outbound", status: { not: "sent" } },
      include: { thread: true },
    });
    const failedCase = await waitFor(
      "the refused email's case to need a person",
      async () => {
        const row = await db.prisma.case.findUniqueOrThrow({ where: { id: unsent.thread.caseId } });
        return row.status === "hitl_review" && row;
      },
      { timeoutMs: 60_000 },
    );
    resend.failFor(0, 200, "");
    const rider = riders.find((r) => r.email === unsent.toAddresses[0])!;
    expect((failedCase.meta as { attention: string }).attention).toBe(`email to ${rider.id} failed: 429 rate limited`);
    expect((await db.prisma.message.findUniqueOrThrow({ where: { id: unsent.id } })).status).toBe("failed");

    // Every other case waits for its riders' reply, its clock started by its email.
    const others = await db.prisma.case.findMany({ where: { id: { in: caseIds, not: failedCase.id } } });
    expect(others.every((c) => c.status === "pending_reply" && c.lastOutboundAt)).toBe(true);
    expect(resend.sent.map((s) => (s.body.to as string[])[0]).sort()).toEqual(
      riders
        .map((r) => r.email)
        .filter((e) => e !== rider.email)
        .sort(),
    );
    expect(await db.prisma.auditEvent.count({ where: { action: "email.sent" } })).toBe(riders.length - 1);
    const [timeouts] = await db.pool
      .query<{ n: string }>(`SELECT count(*) AS n FROM ${JOB_SCHEMA}.job WHERE name = $1`, [QUEUES.replyTimeout])
      .then((r) => r.rows);
    expect(Number(timeouts!.n)).toBe(others.length);
    // Each case's email step is recorded as an Outreach run, none left running.
    expect(await db.prisma.agentRun.count({ where: { agent: "outreach", caseId: { in: caseIds } } })).toBe(
      cases.length,
    );
    expect(await db.prisma.agentRun.count({ where: { status: "running" } })).toBe(0);

    // The page's first-email job run again (a retry after a crash): nothing more reaches Resend.
    const attempts = resend.attempts();
    expect(await sendFirstEmails(deps, engine, caseIds, 1)).toEqual({ sent: 0, retrying: 0 });
    expect(resend.attempts()).toBe(attempts);
    expect(await db.prisma.message.count({ where: { direction: "outbound" } })).toBe(riders.length);
  });

  it("sent by a page that crashed after handing them over are handed over again under the same keys, and counted once", {
    timeout: 60_000,
  }, async () => {
    const fresh = await createSyntheticDatabase(60, 5);
    const freshEngine = await startJobEngine({
      databaseUrl: fresh.url,
      log: () => {},
      supervise: false,
      queues: QUEUE_OPTIONS,
    });
    try {
      const freshDeps: AgentDeps = { ...deps, prisma: fresh.prisma, pool: fresh.pool };
      const caseIds = await sweepOnePage(freshEngine, freshDeps, { sweepId: "manual-crash", concurrency: 3 });
      // The first attempt hands every email over, then loses its database before recording them.
      const sentBefore = resend.sent.length;
      const lost = createPool(fresh.url);
      const dying: AgentDeps = {
        ...freshDeps,
        pool: lost,
        sender: {
          name: "loses the database after sending",
          send: async (email) => {
            const accepted = await freshDeps.sender.send(email);
            if (!lost.ended) await lost.end();
            return accepted;
          },
        },
      };
      await expect(sendFirstEmails(dying, freshEngine, caseIds, 1)).rejects.toThrow();
      const handed = resend.sent.length - sentBefore;
      expect(handed).toBeGreaterThan(0);
      expect(await fresh.prisma.message.count({ where: { status: "sent" } })).toBe(0);
      // The retried job sends them again with the same keys: Resend keeps one each; each is recorded once.
      const retried = await sendFirstEmails(freshDeps, freshEngine, caseIds, 1);
      expect(resend.sent.length - sentBefore).toBe(retried.sent);
      expect(await fresh.prisma.message.count({ where: { status: "sent" } })).toBe(retried.sent);
      expect(await fresh.prisma.auditEvent.count({ where: { action: "email.sent" } })).toBe(retried.sent);
    } finally {
      await freshEngine.stop();
      await fresh.drop();
    }
  });
});
